/**
 * What a bridge process serves: one session of one kind, made by the client's `make` request.
 * Each kind answers reset and step with its binary state frame (protocol.ts), as a list of byte
 * views of the env's own buffers (written with one writev: the observations are not copied).
 */
import { shippedEquityFor } from '../agents/equity/equity.js';
import { AgentSpecError } from '../agents/registry.js';
import { type TableKind, createAgentFor, resolveAgent } from '../agents/resolve.js';
import { ACTION_COUNT } from '../env/gym/actionLayout.js';
import type { Agent } from '../env/gym/agent.js';
import { type EnvConfig, type EnvOptions, EpisodeOverError, IllegalActionError, parseEnvOptions } from '../env/gym/episode.js';
import type { GameEquity } from '../env/gym/equity.js';
import { OBSERVATION_SIZE } from '../env/gym/observation.js';
import { observationBounds } from '../env/gym/observationBounds.js';
import { SingleAgentEnv } from '../env/gym/singleAgent.js';
import { VecEnv } from '../env/gym/vecEnv.js';
import { YanivEnv } from '../env/gym/yanivEnv.js';
import { renderView } from '../env/rules/render.js';
import { MAX_PLAYERS, RuleError, type Rules, resolveRules } from '../env/rules/rules.js';
import type { GameState } from '../env/rules/state.js';
import { playerView } from '../env/rules/view.js';
import { BridgeError, KIND, type MakeRequest, SHARED_ARRAYS, STATUS, VECTOR_HEADER, VECTOR_SHARED, align4 } from './protocol.js';
import { SharedFile } from './sharedFile.js';

export type Parts = Uint8Array[];

/** A state frame's fixed head: its bytes (the kind byte set) and a view to write its fields. */
class FrameHead {
  readonly bytes: Uint8Array;
  readonly view: DataView;
  constructor(kind: number, size: number) {
    this.bytes = new Uint8Array(size);
    this.bytes[0] = kind;
    this.view = new DataView(this.bytes.buffer);
  }
}

const bytesOf = (a: ArrayBufferView): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

export interface Session {
  /** The JSON `made` reply's fields. */
  readonly description: Record<string, unknown>;
  reset(seed: number | null): Parts;
  step(actions: Int32Array): Parts;
  observe(seat: number): Parts;
  /** The state render reads, and the seat whose view it shows by default. */
  readonly state: GameState;
  readonly viewer: number;
}

/** Runs an env call, turning the env's errors into the bridge's. */
function envCall<T>(call: () => T): T {
  try {
    return call();
  } catch (error) {
    if (error instanceof IllegalActionError) throw new BridgeError('illegal', error.message);
    if (error instanceof EpisodeOverError) throw new BridgeError('state', error.message);
    if (error instanceof RangeError || error instanceof RuleError) throw new BridgeError('options', error.message);
    throw error;
  }
}

const status = (terminated: boolean, truncated: boolean): number =>
  terminated ? STATUS.terminated : truncated ? STATUS.truncated : STATUS.ongoing;

/** The float bounds as JSON can carry them: null for ±Infinity. */
const jsonFloats = (a: Float32Array): (number | null)[] => Array.from(a, (x) => (Number.isFinite(x) ? x : null));

function describe(config: EnvConfig, rules: Rules, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const { low, high } = observationBounds({ ...config, rules });
  return { players: config.players, preset: config.preset, rules, low: jsonFloats(low), high: jsonFloats(high), ...extra };
}

function parseConfig(env: Record<string, unknown>): { config: EnvConfig; rules: Rules; equity: GameEquity | undefined } {
  const config = envCall(() => parseEnvOptions({ ...env, history: false } as EnvOptions));
  const rules = envCall(() => resolveRules({ preset: config.preset, rules: config.rules, players: config.players }));
  let equity: GameEquity | undefined;
  if (config.reward === 'equity') {
    equity = shippedEquityFor(rules, config.players) ?? undefined;
    if (!equity) throw new BridgeError('options', `reward "equity": no game equity ships for these rules at ${config.players} seats`);
  }
  return { config, rules, equity };
}

/** One game played step by step from outside: every seat is the client's (PettingZoo's AEC env). */
class AecSession implements Session {
  readonly description: Record<string, unknown>;
  private readonly env: YanivEnv;
  private readonly head = new FrameHead(KIND.aec, 8);
  private readonly observationBytes: Uint8Array;
  private readonly rewardBytes: Uint8Array;
  private readonly observeBuffer = new Float32Array(OBSERVATION_SIZE);
  private status: number = STATUS.ongoing;

  constructor(config: EnvConfig, rules: Rules, equity: GameEquity | undefined) {
    this.env = new YanivEnv(config, { equity });
    this.description = describe(config, rules);
    this.observationBytes = bytesOf(this.env.table.observation);
    this.rewardBytes = bytesOf(this.env.table.rewards);
  }

  get state(): GameState {
    return this.env.state;
  }

