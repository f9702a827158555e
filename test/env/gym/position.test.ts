import { describe, expect, it } from 'vitest';
import { type EnvOptions } from '../../../env/gym/episode.js';
import { POSITION_FORMAT, PositionError, importPosition } from '../../../env/gym/position.js';
import { parseRecord, replay } from '../../../env/rules/record.js';
import { randomInt, seededRng } from '../../../env/rules/random.js';
import { type GameState, HAND_CAP, PHASE_DRAW } from '../../../env/rules/state.js';
import { YanivEnv } from '../../../env/gym/yanivEnv.js';

/** Every field of a state that play depends on, as plain data. */
function digest(s: GameState): unknown {
  const slice = (a: Uint8Array, n: number) => Array.from(a.subarray(0, n));
  return {
    phase: s.phase,
    current: s.current,
    round: s.round,
    turn: s.turn,
    dealer: s.dealer,
    starter: s.starter,
    winner: s.winner,
    totals: Array.from(s.totals),
    active: Array.from(s.active),
    yanivWins: Array.from(s.yanivWins),
    hands: Array.from({ length: s.players }, (_, p) => slice(s.hands.subarray(p * HAND_CAP), s.handLength[p])),
    deck: slice(s.deck, s.deckLength),
    pile: slice(s.pile, s.pileLength),
    prev: slice(s.prev, s.prevLength),
    prevType: s.prevType,
    prevPickable: s.prevPickable,
    laid: slice(s.laid, s.laidLength),
    drawn: s.drawn,
    known: Array.from(s.known),
    lastResult: s.lastResult,
    rng: s.rng.getState(),
  };
}

const OPTIONS: EnvOptions[] = [
  { players: 2, maxTurns: 400 },
  { players: 4, rules: { quickDiscard: true, slapdown: true, jokersPerDeck: 4 }, maxTurns: 300 },
  { players: 3, preset: 'norwegian', episode: 'round', maxTurns: 300 },
];

