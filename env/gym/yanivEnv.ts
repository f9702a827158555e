/**
 * YanivEnv: Gymnasium semantics for a turn-based multi-agent game (PettingZoo's AEC model).
 * The observation is always the acting player's; `info.rewards` holds this step's reward of
 * every seat; `reward` is the share of the seat that just acted.
 *
 * The returned `observation`, `info.actionMask` and `info.rewards` are the env's own buffers,
 * overwritten by the next step or reset: read them, or `.slice()` them to keep them.
 */
import type { GameEquity } from './equity.js';
import { ACTION_COUNT } from './actionLayout.js';
import type { Agent } from './agent.js';
import {
  type EnvConfig,
  type EnvOptions,
  Episode,
  type EpisodeStatus,
  ONGOING,
  type ResetOptions,
  TERMINATED,
  TRUNCATED,
  parseEnvOptions,
} from './episode.js';
import { OBSERVATION_SIZE, encodeObservation } from './observation.js';
import { type PositionJson, GameHistory, importPosition } from './position.js';
import { type StepListener, Table } from './table.js';
import { type GameState, PHASE_NAMES, type PhaseName, type RoundResult, cloneState } from '../rules/state.js';
import { type PlayerView, playerView } from '../rules/view.js';

export interface StepInfo {
  /** 1 for each legal action id of the player to move; all 0 once the episode is over. */
  readonly actionMask: Uint8Array;
  /** How many ids the mask allows. */
  readonly legalCount: number;
  /** The legal ids in increasing order: the first `legalCount` entries (the rest is stale). */
  readonly legalIds: Int16Array;
  /** The seat to move, −1 once the episode is over. */
  readonly currentPlayer: number;
  /** The seat whose view the observation is: the player to move, or the last actor once it is over. */
  readonly observer: number;
  /** The seat that took this step, −1 after reset. */
  readonly actor: number;
  readonly phase: PhaseName;
  /** This step's reward of every seat, indexed by seat. */
  readonly rewards: Float32Array;
  /** Whole turns completed in the episode. */
  readonly turns: number;
  /** The round that ended in this step, else null. */
  readonly roundResult: RoundResult | null;
  /** The game's winner once the game is over, else null. */
  readonly winner: number | null;
}

export interface ResetResult {
  observation: Float32Array;
  info: StepInfo;
}

export interface StepResult {
  observation: Float32Array;
  /** This step's reward of the seat that acted (`info.rewards[info.actor]`). */
  reward: number;
  terminated: boolean;
  truncated: boolean;
  info: StepInfo;
}

export class YanivEnv {
  readonly config: EnvConfig;
  readonly players: number;
  readonly observationSize = OBSERVATION_SIZE;
  readonly actionCount = ACTION_COUNT;
  private game: Table;
  private started = false;

  /** `equity`: the solved game equity of the rules, which reward "equity" reads (agents/equity/equity.ts `shippedEquity`). */
  constructor(options: EnvOptions, { equity }: { equity?: GameEquity } = {}) {
    this.config = parseEnvOptions(options);
    this.players = this.config.players;
    this.game = new Table(new Episode(this.config, undefined, equity ?? null));
  }

  reset({ seed, options = {} }: { seed?: number; options?: Omit<ResetOptions, 'seed'> } = {}): ResetResult {
    this.game.reset({ ...options, seed });
    this.started = true;
    return { observation: this.game.observation, info: this.info() };
  }

  step(action: number): StepResult {
    if (!this.started) throw new Error('call reset() before step()');
    return this.result(this.game.step(action));
  }

  /**
   * Lets agents take the steps of the seats they hold (null: a seat played from outside)
   * until another seat is to move or the episode ends (Table.play); the result is the last
   * step's, as `step` would return it.
   */
  playAgents(agents: readonly (Agent | null)[], onStep?: StepListener): StepResult {
    if (!this.started) throw new Error('call reset() before playAgents()');
    return this.result(this.game.play(agents, onStep));
  }

  private result(status: EpisodeStatus): StepResult {
    const table = this.game;
    return {
      observation: table.observation,
      reward: table.episode.actor >= 0 ? table.rewards[table.episode.actor] : 0,
      terminated: status === TERMINATED,
      truncated: status === TRUNCATED,
      info: this.info(),
    };
  }

  private info(): StepInfo {
    const table = this.game;
    const ep = table.episode;
    const s = ep.state;
    return {
      actionMask: table.mask,
      legalCount: table.legalCount,
      legalIds: table.legalIds,
      currentPlayer: ep.currentPlayer(),
      observer: ep.observer(),
      actor: ep.actor,
      phase: PHASE_NAMES[s.phase],
      rewards: table.rewards,
      turns: ep.turns,
      roundResult: ep.roundResult,
      winner: s.winner >= 0 ? s.winner : null,
    };
  }

  /** The table this env steps: its episode, and the buffers the env returns (read them; step through the env). */
  get table(): Table {
    return this.game;
  }

  private get episode(): Episode {
    return this.game.episode;
  }

  /** Whether the episode has ended (terminated or truncated). */
  get done(): boolean {
    return this.game.status !== ONGOING;
  }

  /** The live state (read it, do not change it; `getState()` gives a copy). */
  get state(): GameState {
    return this.episode.state;
  }

  getState(): GameState {
    return cloneState(this.episode.state);
  }

  /** Any seat's observation now (PettingZoo's observe(agent)); a new array unless `out` is given. */
  observe(seat: number, out: Float32Array = new Float32Array(OBSERVATION_SIZE), offset = 0): Float32Array {
    encodeObservation(this.episode.state, seat, out, offset);
    return out;
  }

  /** What a seat may know now. */
  view(seat: number): PlayerView {
    return playerView(this.episode.state, seat);
  }

  /** An independent copy: stepping it leaves this env untouched (search, what-ifs). */
  clone(): YanivEnv {
    const copy = new YanivEnv(this.config);
    copy.game = this.game.clone();
    copy.started = this.started;
    return copy;
  }

  /** The position as a game record plus the turn in progress (needs the `history` option). */
  exportPosition(): PositionJson {
    const history = this.episode.history;
    if (!history) throw new Error('exportPosition needs the env option history: true');
    return history.toPosition(this.episode.state);
  }

  /** Continues from a saved position; the env's preset, rules and players must match the record's. */
  loadPosition(position: unknown): ResetResult {
    const imported = importPosition(position);
    const { record } = imported;
    if (
      record.players !== this.players ||
      record.preset !== this.config.preset ||
      JSON.stringify(record.rules) !== JSON.stringify(this.config.rules)
    ) {
      throw new RangeError(
        `the position is for preset ${record.preset} with rules ${JSON.stringify(record.rules)} and ${record.players} players; this env plays ${this.config.preset} with ${JSON.stringify(this.config.rules)} and ${this.players}`,
      );
    }
    this.game.load(imported.state, GameHistory.resume(record, imported.pending));
    this.started = true;
    return { observation: this.game.observation, info: this.info() };
  }

  /** An env that continues from a saved position, with the position's rules. */
  static fromPosition(position: unknown, options: Omit<EnvOptions, 'players' | 'preset' | 'rules'> = {}): YanivEnv {
    const { record } = importPosition(position);
    const env = new YanivEnv({ ...options, players: record.players, preset: record.preset, rules: record.rules });
    env.loadPosition(position);
    return env;
  }
}