  get viewer(): number {
    return this.env.table.episode.observer();
  }

  reset(seed: number | null): Parts {
    this.env.reset(seed === null ? {} : { seed });
    this.status = STATUS.ongoing;
    return this.frame();
  }

  step(actions: Int32Array): Parts {
    const result = envCall(() => this.env.step(actions[0]));
    this.status = status(result.terminated, result.truncated);
    return this.frame();
  }

  observe(seat: number): Parts {
    this.env.observe(seat, this.observeBuffer);
    return [Uint8Array.of(KIND.observation, 0, 0, 0), bytesOf(this.observeBuffer)];
  }

  private frame(): Parts {
    const table = this.env.table;
    const episode = table.episode;
    const head = this.head.view;
    head.setUint8(1, this.status);
    head.setInt8(2, episode.currentPlayer());
    head.setInt8(3, episode.actor);
    head.setUint16(4, table.legalCount, true);
    head.setUint8(6, episode.observer());
    head.setUint8(7, episode.roundResult === null ? 0 : 1);
    return [this.head.bytes, this.rewardBytes, this.observationBytes, bytesOf(table.legalIds.subarray(0, table.legalCount))];
  }
}

/** One learner against agents of the registry (Gymnasium's single-agent env). */
class SingleSession implements Session {
  readonly description: Record<string, unknown>;
  private readonly head = new FrameHead(KIND.single, 12);
  private over = false;

  constructor(
    private readonly env: SingleAgentEnv,
    description: Record<string, unknown>,
    private readonly penalty: number | null,
  ) {
    this.description = description;
  }

  get state(): GameState {
    return this.env.env.state;
  }

  get viewer(): number {
    return this.env.seat;
  }

  reset(seed: number | null): Parts {
    const { observation, info } = envCall(() => this.env.reset(seed === null ? {} : { seed }));
    this.over = false;
    return this.frame(STATUS.ongoing, false, 0, observation, info.legalIds, info.legalCount);
  }

  step(actions: Int32Array): Parts {
    if (this.over) throw new BridgeError('state', 'the episode is over: call reset() before step()');
    try {
      const result = this.env.step(actions[0]);
      const ended = result.terminated || result.truncated;
      this.over = ended;
      return this.frame(
        status(result.terminated, result.truncated),
        false,
        result.reward,
        result.observation,
        result.info.legalIds,
        ended ? 0 : result.info.legalCount,
      );
    } catch (error) {
      if (!(error instanceof IllegalActionError) || this.penalty === null || this.env.env.done)
        return envCall(() => {
          throw error;
        });
      this.over = true;
      const observation = this.env.env.observe(this.env.seat);
      return this.frame(STATUS.terminated, true, -this.penalty, observation, new Int16Array(0), 0);
    }
  }

  observe(seat: number): Parts {
    return [Uint8Array.of(KIND.observation, 0, 0, 0), bytesOf(this.env.env.observe(seat))];
  }

  private frame(code: number, illegal: boolean, reward: number, observation: Float32Array, ids: Int16Array, count: number): Parts {
    const head = this.head.view;
    head.setUint8(1, code);
    head.setUint8(2, this.env.seat);
    head.setUint8(3, illegal ? 1 : 0);
    head.setUint16(4, count, true);
    head.setFloat32(8, reward, true);
    return [this.head.bytes, bytesOf(observation), bytesOf(ids.subarray(0, count))];
  }
}

/** N games stepped together, every seat the client's (the vector env), auto-resetting. */
class VectorSession implements Session {
  readonly description: Record<string, unknown>;
  private readonly vec: VecEnv;
  private readonly head = new FrameHead(KIND.vector, VECTOR_HEADER);
  /** The per-game arrays as the reply carries them: none where they go to the shared file. */
  private readonly fixed: Parts;
  private readonly legal: Int32Array;
  private readonly finals: Int32Array;
  private readonly actorRewards: Float32Array;
  private readonly shared: SharedFile | null;

  constructor(
    config: EnvConfig,
    rules: Rules,
    equity: GameEquity | undefined,
    num: number,
    private readonly firstGame: number,
    shared?: MakeRequest['shared'],
  ) {
    this.vec = envCall(() => new VecEnv({ ...config, num, ...(equity ? { equity } : {}) }));
    this.description = describe(config, rules, { num, shared: shared !== undefined });
    const v = this.vec;
    this.actorRewards = new Float32Array(num);
    const arrays = SHARED_ARRAYS.map((name) => ({ name, bytes: bytesOf(name === 'actorRewards' ? this.actorRewards : v[name]) }));
    this.shared =
      shared === undefined
        ? null
        : new SharedFile(
            shared.file,
            arrays.map((array) => ({ ...array, at: shared.at[array.name] })),
          );
    this.head.bytes[1] = this.shared === null ? 0 : VECTOR_SHARED;
    const bytes = arrays.reduce((sum, array) => sum + array.bytes.byteLength, 0);
    this.fixed = this.shared !== null ? [] : [...arrays.map((array) => array.bytes), new Uint8Array(align4(bytes) - bytes)];
    this.legal = new Int32Array(v.legalIds.length);
    this.finals = new Int32Array(num);
  }

