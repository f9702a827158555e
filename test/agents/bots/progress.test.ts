// Bots end their rounds. The audit found `strong` at 86 holding 4S 10C laying its ten and taking
// the opponent's ten back turn after turn (landing exactly on 100 drops it to 50), against an
// opponent doing the mirror image, until the turn cap: test/repro/strong-loop.position.json,
// a yaniv-position/1 of that game (threshold 5, milestones 50 → 0 and 100 → 50, limit 100).
// Measuring the fix found a second loop, in 5 of 2,000 heads-up games of strong against strong
// under the standard rules: each holding a 2 the other had seen it take, neither calls (an
// equal hand is an Assaf) and both take the other's 2 for ever:
// test/repro/strong-standoff.position.json, 40 turns into such a round.
// A server table did the same with the shipped network (issue 15): `create_table` with seats
// client, neural, neural and seed 7, the client laying its highest card and drawing from the deck
// (the deadline's default action); once the client was out, in round 13 seat 1 (one card) and
// seat 2 (three) took each other's 2H, 3S, 3D for ever, neither calling:
// test/repro/neural-trade.position.json, 40 turns into that round.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type Action, actionToMove, cardName, legalActionIds, moveToAction, ruleTables } from '../../../env/index.js';
import type { Agent } from '../../../env/gym/agent.js';
import { importPosition } from '../../../env/gym/position.js';
import { YanivEnv } from '../../../env/gym/yanivEnv.js';
import { isRoundOver } from '../../../env/rules/state.js';
import { playoutRoundStrong } from '../../../agents/bots/playout.js';
import { createAgentFor } from '../../../agents/resolve.js';
import { roundEndChance } from '../../../agents/bots/strong.js';
import { progressGuard } from '../../../agents/models/neural.js';
import { PASS_ACTION, TAKE_START, YANIV_ACTION } from '../../../env/gym/actionLayout.js';
import { stallPenalty } from '../../../agents/bots/tactics.js';
import { game } from '../../env/helpers.js';
import { playerView } from '../../../env/rules/view.js';

const REPRO = JSON.parse(readFileSync(new URL('../../repro/strong-loop.position.json', import.meta.url), 'utf8')) as {
  record: { rules: Record<string, unknown> };
};
const STANDOFF = JSON.parse(readFileSync(new URL('../../repro/strong-standoff.position.json', import.meta.url), 'utf8')) as unknown;
const NEURAL_TRADE = JSON.parse(readFileSync(new URL('../../repro/neural-trade.position.json', import.meta.url), 'utf8')) as unknown;

/** The repro with other rule settings (the milestones, say). */
function repro(rules: Record<string, unknown> = {}): unknown {
  const position = structuredClone(REPRO);
  Object.assign(position.record.rules, rules);
  return position;
}

/**
 * The opponent of the recorded game, as a rule: lays its highest group, takes a ten-valued card
 * from the previous group whenever there is one, else draws; never calls.
 */
const tenTrader: Agent = {
  name: 'tenTrader',
  reset() {},
  act({ mask, view }) {
    const values = ruleTables(view.rules).values;
    const worth = (a: Action) => (a.type === 'discard' ? a.cards.reduce((sum, c) => sum + values[c], 0) : 0);
    const legal = legalActionIds(mask).map((id) => actionToMove(view, id));
    const choice =
      view.phase === 'turn'
        ? legal.filter((a) => a.type === 'discard').sort((a, b) => worth(b) - worth(a))[0]
        : (legal.find((a) => a.type === 'draw' && a.source !== 'deck' && values[a.source] === 10) ??
          legal.find((a) => a.type === 'draw') ??
          legal[0]);
    return { action: moveToAction(view, choice) };
  },
};

/** Plays the position's round on with `agents` by seat; the turns it took, or null if still going at `cap`. */
function playRound(position: unknown, agents: Agent[], cap: number): { turns: number | null; moves: string[] } {
  const env = YanivEnv.fromPosition(position, { episode: 'round', maxTurns: cap });
  let { observation, info } = env.loadPosition(position);
  const moves: string[] = [];
  let truncated = false;
  while (!env.done) {
    const seat = info.currentPlayer;
    const view = env.view(seat);
    const { action } = agents[seat].act({ observation, mask: info.actionMask, view });
    if (moves.length < 12) moves.push(`${seat}: ${moveText(actionToMove(view, action))}`);
    const step = env.step(action);
    ({ observation, info } = step);
    truncated = step.truncated;
  }
  return { turns: truncated ? null : info.turns, moves };
}

