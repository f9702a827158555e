// The environment contract (as Pgx's api_test): one suite every wrapper of an Episode runs —
// YanivEnv, VecEnv and the Gym Table (test/env/gym/envContract.test.ts), the server's table game
// (test/serve/tables/tableGameContract.test.ts) and the bridge (test/bridge/contract.test.ts).
// A wrapper is driven by action ids, seat by seat, through a small adapter; the suite checks
// reset and step (an episode ends, within its turn cap), the masks (exactly the legal ids), the
// seeds (the same seed the same game, another seed another), the observation bounds, the rewards
// (summing as the reward scheme says), that an illegal action is refused and changes nothing,
// the record (it replays), and that the game is the one the Episode itself plays.
import { describe, expect, it } from 'vitest';
import { ACTION_COUNT } from '../../env/gym/actionLayout.js';
import { MaskScratch } from '../../env/gym/actionMask.js';
import { type EnvOptions, Episode, ONGOING, TERMINATED, parseEnvOptions } from '../../env/gym/episode.js';
import { OBSERVATION_SIZE } from '../../env/gym/observation.js';
import { observationBounds } from '../../env/gym/observationBounds.js';
import { REWARD_TABLE } from '../../env/gym/rewards.js';
import { type Rng, randomInt, seededRng } from '../../env/rules/random.js';
import { parseRecord, replay } from '../../env/rules/record.js';
import type { RecordJson } from '../../env/rules/record.js';
import { resolveRules } from '../../env/rules/rules.js';

/** What a wrapper shows after a reset or a step. */
export interface ContractStep {
  /** The seat to move, −1 once the episode is over. */
  readonly seat: number;
  /** The legal action ids of the seat to move (ascending; none once over). */
  readonly legalIds: readonly number[];
  /** The mask the wrapper shows, where it shows one. */
  readonly mask?: ArrayLike<number>;
  /** The observation of the seat to move (while the episode goes on), where the wrapper shows one. */
  readonly observation?: Float32Array;
  /** Every seat's reward of this step, where the wrapper shows them. */
  readonly rewards?: ArrayLike<number>;
  readonly status: 'ongoing' | 'terminated' | 'truncated';
}

/** One episode of a wrapper, driven by action ids. */
export interface ContractEnv {
  reset(seed: number): ContractStep | Promise<ContractStep>;
  /** Steps with an action id; an illegal one throws (or rejects) and changes nothing. */
  step(action: number): ContractStep | Promise<ContractStep>;
  /** The record of the game so far, for a wrapper that keeps one. */
  record?(): RecordJson;
  close?(): void | Promise<void>;
}

export interface ContractSubject {
  readonly name: string;
  /** Makes the wrapper for these env options (each case's); null for options it does not take (said in its cases). */
  make(options: EnvOptions): ContractEnv | Promise<ContractEnv>;
  /** Whether the wrapper takes a case's options (the server's table plays whole games with the default reward). */
  takes?(options: EnvOptions): boolean;
}

/** The cases every wrapper plays: sizes, presets, episode kinds, reward schemes, a turn cap that truncates. */
export const CONTRACT_CASES: readonly EnvOptions[] = [
  { players: 2, episode: 'game', maxTurns: 400 },
  { players: 4, episode: 'round', reward: 'winLoss' },
  { players: 3, preset: 'dutch', episode: 'game', reward: 'zeroSumTotals', rewardScale: 0.5, maxTurns: 30 },
  { players: 5, preset: 'nepal', episode: 'game', reward: 'roundPenalty', maxTurns: 200 },
  { players: 6, preset: 'pagat', episode: 'game', maxTurns: 300 },
];

const SEEDS = [3, 41];

interface Trajectory {
  readonly steps: ContractStep[];
  readonly record: RecordJson | null;
}

/** A seeded random legal action, as every run picks it. */
const pick = (step: ContractStep, rng: Rng): number => step.legalIds[randomInt(rng, 0, step.legalIds.length - 1)];

async function play(env: ContractEnv, seed: number): Promise<Trajectory> {
  const rng = seededRng(seed * 7 + 1);
  const steps = [await env.reset(seed)];
  while (steps[steps.length - 1].status === 'ongoing' && steps.length < 5000)
    steps.push(await env.step(pick(steps[steps.length - 1], rng)));
  return { steps, record: env.record?.() ?? null };
}

/** The same game played on the Episode itself: what every wrapper must show. */
function reference(options: EnvOptions, seed: number): ContractStep[] {
  const episode = new Episode(parseEnvOptions(options));
  const scratch = new MaskScratch();
  const mask = new Uint8Array(ACTION_COUNT);
  const ids = new Int16Array(ACTION_COUNT);
  const rewards = new Float32Array(episode.config.players);
  const show = (status: number): ContractStep => {
    const count = episode.writeMask(scratch, mask, 0, ids, 0);
    const observation = new Float32Array(OBSERVATION_SIZE);
    episode.writeObservation(observation, 0);
    const over = status !== ONGOING;
    return {
      seat: over ? -1 : episode.currentPlayer(),
      legalIds: over ? [] : Array.from(ids.subarray(0, count)),
      ...(over ? {} : { observation }),
      rewards: rewards.slice(),
      status: status === ONGOING ? 'ongoing' : status === TERMINATED ? 'terminated' : 'truncated',
    };
  };
  episode.reset({ seed });
  const rng = seededRng(seed * 7 + 1);
  const steps = [show(ONGOING)];
  while (steps[steps.length - 1].status === 'ongoing')
    steps.push(show(episode.step(pick(steps[steps.length - 1], rng), mask, 0, rewards, 0)));
  return steps;
}