  get state(): GameState {
    return this.vec.state(0);
  }

  get viewer(): number {
    return this.vec.currentPlayers[0];
  }

  reset(seed: number | null): Parts {
    // Game i of the whole batch gets seed + i, wherever its worker is.
    this.vec.reset((seed ?? this.vec.config.seed) + this.firstGame);
    return this.frame(false);
  }

  step(actions: Int32Array): Parts {
    envCall(() => this.vec.step(actions));
    return this.frame(true);
  }

  observe(): Parts {
    throw new BridgeError('protocol', 'a vector session has no observe: the state frame holds every observation');
  }

  private frame(stepped: boolean): Parts {
    const v = this.vec;
    for (let i = 0; i < v.num; i++) this.actorRewards[i] = v.actors[i] < 0 ? 0 : v.rewards[i * MAX_PLAYERS + v.actors[i]];
    this.shared?.write();
    const total = this.legalPositions();
    const parts = [this.head.bytes, ...this.fixed];
    let finals = 0;
    if (stepped) {
      for (let i = 0; i < v.num; i++) if (v.terminated[i] || v.truncated[i]) this.finals[finals++] = i;
      if (finals > 0) parts.push(bytesOf(this.finals.subarray(0, finals)));
      for (let k = 0; k < finals; k++) {
        const i = this.finals[k];
        parts.push(bytesOf(v.finalObservations.subarray(i * OBSERVATION_SIZE, (i + 1) * OBSERVATION_SIZE)));
      }
    }
    parts.push(bytesOf(this.legal.subarray(0, total)));
    this.head.view.setUint32(4, total, true);
    this.head.view.setUint32(8, finals, true);
    return parts;
  }

  /** Each game's legal ids as positions in the batch's flat mask, game after game; their count. */
  private legalPositions(): number {
    // A plain loop: a subarray per game costs more than the copy.
    const { legalIds, legalCounts } = this.vec;
    const legal = this.legal;
    let total = 0;
    for (let i = 0; i < this.vec.num; i++) {
      const position = (this.firstGame + i) * ACTION_COUNT;
      for (let j = i * ACTION_COUNT, end = j + legalCounts[i]; j < end; j++) legal[total++] = position + legalIds[j];
    }
    return total;
  }
}

/** The agents of the other seats: one spec for all (one agent), or one per seat (the learner's entry ignored). */
export async function opponentAgents(
  specs: string | readonly (string | null)[],
  table: TableKind,
  seat: number | 'rotate',
): Promise<{ agents: Agent | (Agent | null)[]; warnings: string[] }> {
  const warnings = new Set<string>();
  const load = async (spec: string): Promise<Agent> => {
    try {
      const { mismatch } = resolveAgent(spec, table);
      if (mismatch) warnings.add(`opponent ${spec}: ${mismatch}`);
      return await createAgentFor(spec, table);
    } catch (error) {
      if (!(error instanceof AgentSpecError)) throw error;
      throw new BridgeError('options', `opponent ${JSON.stringify(spec)}: ${error.message}`);
    }
  };
  if (typeof specs === 'string') return { agents: await load(specs), warnings: [...warnings] };
  if (specs.length !== table.players)
    throw new BridgeError('options', `opponents: one agent spec per seat (${table.players}), got ${specs.length}`);
  const agents = await Promise.all(specs.map(async (spec, s) => (s === seat || spec === null ? null : load(spec))));
  return { agents, warnings: [...warnings] };
}

export async function makeSession(request: MakeRequest): Promise<Session> {
  const { config, rules, equity } = parseConfig(request.env);
  if (request.kind === 'aec') return new AecSession(config, rules, equity);
  if (request.kind === 'vector') return new VectorSession(config, rules, equity, request.num ?? 1, request.firstGame ?? 0, request.shared);
  if (config.reward === 'equity') throw new BridgeError('options', 'reward "equity" is for the AEC and vector envs');
  const seat = request.seat ?? 0;
  const table = { preset: config.preset, rules: config.rules, players: config.players };
  const { agents, warnings } = await opponentAgents(request.opponents ?? 'random', table, seat);
  const env = envCall(() => new SingleAgentEnv({ ...config, seat, opponents: agents }));
  const penalty = request.illegal === 'penalty' ? (request.illegalPenalty ?? 1) : null;
  return new SingleSession(env, describe(config, rules, { warnings }), penalty);
}

/** The text of a seat's view (default: the session's viewer), as `yaniv` renders positions. */
export function render(session: Session, seat: number | undefined): string {
  const state = session.state;
  const viewer = seat ?? session.viewer;
  if (viewer >= state.players) throw new BridgeError('options', `render: seat ${viewer} is not at this table of ${state.players}`);
  return renderView(playerView(state, viewer));
}
