/**
 * A table: one Episode played step by step, each step decided by the agent of the seat to
 * move (agent.ts) or given from outside (a person at the server, a learner). It keeps what a
 * decision reads — the observation, legal-action mask and legal ids of the seat to move — and
 * every seat's reward of the last step. YanivEnv, SingleAgentEnv, tournaments, the trainer's
 * evaluation games and the server's tables all play through it: one game loop, one turn
 * recorder (the episode's history).
 */
import type { Agent, Decision, DecisionInput } from './agent.js';
import { ACTION_COUNT } from './actionLayout.js';
import { MaskScratch } from './actionMask.js';
import { type Episode, type EpisodeStatus, IllegalActionError, type ResetOptions } from './episode.js';
import { OBSERVATION_SIZE } from './observation.js';
import type { GameHistory } from './position.js';
import type { GameState } from '../rules/state.js';
import { playerView } from '../rules/view.js';

/** Called after each step `play` takes, with the seat that acted and its decision. */
export type StepListener = (seat: number, decision: Decision) => void;

export class Table {
  readonly episode: Episode;
  /** The observation of the seat to move (once the episode is over: of the last actor). */
  readonly observation = new Float32Array(OBSERVATION_SIZE);
  /** 1 for each legal action id of the seat to move; all 0 once the episode is over. */
  readonly mask = new Uint8Array(ACTION_COUNT);
  /** The legal ids in increasing order: the first `legalCount` entries. */
  readonly legalIds = new Int16Array(ACTION_COUNT);
  legalCount = 0;
  /** The last step's reward of every seat, indexed by seat. */
  readonly rewards: Float32Array;
  private readonly scratch = new MaskScratch();

  constructor(episode: Episode) {
    this.episode = episode;
    this.rewards = new Float32Array(episode.config.players);
  }

  reset(options: ResetOptions = {}): void {
    this.episode.reset(options);
    this.rewards.fill(0);
    this.refresh();
  }

  /** Continues from a saved position (Episode.load). */
  load(state: GameState, history: GameHistory | null): void {
    this.episode.load(state, history);
    this.rewards.fill(0);
    this.refresh();
  }

  get status(): EpisodeStatus {
    return this.episode.status;
  }

  /** The seat to move, −1 once the episode is over. */
  get seat(): number {
    return this.episode.currentPlayer();
  }

  /** What the seat to move decides on. The observation and mask are the table's buffers, overwritten by the next step. */
  input(): DecisionInput {
    return { observation: this.observation, mask: this.mask, view: playerView(this.episode.state, this.seat) };
  }

  /** Takes one step with a legal action id of the seat to move (Episode.step); throws IllegalActionError otherwise. */
  step(action: number): EpisodeStatus {
    const status = this.episode.step(action, this.mask, 0, this.rewards, 0);
    this.refresh();
    return status;
  }

  /**
   * Asks the agent of the seat to move for each step until the episode ends or a seat
   * without an agent (null) is to move, and returns the episode's status then.
   */
  play(agents: readonly (Agent | null)[], onStep?: StepListener): EpisodeStatus {
    for (let seat = this.seat; seat >= 0 && agents[seat]; seat = this.seat) {
      const agent = agents[seat] as Agent;
      const decision = agent.act(this.input());
      try {
        this.step(decision.action);
      } catch (error) {
        if (error instanceof IllegalActionError)
          throw new IllegalActionError(error.action, `${agent.name} at seat ${seat}: ${error.message}`, error.reason);
        throw error;
      }
      onStep?.(seat, decision);
    }
    return this.status;
  }

  /** An independent copy: stepping it leaves this table untouched. */
  clone(): Table {
    const copy = new Table(this.episode.clone());
    copy.rewards.set(this.rewards);
    copy.refresh();
    return copy;
  }

  private refresh(): void {
    this.episode.writeObservation(this.observation, 0);
    this.legalCount = this.episode.writeMask(this.scratch, this.mask, 0, this.legalIds, 0);
  }
}
