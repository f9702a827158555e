/**
 * A single-agent view of the game: one learning seat, the other seats played by given
 * policies. `step` runs the opponents until it is the learner's turn again (or the episode
 * ends) and returns the learner's reward summed over everything that happened in between.
 */
import { randomLegalAction } from './actionMask.js';
import type { EnvOptions, ResetOptions } from './episode.js';
import { type Rng, seededRng } from '../rules/random.js';
import { type ResetResult, type StepInfo, type StepResult, YanivEnv } from './yanivEnv.js';

/** Anything that picks an action id from an observation and its legal-action mask. */
export type Policy = (observation: Float32Array, mask: Uint8Array, info: StepInfo) => number;

export interface SingleAgentOptions extends EnvOptions {
  /** The learner's seat (default 0), or "rotate": seat 0 in the first episode, then one seat on at every reset. */
  seat?: number | 'rotate';
  /** One policy for every other seat, or one per seat (the learner's entry is ignored; not with seat "rotate"). */
  opponents: Policy | readonly (Policy | null | undefined)[];
}

/** Uniformly random legal actions from a seeded generator. */
export function randomPolicy(seed = 0): Policy {
  const rng: Rng = seededRng(seed);
  return (_observation, mask) => randomLegalAction(mask, rng);
}

export class SingleAgentEnv {
  readonly env: YanivEnv;
  /** The learner's seat in the current episode. */
  seat: number;
  private readonly rotate: boolean;
  private episodes = 0;
  private readonly opponents: Policy[];

  constructor({ seat = 0, opponents, ...options }: SingleAgentOptions) {
    this.env = new YanivEnv(options);
    this.rotate = seat === 'rotate';
    const first = seat === 'rotate' ? 0 : seat;
    if (!Number.isInteger(first) || first < 0 || first >= this.env.players) throw new RangeError(`seat must be a seat from 0 to ${this.env.players - 1} or "rotate" (got ${JSON.stringify(seat)})`);
    if (this.rotate && typeof opponents !== 'function') throw new RangeError('with seat "rotate" the opponents are one policy for every other seat');
    this.seat = first;
    this.opponents = Array.from({ length: this.env.players }, (_, s) => {
      const policy = typeof opponents === 'function' ? opponents : opponents[s];
      if (s !== first && !policy) throw new RangeError(`no opponent policy for seat ${s}`);
      return policy ?? (() => -1);
    });
  }

  reset({ seed, options }: { seed?: number; options?: Omit<ResetOptions, 'seed'> } = {}): ResetResult {
    if (this.rotate) this.seat = this.episodes % this.env.players;
    this.episodes++;
    const first = this.env.reset({ seed, options });
    const played = this.playOpponents(first.observation, first.info);
    return { observation: played.observation, info: played.info };
  }

  /** The learner's action; returns its next observation (or the final one) and its summed reward. */
  step(action: number): StepResult {
    if (this.env.done) return this.env.step(action);
    if (this.env.state.current !== this.seat) throw new Error('it is not the learner\'s turn: call reset()');
    const result = this.env.step(action);
    const learnerReward = result.info.rewards[this.seat];
    if (result.terminated || result.truncated) return { ...result, reward: learnerReward, observation: this.env.observe(this.seat, result.observation) };
    const played = this.playOpponents(result.observation, result.info);
    return { ...played, reward: learnerReward + played.reward };
  }

  /** Lets the opponents move until the learner is to move or the episode ends. */
  private playOpponents(observation: Float32Array, info: StepInfo): StepResult {
    let reward = 0;
    let result: StepResult = { observation, info, reward: 0, terminated: false, truncated: false };
    while (result.info.currentPlayer !== this.seat && !this.env.done) {
      const mover = result.info.currentPlayer;
      result = this.env.step(this.opponents[mover](result.observation, result.info.actionMask, result.info));
      reward += result.info.rewards[this.seat];
    }
    if (this.env.done) result = { ...result, observation: this.env.observe(this.seat, result.observation) };
    return { ...result, reward };
  }
}