function moveText(action: Action): string {
  if (action.type === 'discard') return action.cards.map(cardName).join(' ');
  if (action.type === 'draw') return action.source === 'deck' ? 'deck' : cardName(action.source);
  return action.type;
}

describe('the strong-loop repro', () => {
  it('is the position of the report: seat 0 at 86 with 4S 10C, seat 1 holding a ten it was seen taking', () => {
    const { state } = importPosition(repro());
    const view = playerView(state, 0);
    expect(state.current).toBe(0);
    expect(view.totals).toEqual([86, 66]);
    expect(view.hand.map(cardName)).toEqual(['4S', '10C']);
    expect(view.known[1].map(cardName)).toEqual(['JC']);
    expect(view.handSizes[1]).toBe(1);
  });

  it('strong lays its ten and draws from the deck, as it does without milestones, instead of taking the ten back', async () => {
    for (const rules of [{}, { milestones: [] }]) {
      const strong = await createAgentFor('strong', { players: 2 });
      const { moves } = playRound(repro(rules), [strong, tenTrader], 2);
      expect(moves.slice(0, 2)).toEqual(['0: 10C', '0: deck']);
    }
  });

  it('against an opponent that trades its ten back for ever, strong ends the round within a few turns', async () => {
    for (let seed = 1; seed <= 8; seed++) {
      const strong = await createAgentFor('strong', { players: 2 });
      strong.reset(seed);
      const { turns, moves } = playRound(repro(), [strong, tenTrader], 1000);
      expect(turns, moves.join(', ')).not.toBeNull();
      expect(turns).toBeLessThan(40);
    }
  });

  it('strong against strong ends the round too', async () => {
    const agents = [await createAgentFor('strong', { players: 2 }), await createAgentFor('strong', { players: 2 })];
    agents.forEach((agent, seat) => agent.reset(seat + 1));
    expect(playRound(repro(), agents, 1000).turns).toBeLessThan(40);
  });

  it("the rollout agent's state-level strong ends the round from the repro position", () => {
    for (let seed = 0; seed < 20; seed++) {
      const { state } = importPosition(repro(), { seed });
      const turns = playoutRoundStrong(state, 1000);
      expect(isRoundOver(state)).toBe(true);
      expect(turns).toBeLessThan(100);
    }
  });
});

describe('the standoff repro', () => {
  it('is two seats each holding a 2 the other saw it take, 40 turns into the round', () => {
    const { state } = importPosition(STANDOFF);
    const view = playerView(state, 0);
    expect(view.turn).toBe(40);
    expect(view.hand.map(cardName)).toEqual(['2D']);
    expect(view.known.map((cards) => cards.map(cardName))).toEqual([['2D'], ['2C']]);
    expect(view.handSizes).toEqual([1, 1]);
  });

  it('strong against strong: the round ends once it has stalled, within a few turns', async () => {
    for (let seed = 1; seed <= 6; seed++) {
      const agents = [await createAgentFor('strong', { players: 2 }), await createAgentFor('strong', { players: 2 })];
      agents.forEach((agent, seat) => agent.reset(seed * 2 + seat));
      const { turns, moves } = playRound(STANDOFF, agents, 1000);
      expect(turns, moves.join(', ')).not.toBeNull();
      // The round has gone 40 turns; stalled from 60 (30 turns a seat): it ends soon after.
      expect(turns).toBeLessThan(60);
    }
  });

  it("the rollout agent's state-level strong ends it too", () => {
    for (let seed = 0; seed < 20; seed++) {
      const { state } = importPosition(STANDOFF, { seed });
      const turns = playoutRoundStrong(state, 1000);
      expect(isRoundOver(state)).toBe(true);
      expect(turns).toBeLessThan(60);
    }
  });
});

