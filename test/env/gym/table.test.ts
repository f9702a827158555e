// The Table: agents ask for their seats' steps, seats without one are played from outside,
// the same deal seeds give the same cards whatever is played, and an illegal choice names
// the agent that made it.
import { describe, expect, it } from 'vitest';
import type { Agent } from '../../../env/gym/agent.js';
import { Episode, ONGOING, TERMINATED, parseEnvOptions } from '../../../env/gym/episode.js';
import { Table } from '../../../env/gym/table.js';
import { type Rng, randomInt, seededRng } from '../../../env/rules/random.js';

function table(options: Parameters<typeof parseEnvOptions>[0]): Table {
  return new Table(new Episode(parseEnvOptions(options)));
}

/** Plays a random legal id from its own seeded generator. */
function randomIds(seed: number): Agent {
  let rng: Rng = seededRng(seed);
  return {
    name: 'random-ids',
    reset(s) {
      rng = seededRng(s);
    },
    act({ mask }) {
      const ids = [...mask.keys()].filter((id) => mask[id]);
      return { action: ids[randomInt(rng, 0, ids.length - 1)] };
    },
  };
}

describe('Table', () => {
  it('lets agents play until a seat without one is to move, which is then stepped from outside', () => {
    const t = table({ players: 3, episode: 'round', maxTurns: 500 });
    t.reset({ seed: 3 });
    const agents = [randomIds(1), null, randomIds(2)];
    const stepped: number[] = [];
    let outside = 0;
    while (t.play(agents, (seat) => stepped.push(seat)) === ONGOING) {
      expect(t.seat).toBe(1);
      expect(t.input().view.seat).toBe(1);
      t.step(t.legalIds[0]);
      outside++;
    }
    expect(outside).toBeGreaterThan(0);
    expect(stepped.length).toBeGreaterThan(0);
    expect(stepped.every((seat) => seat !== 1)).toBe(true);
    expect(t.seat).toBe(-1);
    expect(t.play(agents)).not.toBe(ONGOING);
  });

  it('deals the same cards every round to tables given the same deal seeds, whatever is played', () => {
    const records = [1, 2].map((agentSeed) => {
      const t = table({ players: 2, episode: 'game', maxTurns: 2000, history: true });
      t.reset({ seed: agentSeed, dealSeeds: (round) => 1000 + round });
      t.play([randomIds(agentSeed), randomIds(agentSeed + 10)]);
      return t.episode.history?.record();
    });
    const [a, b] = records.map((record) => record?.rounds.map(({ hands, discard }) => ({ hands, discard })) ?? []);
    expect(Math.min(a.length, b.length)).toBeGreaterThan(1);
    expect(a.slice(0, b.length)).toEqual(b.slice(0, a.length));
    expect(a[1]).not.toEqual(a[0]);
  });

  it('names the agent and seat of an illegal choice, and changes nothing', () => {
    const t = table({ players: 2 });
    t.reset({ seed: 1 });
    const before = t.episode.state.hands.slice();
    const stubborn: Agent = { name: 'stubborn', reset() {}, act: () => ({ action: 1408 }) };
    expect(() => t.play([stubborn, stubborn])).toThrow(/stubborn at seat \d: action 1408 \(slapdown\) is illegal/);
    expect(t.episode.state.hands).toEqual(before);
    expect(t.status).toBe(ONGOING);
  });

  it('gives a clone that plays on identically and leaves the original alone', () => {
    const t = table({ players: 3, episode: 'round' });
    t.reset({ seed: 8 });
    for (let i = 0; i < 10; i++) t.step(t.legalIds[0]);
    const copy = t.clone();
    expect(copy.play([randomIds(4), randomIds(5), randomIds(6)])).toBe(TERMINATED);
    expect(t.status).toBe(ONGOING);
    expect(t.play([randomIds(4), randomIds(5), randomIds(6)])).toBe(TERMINATED);
    expect(t.episode.state.lastResult).toEqual(copy.episode.state.lastResult);
  });
});