describe('positions', () => {
  for (const options of OPTIONS) {
    it(`export → import gives the same state, mid-turn included, and play goes on identically (${JSON.stringify(options)})`, () => {
      const env = new YanivEnv(options);
      const rng = seededRng(2);
      let { info } = env.reset({ seed: 5 });
      let checked = 0;
      let midTurn = 0;
      while (!env.done) {
        if (randomInt(rng, 0, 9) === 0) {
          const position = JSON.parse(JSON.stringify(env.exportPosition()));
          expect(position.format).toBe(POSITION_FORMAT);
          expect(digest(importPosition(position).state)).toEqual(digest(env.state));
          if (env.state.phase === PHASE_DRAW) midTurn++;
          checked++;
        }
        info = env.step(info.legalIds[randomInt(rng, 0, info.legalCount - 1)]).info;
      }
      expect(checked).toBeGreaterThan(5);
      expect(midTurn).toBeGreaterThan(0);
      const final = env.exportPosition();
      expect(replay(parseRecord(final.record)).result.ok).toBe(true);
      if (options.players === 2) expect(final.record.rounds.some((round) => round.reshuffles.length > 0)).toBe(true);
    });
  }

  it('loads into an env that continues exactly like the original', () => {
    const env = new YanivEnv({ players: 3, seed: 1 });
    let { info } = env.reset({ seed: 8 });
    const rng = seededRng(4);
    for (let i = 0; i < 301; i++) info = env.step(info.legalIds[randomInt(rng, 0, info.legalCount - 1)]).info;
    const loaded = YanivEnv.fromPosition(env.exportPosition());
    for (let i = 0; i < 200 && !env.done; i++) {
      const action = info.legalIds[randomInt(rng, 0, info.legalCount - 1)];
      const a = env.step(action);
      const b = loaded.step(action);
      expect(Buffer.from(b.observation.buffer).equals(Buffer.from(a.observation.buffer))).toBe(true);
      expect(Array.from(b.info.rewards)).toEqual(Array.from(a.info.rewards));
      info = a.info;
    }
    expect(loaded.exportPosition()).toEqual(env.exportPosition());
    expect(() => new YanivEnv({ players: 2 }).loadPosition(env.exportPosition())).toThrow(/3 players/);
  });

  it('continues a finished round with the next one in game mode', () => {
    const env = new YanivEnv({ players: 2, episode: 'round' });
    let { info } = env.reset({ seed: 3 });
    const rng = seededRng(9);
    while (!env.done) info = env.step(info.legalIds[randomInt(rng, 0, info.legalCount - 1)]).info;
    const position = env.exportPosition();
    expect(YanivEnv.fromPosition(position, { episode: 'round' }).done).toBe(true);
    const game = YanivEnv.fromPosition(position, { episode: 'game' });
    expect(game.done).toBe(false);
    expect(game.state.round).toBe(2);
    expect(replay(parseRecord(game.exportPosition().record)).result.ok).toBe(true);
  });

  it('names what is wrong with a bad position', () => {
    const env = new YanivEnv({ players: 2 });
    let { info } = env.reset({ seed: 1 });
    info = env.step(info.legalIds[0]).info;
    const position = env.exportPosition();
    expect(position.pending?.discard.length).toBeGreaterThan(0);
    expect(() => importPosition({ ...position, format: 'x' })).toThrow(PositionError);
    expect(() => importPosition({ ...position, pending: { discard: ['ZZ'] } })).toThrow(/pending.discard\[0\]: "ZZ" is not a card/);
    expect(() => importPosition({ ...position, pending: { discard: ['KS', 'AH'] } })).toThrow(/pending: /);
    void info;
  });

  // The server will take positions from clients: whatever the document holds, the answer is a
  // PositionError naming the field, never a stack overflow or an option silently dropped.
  it('refuses deep nesting and prototype-named keys anywhere, naming the field', () => {
    const env = new YanivEnv({ players: 2 });
    env.reset({ seed: 1 });
    const text = JSON.stringify(env.exportPosition());
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const edit = (from: string, to: string) => {
      if (!text.includes(from)) throw new Error(`test setup: ${from} is not in the position`);
      return text.replace(from, to);
    };
    const cases: [string, RegExp][] = [
      [edit('"moves":[]', `"moves":[${deep}]`), /^record\.rounds\[0\]\.moves\[0\]: must be a move: .*\(got \[\[\[\[…\]\]\]\]\)$/],
      [
        edit('"rules":{}', `"rules":{"milestones":${deep}}`),
        /^record\.rules: rule option "milestones\[0\]" must be a list of \[at, to\] pairs/,
      ],
      [edit('"rng":[', `"rng":[${deep},`), /^rng\[0\]: must be an integer \(got \[\[\[\[…\]\]\]\]\)$/],
      [edit('"pending":null', `"pending":{"discard":${deep}}`), /^pending\.discard\[0\]: must be a card name \(got \[\[\[\[…\]\]\]\]\)$/],
      [edit('"record":{', `"record":{"x":${deep},`), /^record: unknown field "x"$/],
      [deep, /^position: .*expected object/],
      [
        edit('"rules":{}', '"rules":{"__proto__":{"yanivThreshold":3}}'),
        /^record\.rules: unknown rule option "__proto__"; the rule options are decks, /,
      ],
      [edit('"rules":{}', '"rules":{"constructor":5}'), /^record\.rules: unknown rule option "constructor"/],
      [edit('"pending":null', '"pending":null,"__proto__":{}'), /^position: unknown field "__proto__"$/],
    ];
    const refusal = (input: unknown): unknown => {
      try {
        importPosition(input);
      } catch (error) {
        return error;
      }
      return 'accepted';
    };
    for (const [document, message] of cases) {
      for (const input of [document, JSON.parse(document) as unknown]) {
        const error = refusal(input);
        expect(error).toBeInstanceOf(PositionError);
        expect((error as Error).message).toMatch(message);
      }
    }
    expect((refusal('{"format": ') as Error).message).toMatch(/^position: not valid JSON/);
  });
});