describe('the neural-trade repro', () => {
  it('is round 13 of the seed-7 table, 40 turns in: seat 0 out, seat 1 holding one card and seat 2 three', () => {
    const { state } = importPosition(NEURAL_TRADE);
    expect(state.round).toBe(13);
    expect(state.turn).toBe(40);
    expect(Array.from(state.active)).toEqual([0, 1, 1]);
    expect(Array.from(state.handLength)).toEqual([0, 1, 3]);
  });

  it('two networks end the round once it has stalled, within a few turns a seat', async () => {
    const unused = await createAgentFor('random', { players: 2 });
    const agents = [unused, await createAgentFor('neural', { players: 2 }), await createAgentFor('neural', { players: 2 })];
    const { turns, moves } = playRound(NEURAL_TRADE, agents, 1000);
    expect(turns, moves.join(', ')).not.toBeNull();
    // Stalled from 60 turns (30 a seat, two seats): it ends soon after.
    expect(turns).toBeLessThan(100);
  });
});

describe("neural's progress guard", () => {
  const view = (turn: number, active = [true, true]) => ({
    ...playerView(game({ hands: ['2S', '3S'], discard: '2H' }), 0),
    turn,
    active,
    players: active.length,
  });
  const legal = [YANIV_ACTION, 1352, TAKE_START + 27];
  const policy = [0.001, 0.499, 0.5];

  it('leaves the policy alone before the round stalls', () => {
    expect(progressGuard(legal, policy, view(60))).toEqual(policy);
  });

  it('then moves weight from taking to the deck and to calling, more each turn, and stays a distribution', () => {
    const early = progressGuard(legal, policy, view(70));
    const late = progressGuard(legal, policy, view(90));
    for (const weights of [early, late]) expect(weights.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(early[2]).toBeLessThan(policy[2]);
    expect(late[2]).toBeLessThan(early[2]);
    expect(early[0]).toBeGreaterThan(policy[0]);
    expect(late[0]).toBeGreaterThan(0.9);
    // The deck draw is neither pushed nor held back: only renormalised.
    expect(early[1] / early[0]).toBeCloseTo(policy[1] / policy[0] / Math.exp(5), 6);
    expect(PASS_ACTION).toBeGreaterThan(TAKE_START + 27);
  });

  it('counts the turns a seat of the active seats, lets a call the network gave 0 through, and stays finite', () => {
    // Three active seats: 90 turns is 30 a seat, not yet stalled.
    expect(progressGuard(legal, policy, view(90, [true, true, true]))).toEqual(policy);
    const zero = progressGuard(legal, [0, 0.5, 0.5], view(400));
    expect(zero[0]).toBeGreaterThan(0.5);
    const far = progressGuard(legal, policy, view(1e7));
    expect(far.every(Number.isFinite)).toBe(true);
  });
});

describe('the progress term', () => {
  it('is 0 up to 30 turns a seat into a round, then one point more per further turn a seat', () => {
    expect(stallPenalty(0, 2)).toBe(0);
    expect(stallPenalty(60, 2)).toBe(0);
    expect(stallPenalty(62, 2)).toBe(1);
    expect(stallPenalty(130, 4)).toBeCloseTo(2.5);
  });
});

describe("strong's chance that the round ends before its next turn (which weights its milestone bonus)", () => {
  it('is 0 when every opponent is known to hold more than the threshold, as in the repro', () => {
    const { state } = importPosition(repro());
    expect(roundEndChance(playerView(state, 0))).toBe(0);
  });

  it('is a rough 0.5 or 0.1, or read from how often rounds did end, by the unseen cards of the opponent likeliest to call', () => {
    // Seat 1 holds two cards nobody has seen (2 points a card: 4 ≤ threshold 7), then five.
    const close = game({ hands: ['KS QS', '5D 6D'], discard: '9H', deck: '8D 8C 7D' });
    const far = game({ hands: ['KS QS', '5D 6D 2C 3C 4H'], discard: '9H', deck: '8D 8C 7D' });
    expect(roundEndChance(playerView(close, 0), 'measured')).toBe(0.21);
    expect(roundEndChance(playerView(far, 0), 'measured')).toBe(0.003);
    // The rough guess strong plays by (it wins more games).
    expect(roundEndChance(playerView(close, 0))).toBe(0.5);
    expect(roundEndChance(playerView(far, 0))).toBe(0.1);
  });
});
