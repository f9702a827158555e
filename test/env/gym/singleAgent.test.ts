import { describe, expect, it } from 'vitest';
import { legalActionIds } from '../../../env/gym/actionMask.js';
import type { Agent } from '../../../env/gym/agent.js';
import { SingleAgentEnv } from '../../../env/gym/singleAgent.js';
import { randomAgent } from '../../../agents/bots/random.js';
import { createAgentFor } from '../../../agents/resolve.js';
import { seededRng } from '../../../env/rules/random.js';
import { randomLegalAction } from '../../../env/gym/actionMask.js';

/** An agent that plays the first legal id and calls back with the seat it moved for. */
const firstLegal = (onMove: (seat: number) => void): Agent => ({
  name: 'first-legal',
  reset() {},
  act({ mask, view }) {
    onMove(view.seat);
    return { action: legalActionIds(mask)[0] };
  },
});

describe('SingleAgentEnv', () => {
  it("hands the learner only its own turns and sums its reward over the opponents' moves", () => {
    const moved: number[] = [];
    const opponent = firstLegal((seat) => moved.push(seat));
    const env = new SingleAgentEnv({ players: 3, seat: 1, opponents: opponent, episode: 'round', reward: 'zeroSum' });
    let { info } = env.reset({ seed: 4 });
    const rng = seededRng(1);
    let total = 0;
    let steps = 0;
    for (;;) {
      expect(info.currentPlayer).toBe(1);
      expect(info.legalCount).toBeGreaterThan(0);
      const r = env.step(randomLegalAction(info.actionMask, rng));
      total += r.reward;
      steps++;
      info = r.info;
      if (r.terminated || r.truncated) {
        expect(r.info.observer).toBeGreaterThanOrEqual(0);
        const points = r.info.roundResult?.points ?? [];
        const mean = (points as number[]).reduce((a, b) => a + b, 0) / 3;
        expect(total).toBeCloseTo(-((points[1] as number) - mean) * 0.01, 5);
        break;
      }
    }
    expect(steps).toBeGreaterThan(0);
    expect(moved.length).toBeGreaterThan(0);
    expect(moved.every((seat) => seat !== 1)).toBe(true);
  });

  it('takes one agent per seat', () => {
    const calls = [0, 0, 0];
    const counting = (seat: number): Agent =>
      firstLegal((moved) => {
        expect(moved).toBe(seat);
        calls[seat]++;
      });
    const env = new SingleAgentEnv({ players: 3, opponents: [null, counting(1), counting(2)], maxTurns: 30 });
    let { info } = env.reset({ seed: 1 });
    while (!env.env.done) info = env.step(legalActionIds(info.actionMask)[0]).info;
    expect(calls[1]).toBeGreaterThan(0);
    expect(calls[2]).toBeGreaterThan(0);
    expect(() => new SingleAgentEnv({ players: 3, opponents: [null, counting(1)] })).toThrow(/seat 2/);
  });

  it('rotates the learner round the table, one seat on at every reset', () => {
    const env = new SingleAgentEnv({ players: 3, seat: 'rotate', opponents: randomAgent(), episode: 'round', maxTurns: 50 });
    const seats: number[] = [];
    for (let episode = 0; episode < 4; episode++) {
      const { info } = env.reset({ seed: episode });
      seats.push(env.seat);
      if (info.currentPlayer >= 0) expect(info.currentPlayer).toBe(env.seat);
    }
    expect(seats).toEqual([0, 1, 2, 0]);
    expect(() => new SingleAgentEnv({ players: 3, seat: 'rotate', opponents: [randomAgent(), randomAgent(), randomAgent()] })).toThrow(
      /one agent/,
    );
  });

  it("plays the heuristic bots as opponents: they get their seat's own view", async () => {
    const strong = await createAgentFor('strong', { players: 2 });
    const env = new SingleAgentEnv({ players: 2, opponents: strong, episode: 'round', maxTurns: 200 });
    let { info } = env.reset({ seed: 3 });
    const rng = seededRng(3);
    let steps = 0;
    while (!env.env.done) {
      expect(info.currentPlayer).toBe(0);
      info = env.step(randomLegalAction(info.actionMask, rng)).info;
      steps++;
    }
    expect(steps).toBeGreaterThan(0);
    expect(env.env.state.lastResult).not.toBeNull();
  });
});