/** What a scheme says of one step's rewards: zero-sum schemes sum to 0, penalties are ≤ 0. */
function checkRewardSum(options: EnvOptions, rewards: ArrayLike<number>, players: number): void {
  const scheme = REWARD_TABLE[options.reward ?? 'zeroSum'];
  const seats = Array.from({ length: players }, (_, seat) => rewards[seat]);
  const sum = seats.reduce((a, b) => a + b, 0);
  if (scheme.per === 'episode' || scheme.baseline === 'mean') expect(Math.abs(sum)).toBeLessThan(1e-4);
  else for (const reward of seats) expect(reward).toBeLessThanOrEqual(0);
}

/** Registers the contract for one wrapper: a describe per case. */
export function envContract(subject: ContractSubject): void {
  for (const options of CONTRACT_CASES) {
    const run = subject.takes?.(options) ?? true;
    const title = `${subject.name}: ${options.players} seats, ${options.preset ?? 'standard'}, ${options.episode} episodes, ${options.reward ?? 'zeroSum'}`;
    describe.skipIf(!run)(title, () => {
      const players = options.players ?? 2;
      const rules = resolveRules({ preset: options.preset ?? 'standard', rules: {}, players });
      const bounds = observationBounds({ ...parseEnvOptions(options), rules });

      it('plays the game the Episode plays: same seats, legal ids, observations and rewards, to the same end', async () => {
        for (const seed of SEEDS) {
          const env = await subject.make(options);
          const { steps } = await play(env, seed);
          await env.close?.();
          const expected = reference(options, seed);
          expect(steps.map((s) => [s.seat, s.status, s.legalIds.join()])).toEqual(
            expected.map((s) => [s.seat, s.status, s.legalIds.join()]),
          );
          steps.forEach((step, i) => {
            if (step.observation && step.status === 'ongoing')
              expect(Array.from(step.observation)).toEqual(Array.from(expected[i].observation ?? []));
            if (step.rewards) expect(Array.from(step.rewards).slice(0, players)).toEqual(Array.from(expected[i].rewards ?? []));
          });
          expect(steps[steps.length - 1].status).not.toBe('ongoing');
        }
      }, 120_000);

      it('masks exactly the legal ids, within the observation bounds, with rewards as the scheme says', async () => {
        const env = await subject.make(options);
        const { steps } = await play(env, SEEDS[0]);
        await env.close?.();
        for (const step of steps) {
          if (step.status === 'ongoing') expect(step.legalIds.length).toBeGreaterThan(0);
          if (step.mask) {
            const masked = Array.from(step.mask).flatMap((bit, id) => (bit ? [id] : []));
            expect(masked).toEqual([...step.legalIds]);
          }
          if (step.observation)
            step.observation.forEach((x, k) => {
              if (x < bounds.low[k] || x > bounds.high[k])
                expect({ feature: k, x }).toEqual({ feature: k, within: [bounds.low[k], bounds.high[k]] });
            });
          if (step.rewards) checkRewardSum(options, step.rewards, players);
        }
      }, 120_000);

      it('is seeded: the same seed the same game, another seed another', async () => {
        const fingerprint = async (seed: number) => {
          const env = await subject.make(options);
          const { steps } = await play(env, seed);
          await env.close?.();
          return JSON.stringify(steps.map((s) => [s.seat, s.legalIds, s.observation ? Array.from(s.observation) : null]));
        };
        expect(await fingerprint(SEEDS[0])).toBe(await fingerprint(SEEDS[0]));
        expect(await fingerprint(SEEDS[0])).not.toBe(await fingerprint(SEEDS[1]));
      }, 120_000);

      it('refuses an illegal action and changes nothing; keeps a record that replays', async () => {
        const env = await subject.make(options);
        const first = await env.reset(SEEDS[0]);
        const illegal = Array.from({ length: ACTION_COUNT }, (_, id) => id).find((id) => !first.legalIds.includes(id)) ?? -1;
        await expect(Promise.resolve().then(() => env.step(illegal))).rejects.toThrow();
        const after = await env.step(first.legalIds[0]);
        await env.close?.();
        const clean = await subject.make(options);
        await clean.reset(SEEDS[0]);
        const expected = await clean.step(first.legalIds[0]);
        const { record } = await play(clean, SEEDS[1]);
        await clean.close?.();
        expect([after.seat, after.legalIds]).toEqual([expected.seat, expected.legalIds]);
        if (record === null) return;
        const replayed = replay(parseRecord(record));
        expect(replayed.result.ok).toBe(true);
        expect(replayed.state.players).toBe(players);
      }, 120_000);
    });
  }
}
