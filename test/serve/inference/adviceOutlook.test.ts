// The advice in a player's terms (serve/inference/winChance.ts, agents/equity/moveOutlook.ts): each move played
// out from the seat's view with its chance to win and points this round, at every table size
// and under house rules, deterministic for a seed, blind to what the seat cannot see.
import { played, turnView } from '../helpers.js';
import { describe, expect, it } from 'vitest';
import { type Advice, type DecideResult, decideBatch } from '../../../serve/inference/decide.js';
import { serverMessageSchema } from '../../../serve/protocol/protocol.js';
import { viewJsonSchema } from '../../../serve/protocol/viewJson.js';
import { type EnvOptions } from '../../../env/gym/episode.js';
import { PHASE_GAME_OVER, type GameState } from '../../../env/rules/state.js';
import { playerView } from '../../../env/rules/view.js';
import { resolveRules } from '../../../env/rules/rules.js';
import { equityForTable } from '../../../agents/equity/equityPlayouts.js';
import { OUTLOOK_DEFAULTS } from '../../../agents/equity/moveOutlook.js';
import { randomPositions, scrambleHidden } from '../../env/gym/envPositions.js';

/** Positions inside a round, seen by the seat to move. */
function positions(options: EnvOptions, seed: number, steps: number, every: number): GameState[] {
  return randomPositions(options, seed, steps).filter((s, i) => i % every === 0 && s.phase < 3 && s.phase !== PHASE_GAME_OVER);
}

async function advise(agent: string, s: GameState, seed: number): Promise<Advice> {
  const [result] = await decideBatch([
    { agent: played(agent, s.players), source: { kind: 'playerView', view: playerView(s, s.current) }, seed, explain: true },
  ]);
  return adviceOf(result);
}

function adviceOf(result: DecideResult): Advice {
  if (!result.ok) throw new Error(`advice failed: ${result.message}`);
  if (!result.advice) throw new Error('no advice');
  return result.advice;
}

function expectSane(advice: Advice): void {
  const moves = advice.moves;
  if (!moves) throw new Error('no moves played out');
  // 0: judged by the table model's own evaluation (its q head), where it has one; else played out.
  expect(advice.worlds === 0 || advice.worlds === OUTLOOK_DEFAULTS.worlds).toBe(true);
  expect(moves[0].action).toBe(advice.pick.action);
  const legal = advice.legal.map((l) => l.action);
  expect(new Set(moves.map((m) => m.action)).size).toBe(moves.length);
  for (const move of moves) {
    expect(legal).toContain(move.action);
    expect(move.points.low).toBeGreaterThanOrEqual(0);
    expect(move.points.low).toBeLessThanOrEqual(move.points.mean);
    expect(move.points.mean).toBeLessThanOrEqual(move.points.high);
    if (move.win) {
      expect(move.win.low).toBeGreaterThanOrEqual(0);
      expect(move.win.low).toBeLessThanOrEqual(move.win.mean);
      expect(move.win.mean).toBeLessThanOrEqual(move.win.high);
      expect(move.win.high).toBeLessThanOrEqual(1);
    }
    for (const reason of move.reasons) expect(reason.text.length).toBeGreaterThan(10);
  }
  // One judgement: the suggestion first, then the moves about the same, then the worse ones; the agent's own pick is among them.
  expect(moves.map((m) => m.standing)).toEqual([
    'suggested',
    ...moves.filter((m) => m.standing === 'same').map(() => 'same'),
    ...moves.filter((m) => m.standing === 'worse').map(() => 'worse'),
  ]);
  expect(moves.map((m) => m.action)).toContain(advice.agentPick.action);
  if (advice.win) {
    expect(advice.win.probability).toBe(moves[0].win?.mean);
    expect(advice.win.roundStart).toBeGreaterThanOrEqual(0);
    expect(advice.win.roundStart).toBeLessThanOrEqual(1);
    expect(advice.winReason).toBeNull();
  } else expect(advice.winReason).toMatch(/\w+ \w+/);
  // What the server sends parses by the protocol's own schema.
  const { seat, phase, pick, agentPick, actions, legal: all, worlds, scores, value, assaf, win, winReason } = advice;
  const message = {
    type: 'advice',
    id: 1,
    agent: 'strong',
    model: null,
    seat,
    phase,
    pick,
    agentPick,
    actions,
    legal: all,
    moves,
    worlds,
    scores,
    value,
    assaf,
    win,
    winReason,
  };
  expect(serverMessageSchema.safeParse(JSON.parse(JSON.stringify(message))).error).toBeUndefined();
}

