/**
 * A single-agent view of the game: one learning seat, the other seats played by agents
 * (agent.ts: the same interface tournaments and the server use). `step` runs the opponents
 * until it is the learner's turn again (or the episode ends) and returns the learner's reward
 * summed over everything that happened in between.
 */
import type { Agent } from './agent.js';
import type { EnvOptions, ResetOptions } from './episode.js';
import { seededRng } from '../rules/random.js';
import { type ResetResult, type StepResult, YanivEnv } from './yanivEnv.js';

export interface SingleAgentOptions extends EnvOptions {
  /** The learner's seat (default 0), or "rotate": seat 0 in the first episode, then one seat on at every reset. */
  seat?: number | 'rotate';
  /**
   * One agent for every other seat, or one per seat (the learner's entry is ignored; not with
   * seat "rotate"). Each agent is re-seeded at every reset from the episode seed and its seat.
   */
  opponents: Agent | readonly (Agent | null | undefined)[];
}

export class SingleAgentEnv {
  readonly env: YanivEnv;
  /** The learner's seat in the current episode. */
  seat: number;
  private readonly rotate: boolean;
  private episodes = 0;
  private readonly opponents: (Agent | null)[];
  private readonly agentSeeds = seededRng(0);

  constructor({ seat = 0, opponents, ...options }: SingleAgentOptions) {
    this.env = new YanivEnv(options);
    this.rotate = seat === 'rotate';
    const first = seat === 'rotate' ? 0 : seat;
    if (!Number.isInteger(first) || first < 0 || first >= this.env.players)
      throw new RangeError(`seat must be a seat from 0 to ${this.env.players - 1} or "rotate" (got ${JSON.stringify(seat)})`);
    const one = !Array.isArray(opponents);
    if (this.rotate && !one) throw new RangeError('with seat "rotate" the opponents are one agent for every other seat');
    this.seat = first;
    this.opponents = Array.from({ length: this.env.players }, (_, s) => {
      const agent = one ? (opponents as Agent) : (opponents as readonly (Agent | null | undefined)[])[s];
      if (s !== first && !agent) throw new RangeError(`no opponent agent for seat ${s}`);
      return agent ?? null;
    });
  }

  reset({ seed, options }: { seed?: number; options?: Omit<ResetOptions, 'seed'> } = {}): ResetResult {
    if (this.rotate) this.seat = this.episodes % this.env.players;
    this.episodes++;
    this.env.reset({ seed, options });
    const agentSeed = seed ?? this.agentSeeds.next();
    this.opponents.forEach((agent, s) => agent?.reset((agentSeed + s * 7919) | 0));
    const played = this.playOpponents();
    return { observation: played.observation, info: played.info };
  }

  /** The learner's action; returns its next observation (or the final one) and its summed reward. */
  step(action: number): StepResult {
    if (this.env.done) return this.env.step(action);
    if (this.env.state.current !== this.seat) throw new Error("it is not the learner's turn: call reset()");
    const result = this.env.step(action);
    const learnerReward = result.info.rewards[this.seat];
    if (result.terminated || result.truncated)
      return { ...result, reward: learnerReward, observation: this.env.observe(this.seat, result.observation) };
    const played = this.playOpponents();
    return { ...played, reward: learnerReward + played.reward };
  }

  /** Lets the opponents move until the learner is to move or the episode ends. */
  private playOpponents(): StepResult {
    const seats = this.opponents.map((agent, s) => (s === this.seat ? null : agent));
    let reward = 0;
    const result = this.env.playAgents(seats, () => {
      reward += this.env.table.rewards[this.seat];
    });
    const observation = this.env.done ? this.env.observe(this.seat, result.observation) : result.observation;
    return { ...result, observation, reward };
  }
}
