import { describe, expect, it } from 'vitest';
import { ACTION_COUNT } from '../../../env/gym/actionLayout.js';
import { IllegalActionError } from '../../../env/gym/episode.js';
import { OBSERVATION_SIZE } from '../../../env/gym/observation.js';
import { randomInt, seededRng } from '../../../env/rules/random.js';
import { cloneState } from '../../../env/rules/state.js';
import { MAX_PLAYERS } from '../../../env/rules/rules.js';
import { VecEnv } from '../../../env/gym/vecEnv.js';
import { YanivEnv } from '../../../env/gym/yanivEnv.js';

const hex = (a: Float32Array | Uint8Array | Int16Array | Int8Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('hex');

describe('VecEnv', () => {
  it('matches N single envs stepped by hand, auto-resets included', () => {
    const num = 5;
    const options = { players: 3, episode: 'round' as const, maxTurns: 40, history: false };
    const vec = new VecEnv({ num, ...options });
    vec.reset(100);
    const singles = Array.from({ length: num }, () => new YanivEnv(options));
    const infos = singles.map((env, i) => env.reset({ seed: 100 + i }).info);
    const rng = seededRng(3);
    const actions = new Int32Array(num);
    let episodes = 0;
    for (let t = 0; t < 400; t++) {
      for (let i = 0; i < num; i++) {
        expect(hex(vec.observations.subarray(i * OBSERVATION_SIZE, (i + 1) * OBSERVATION_SIZE))).toBe(
          hex(singles[i].observe(infos[i].observer)),
        );
        expect(hex(vec.masks.subarray(i * ACTION_COUNT, (i + 1) * ACTION_COUNT))).toBe(hex(infos[i].actionMask));
        expect(vec.currentPlayers[i]).toBe(infos[i].currentPlayer);
        expect(vec.legalCounts[i]).toBe(infos[i].legalCount);
        actions[i] = vec.legalIds[i * ACTION_COUNT + randomInt(rng, 0, vec.legalCounts[i] - 1)];
      }
      vec.step(actions);
      for (let i = 0; i < num; i++) {
        const r = singles[i].step(actions[i]);
        expect(hex(vec.rewards.subarray(i * MAX_PLAYERS, i * MAX_PLAYERS + 3))).toBe(hex(r.info.rewards));
        expect(vec.terminated[i]).toBe(r.terminated ? 1 : 0);
        expect(vec.truncated[i]).toBe(r.truncated ? 1 : 0);
        expect(vec.actors[i]).toBe(r.info.actor);
        expect(vec.roundEnds[i]).toBe(r.info.roundResult ? 1 : 0);
        expect(vec.winners[i]).toBe(r.terminated ? r.info.roundResult?.winner : -1);
        infos[i] = r.info;
        if (r.terminated || r.truncated) {
          expect(hex(vec.finalObservations.subarray(i * OBSERVATION_SIZE, (i + 1) * OBSERVATION_SIZE))).toBe(hex(r.observation));
          infos[i] = singles[i].reset().info;
          episodes++;
        }
      }
    }
    expect(episodes).toBeGreaterThan(5);
    expect(vec.episodes).toBe(episodes);
  });

  it('game mode: round ends and the game winner where a game ended', () => {
    const num = 3;
    const options = { players: 2, episode: 'game' as const, history: false, rules: { eliminationLimit: 40 } };
    const vec = new VecEnv({ num, ...options });
    vec.reset(11);
    const singles = Array.from({ length: num }, (_, i) => {
      const env = new YanivEnv(options);
      env.reset({ seed: 11 + i });
      return env;
    });
    const actions = new Int32Array(num);
    let rounds = 0;
    let games = 0;
    const rng = seededRng(2);
    // Random play that calls Yaniv whenever it may ends games quickly.
    for (let t = 0; t < 20_000 && games < 4; t++) {
      for (let i = 0; i < num; i++)
        actions[i] = vec.masks[i * ACTION_COUNT] ? 0 : vec.legalIds[i * ACTION_COUNT + randomInt(rng, 0, vec.legalCounts[i] - 1)];
      vec.step(actions);
      for (let i = 0; i < num; i++) {
        const r = singles[i].step(actions[i]);
        expect(vec.roundEnds[i]).toBe(r.info.roundResult ? 1 : 0);
        rounds += vec.roundEnds[i];
        expect(vec.winners[i]).toBe(r.terminated ? r.info.winner : -1);
        if (r.terminated) {
          expect(vec.winners[i]).toBeGreaterThanOrEqual(0);
          games++;
          singles[i].reset();
        }
      }
    }
    expect(games).toBeGreaterThan(0);
    expect(rounds).toBeGreaterThan(games);
  });

  it('writes the same rows after a reset mid-run as a fresh VecEnv', () => {
    const options = { num: 4, players: 4, maxTurns: 30 };
    const used = new VecEnv(options);
    used.reset(7);
    const rng = seededRng(5);
    const actions = new Int32Array(options.num);
    for (let t = 0; t < 150; t++) {
      for (let i = 0; i < options.num; i++) actions[i] = used.legalIds[i * ACTION_COUNT + randomInt(rng, 0, used.legalCounts[i] - 1)];
      used.step(actions);
    }
    used.reset(20);
    const fresh = new VecEnv(options);
    fresh.reset(20);
    expect(hex(used.observations)).toBe(hex(fresh.observations));
    expect(hex(used.masks)).toBe(hex(fresh.masks));
    expect(used.legalCounts).toEqual(fresh.legalCounts);
  });

  it('checks the batch of actions', () => {
    const vec = new VecEnv({ num: 2, players: 2 });
    vec.reset(1);
    expect(() => vec.step([0])).toThrow(/2 actions/);
    expect(() => vec.step([ACTION_COUNT - 1, ACTION_COUNT - 1])).toThrow(/illegal/);
    expect(() => new VecEnv({ num: 0, players: 2 })).toThrow(/num/);
  });

  // It used to step games 0..k−1 before throwing at game k, leaving the batch half-advanced.
  it('a batch with an illegal action for one game changes nothing in any game', () => {
    const vec = new VecEnv({ num: 5, players: 3, rules: { quickDiscard: true } });
    vec.reset(3);
    const rng = seededRng(4);
    const actions = new Int32Array(vec.num);
    const legal = () => {
      for (let i = 0; i < vec.num; i++) actions[i] = vec.legalIds[i * ACTION_COUNT + randomInt(rng, 0, vec.legalCounts[i] - 1)];
    };
    for (let t = 0; t < 40; t++) {
      legal();
      vec.step(actions);
    }
    const snapshot = () => ({
      buffers: [
        vec.observations,
        vec.masks,
        vec.legalIds,
        vec.legalCounts,
        vec.rewards,
        vec.actors,
        vec.currentPlayers,
        vec.terminated,
        vec.truncated,
        vec.finalObservations,
      ].map(hex),
      episodes: vec.episodes,
      states: Array.from({ length: vec.num }, (_, i) => ({ ...cloneState(vec.state(i)), rng: vec.state(i).rng.getState() })),
    });
    const before = snapshot();
    const illegalId = (i: number) => {
      for (let id = 0; id < ACTION_COUNT; id++) if (vec.masks[i * ACTION_COUNT + id] === 0) return id;
      throw new Error('test setup: every id is legal');
    };
    for (const bad of [illegalId(3), -1, ACTION_COUNT, 1.5, NaN]) {
      legal();
      actions[3] = bad;
      const batch = Array.from(actions, (a, i) => (i === 3 ? bad : a));
      expect(() => vec.step(batch)).toThrow(IllegalActionError);
      expect(() => vec.step(batch)).toThrow(/^game 3: .*; no game was stepped$/);
      expect(snapshot()).toEqual(before);
    }
    legal();
    vec.step(actions);
    expect(snapshot()).not.toEqual(before);
  });
});