describe('advice in a player’s terms', () => {
  it('gives each move played out a chance to win and points with ordered intervals, the pick first', async () => {
    for (const s of positions({ players: 3 }, 7, 120, 6)) expectSane(await advise('strong', s, 5));
  });

  it('is the same for the same seed, and blind to the cards the seat cannot see', async () => {
    let compared = 0;
    for (const players of [2, 4]) {
      for (const s of positions({ players }, 11 + players, 90, 9)) {
        const t = scrambleHidden(s, s.current, 99);
        const first = await advise('strong', s, 3);
        expect(await advise('strong', s, 3)).toEqual(first);
        expect(await advise('strong', t, 3)).toEqual(first);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(10);
  });

  it('recommends what the trained bot plays, with its own ranking kept as a detail', async () => {
    for (const s of positions({ players: 2 }, 21, 60, 10)) {
      const advice = await advise('neural', s, 1);
      const [plain] = await decideBatch([
        { agent: played('neural', s.players), source: { kind: 'playerView', view: playerView(s, s.current) }, seed: 1, explain: false },
      ]);
      expect(plain.ok && plain.action).toBe(advice.agentPick.action);
      expect(advice.scores).toBe('probability');
      expectSane(advice);
    }
  }, 60_000);

  it('gives a chance to win at every table size 2–8 and under a house-rule change, or says why not', async () => {
    for (let players = 2; players <= 8; players++) {
      const [s] = positions({ players }, players, 4, 1);
      const advice = await advise('strong', s, 0);
      expect(advice.win, `${players} players`).not.toBeNull();
      expectSane(advice);
    }
    const [slap] = positions({ players: 2, rules: { slapdown: true } }, 3, 4, 1);
    const slapAdvice = await advise('strong', slap, 0);
    expect(slapAdvice.win?.equity).toBe('playouts');
    const [counted] = positions({ players: 3, rules: { gameEnd: 'yanivCount' } }, 3, 4, 1);
    const countedAdvice = await advise('strong', counted, 0);
    expect(countedAdvice.win).toBeNull();
    expect(countedAdvice.winReason).toMatch(/Yaniv calls/);
    expectSane(countedAdvice);
  }, 120_000);

  it('gives its reasons in words where they weigh: the Assaf risk of a call, a card the next player may take and use', async () => {
    // The opponent took 7D from the pile; the seat may call with 6 points.
    const view = viewJsonSchema.parse(
      turnView({ handSizes: [3, 4], known: [[], ['7D']], pile: ['9C', '9H'], deckSize: 44, totals: [12, 40] }),
    );
    const [result] = await decideBatch([{ agent: played('strong'), source: { kind: 'view', view }, seed: 0, explain: true }]);
    const advice = adviceOf(result);
    expectSane(advice);
    const byText = new Map((advice.moves ?? []).map((m) => [m.text, m]));
    expect(byText.get('Yaniv')?.reasons.map((r) => r.kind)).toEqual(['assaf']);
    expect(byText.get('Yaniv')?.reasons[0].text).toMatch(/^Assaf risk 0%: .* you would score 6 \+ 30$/);
    expect(byText.get('discard 2S')?.reasons).toContainEqual(expect.objectContaining({ kind: 'nextTakes', cards: ['2S'] }));
    expect(byText.get('discard 3H')?.reasons.some((r) => r.kind === 'nextTakes')).toBe(false);
  });

  it('computes the equity once per rules and table size, the shipped one where it fits', () => {
    expect(equityForTable(resolveRules({ players: 2 }), 2).source).toBe('shipped');
    for (let players = 2; players <= 8; players++) expect(equityForTable(resolveRules({ players }), players).source).toBe('shipped');
    const house = resolveRules({ players: 3, rules: { slapdown: true } });
    expect(equityForTable(house, 3).source).toBe('playouts');
    expect(equityForTable(house, 3)).toBe(equityForTable(house, 3));
  });
});
