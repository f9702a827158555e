/**
 * An actor's rollout: games stepped together in VecEnvs (one per table size), every decision of the
 * learner's seats taken by ONE batched `evaluatePolicyValue` call per step over all games (and one
 * per past snapshot that holds seats), heuristic opponents through the Agent interface. It records
 * the learner's decisions as trajectories, stream by stream (a stream is one seat of one game):
 *
 *   observation, legal mask, action, log p(action), value, reward, next value, done, segment end
 *
 * - reward: the seat's rewards from this decision up to its next one (rewards arrive at round ends);
 * - next value: the value of the seat's next decision, 0 at the end of the return (a round end with
 *   `returnHorizon: "round"`, else the episode's end), the decision's own value when the game was
 *   cut short by the turn cap (truncation is not an end: it bootstraps);
 * - done: 1 where the return ends, 2 where the game was cut short (GAE does not look past either);
 * - segment end: 1 on a stream's last decision in this batch (GAE does not look past it either).
 *
 * A decision is emitted once its next value is known, so each stream's latest decision waits for the
 * next batch; every other one goes out. Plain typed arrays only: the batch crosses threads as is.
 */
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { ACTION_CONTEXT_SIZE, readsAdviser, writeActionContext, writeLegalActionFeatures } from '../env/gym/actionFeatures.js';
import { ACTION_COUNT } from '../env/gym/actionLayout.js';
import { type Agent, type DecisionInput, decideAll } from '../env/gym/agent.js';
import { OBSERVATION_SIZE } from '../env/gym/observation.js';
import { VecEnv } from '../env/gym/vecEnv.js';
import { WHOLE_DEAL_HIDDEN_SIZE, encodeHiddenDeal } from '../env/gym/wholeDeal.js';
import type { TrainingEnv } from './config.js';
import type { EquityData } from '../env/gym/equityData.js';
import { solveEquityData } from '../agents/equity/equity.js';
import type { GameEquity } from '../env/gym/equity.js';
import { rolloutValue } from './rolloutCritic.js';
import { type Rng, mixSeed, seededRng } from '../env/rules/random.js';
import { MAX_PLAYERS } from '../env/rules/rules.js';
import { playerView } from '../env/rules/view.js';
import { evaluatePolicyValue } from '../nn/inference.js';
import type { Network, PolicyValueConfig } from '../nn/networks.js';
import { LeagueResults, type OpponentShare, PAST, SELF, drawOpponent, opponentKey, prioritisedMix } from './league.js';
import {
  type OptionalName,
  type RolloutStats,
  type TrajectoryBatch,
  type TrajectoryColumnArrays,
  copyRow,
  emptyRolloutStats,
  emptyTrajectoryBatch,
  growColumns,
} from './trajectory.js';

export { type RolloutStats, type TrajectoryBatch, emptyTrajectoryBatch } from './trajectory.js';

export type CollectMode = { kind: 'ppo' } | { kind: 'imitation'; teacherPlays: boolean };

export interface RolloutSetup {
  /** Table sizes; the games are split evenly between them. */
  players: number[];
  games: number;
  /** The run's env settings, as they are. */
  env: TrainingEnv;
  returnHorizon: 'round' | 'game';
  opponents: OpponentShare[];
  seed: number;
  /** The game equity data the "equity" reward is solved from (agents/equity/equity.ts), one per table size. */
  equity?: readonly EquityData[] | null;
  /** Agent spec of the adviser whose choice networks trained with one read as a feature (--adviser), or null. */
  adviser?: string | null;
  /** Prioritised fictitious self-play's power (league.ts, `prioritisedMix`); absent or 0: the shares as given. */
  pfsp?: number;
  /** Record what the seat cannot see (the wholeDeal column) for a critic that reads the whole deal (--critic whole-deal). */
  wholeDeal?: boolean;
  /** Rollouts of the round from each learner decision's true state (the rolloutValues column) for --critic rollout; absent or 0: none. */
  criticRollouts?: number;
}

/** The growing store of recorded decisions (every trajectory column); slots are reused once emitted. */
class SlotStore {
  capacity = 0;
  columns: TrajectoryColumnArrays;
  private free: number[] = [];

  /** `optional`: the optional columns recorded. */
  constructor(private readonly optional: readonly OptionalName[]) {
    this.columns = growColumns(null, 0, optional);
  }

  take(): number {
    if (this.free.length === 0) this.grow(Math.max(1024, this.capacity * 2));
    return this.free.pop() as number;
  }

  release(slot: number): void {
    this.free.push(slot);
  }

  private grow(capacity: number): void {
    this.columns = growColumns(this.columns, capacity, this.optional);
    for (let slot = capacity - 1; slot >= this.capacity; slot--) this.free.push(slot);
    this.capacity = capacity;
  }
}

/** Recorded log-probabilities are at least this (p ≈ 2e-9). */
export const MIN_LOG_PROB = -20;

/** The part of a time measurement, in seconds. */
const now = () => performance.now() / 1000;

export class Rollout {
  readonly tables: VecEnv[];
  /** Global game g lives in table tableOf[g] at index localOf[g]. */
  private readonly tableOf: Int16Array;
  private readonly localOf: Int16Array;
  private readonly gameCount: number;
  /** Per game: the opponent spec, the snapshot id (for "past"), and the learner's seat (−1: every seat, "self"). */
  private readonly opponentOf: string[];
  private readonly snapshotOf: Int32Array;
  private readonly learnerSeat: Int8Array;
  /** Per stream (g · MAX_PLAYERS + seat): the decision waiting for its next value (−1: none), and the decisions ready to go out. */
  private readonly pending: Int32Array;
  private readonly ready: number[][];
  private readyCount = 0;
  private readonly store: SlotStore;
  private readonly snapshots = new Map<number, Network<PolicyValueConfig>>();
  /** The learner's recent results against each opponent spec, for prioritised fictitious self-play. */
  private readonly results = new LeagueResults();
  private readonly rng: Rng;
  /** Per table size: the solved game equity of the "equity" reward, which the rollout critic values rounds by. */
  private readonly equities: (GameEquity | null)[] = [];
  /** Decisions the rollout critic has valued: each one's rollouts get their own seed. */
  private rolloutCount = 0;
  private readonly actions: Int32Array[];
  private readonly rowObservations: Float32Array;
  private readonly rowMasks: Uint8Array;
  private readonly rowContexts: Int16Array;
  /** The legal actions' features of the rows, for networks that score actions (allocated on first use). */
  private rowFeatures: Float32Array | null = null;
  /** The adviser's choice in each row, for networks trained with one. */
  private readonly rowAdvisers: Int16Array;
  private readonly rows: Int32Array;
  private readonly setup: RolloutSetup;

  constructor(
    setup: RolloutSetup,
    private readonly learner: Network<PolicyValueConfig>,
    /** An Agent for every agent spec of the mix at every table size, keyed by opponentKey (league.ts opponentAgents). */
    private readonly agents: ReadonlyMap<string, Agent>,
    /** The imitation teacher, when there is an imitation phase. */
    private readonly teacher: Agent | null,
    /** The adviser whose choice the networks read (setup.adviser), when they read one. */
    private readonly adviser: Agent | null = null,
  ) {
    this.setup = setup;
    this.store = new SlotStore(['teacherActions', ...this.criticColumns()]);
    const sizes = setup.players;
    const equityData = setup.env.reward === 'equity' ? (setup.equity ?? []) : [];
    if (setup.games < sizes.length) throw new RangeError(`${setup.games} games cannot be split over ${sizes.length} table sizes`);
    this.tables = sizes.map((players, t) => {
      const data = equityData.find((d) => d.players === players);
      const equity = data ? solveEquityData(data) : undefined;
      if (setup.criticRollouts && !equity)
        throw new Error('--critic rollout values the rounds by the game equity: it needs --reward equity');
      this.equities[t] = equity ?? null;
      const num = Math.floor(setup.games / sizes.length) + (t < setup.games % sizes.length ? 1 : 0);
      const env = new VecEnv({
        ...setup.env,
        num,
        players,
        seed: setup.seed + 7919 * t,
        ...(equity ? { equity } : {}),
      });
      env.reset(setup.seed + 7919 * t);
      return env;
    });
    this.gameCount = this.tables.reduce((n, t) => n + t.num, 0);
    this.tableOf = new Int16Array(this.gameCount);
    this.localOf = new Int16Array(this.gameCount);
    let g = 0;
    this.tables.forEach((table, t) => {
      for (let i = 0; i < table.num; i++, g++) {
        this.tableOf[g] = t;
        this.localOf[g] = i;
      }
    });
    this.rng = seededRng(setup.seed);
    for (const share of setup.opponents) {
      for (const players of sizes)
        if (share.spec !== SELF && share.spec !== PAST && !agents.has(opponentKey(share.spec, players)))
          throw new Error(`no agent given for opponent ${share.spec} at ${players} seats`);
    }
    this.opponentOf = new Array<string>(this.gameCount).fill(SELF);
    this.snapshotOf = new Int32Array(this.gameCount).fill(-1);
    this.learnerSeat = new Int8Array(this.gameCount).fill(-1);
    for (let game = 0; game < this.gameCount; game++) this.assign(game);
    this.pending = new Int32Array(this.gameCount * MAX_PLAYERS).fill(-1);
    this.ready = Array.from({ length: this.gameCount * MAX_PLAYERS }, () => []);
    this.actions = this.tables.map((t) => new Int32Array(t.num));
    this.rowObservations = new Float32Array(this.gameCount * OBSERVATION_SIZE);
    this.rowMasks = new Uint8Array(this.gameCount * ACTION_COUNT);
    this.rowContexts = new Int16Array(this.gameCount * ACTION_CONTEXT_SIZE);
    this.rowAdvisers = new Int16Array(this.gameCount).fill(-1);
    this.rows = new Int32Array(this.gameCount);
  }

  /** A past snapshot that "past" games may draw (the network is the caller's, kept until removed). */
  addSnapshot(id: number, network: Network<PolicyValueConfig>): void {
    this.snapshots.set(id, network);
  }

  /** Drops a snapshot; its games go on against another one (or themselves once the pool is empty). Returns its network for disposal. */
  removeSnapshot(id: number): Network<PolicyValueConfig> | undefined {
    const network = this.snapshots.get(id);
    this.snapshots.delete(id);
    const ids = [...this.snapshots.keys()];
    for (let g = 0; g < this.gameCount; g++) {
      if (this.snapshotOf[g] !== id) continue;
      if (ids.length > 0) this.snapshotOf[g] = ids[Math.floor(uniformFloat64(this.rng) * ids.length)];
      else {
        this.opponentOf[g] = SELF;
        this.snapshotOf[g] = -1;
        this.learnerSeat[g] = -1;
      }
    }
    return network;
  }

  /** Draws game g's opponent and the learner's seat for its next episode. */
  private assign(g: number): void {
    const mix = this.setup.pfsp ? prioritisedMix(this.setup.opponents, this.results, this.setup.pfsp) : this.setup.opponents;
    const spec = drawOpponent(mix, this.rng, this.snapshots.size > 0);
    this.opponentOf[g] = spec;
    const players = this.tables[this.tableOf[g]].config.players;
    this.learnerSeat[g] = spec === SELF ? -1 : Math.floor(uniformFloat64(this.rng) * players);
    const ids = spec === PAST ? [...this.snapshots.keys()] : [];
    this.snapshotOf[g] = ids.length > 0 ? ids[Math.floor(uniformFloat64(this.rng) * ids.length)] : -1;
  }

  private isLearner(g: number, seat: number): boolean {
    return this.learnerSeat[g] < 0 || this.learnerSeat[g] === seat;
  }

  private observationRow(g: number): Float32Array {
    const i = this.localOf[g];
    return this.tables[this.tableOf[g]].observations.subarray(i * OBSERVATION_SIZE, (i + 1) * OBSERVATION_SIZE);
  }

  private maskRow(g: number): Uint8Array {
    const i = this.localOf[g];
    return this.tables[this.tableOf[g]].masks.subarray(i * ACTION_COUNT, (i + 1) * ACTION_COUNT);
  }

  private input(g: number): DecisionInput {
    const table = this.tables[this.tableOf[g]];
    const i = this.localOf[g];
    return { observation: this.observationRow(g), mask: this.maskRow(g), view: playerView(table.state(i), table.currentPlayers[i]) };
  }

  /** Copies the rows of `games` (observations, masks, action contexts) into the inference buffers and runs one network call on them. */
  private evaluate(network: Network<PolicyValueConfig>, games: Int32Array, count: number) {
    for (let k = 0; k < count; k++) {
      const g = games[k];
      const table = this.tables[this.tableOf[g]];
      const i = this.localOf[g];
      this.rowObservations.set(this.observationRow(g), k * OBSERVATION_SIZE);
      this.rowMasks.set(this.maskRow(g), k * ACTION_COUNT);
      writeActionContext(table.state(i), table.currentPlayers[i], this.rowContexts, k * ACTION_CONTEXT_SIZE);
    }
    const masks = this.rowMasks.subarray(0, count * ACTION_COUNT);
    const width = network.config.actionFeatures;
    this.rowAdvisers.fill(-1, 0, count);
    let features: Float32Array | undefined;
    if (width > 0) {
      const advised = readsAdviser(width);
      if (advised) this.askAdviser(games, count);
      this.rowFeatures ??= new Float32Array(this.gameCount * ACTION_COUNT * width);
      features = this.rowFeatures.subarray(0, count * ACTION_COUNT * width);
      writeLegalActionFeatures(this.rowContexts, count, masks, features, advised ? this.rowAdvisers.subarray(0, count) : undefined);
    }
    return evaluatePolicyValue(network, this.rowObservations.subarray(0, count * OBSERVATION_SIZE), masks, features);
  }

  /** The adviser's choice in each of the rows, into rowAdvisers. */
  private askAdviser(games: Int32Array, count: number): void {
    if (this.adviser === null) throw new Error('the network reads an adviser, and the rollout has none (setup.adviser)');
    for (let k = 0; k < count; k++) this.rowAdvisers[k] = this.adviser.act(this.input(games[k])).action;
  }

  /** Samples a legal action of game g from row k of the probabilities; also returns the most probable one. */
  private sample(g: number, probabilities: Float32Array, k: number): { action: number; best: number } {
    const table = this.tables[this.tableOf[g]];
    const i = this.localOf[g];
    const ids = table.legalIds;
    const start = i * ACTION_COUNT;
    const count = table.legalCounts[i];
    const row = k * ACTION_COUNT;
    let total = 0;
    let best = ids[start];
    for (let j = 0; j < count; j++) {
      const p = probabilities[row + ids[start + j]];
      total += p;
      if (p > probabilities[row + best]) best = ids[start + j];
    }
    let u = uniformFloat64(this.rng) * total;
    for (let j = 0; j < count; j++) {
      u -= probabilities[row + ids[start + j]];
      if (u < 0) return { action: ids[start + j], best };
    }
    return { action: ids[start + count - 1], best };
  }

  /** Moves a stream's pending decision to its ready list with the given next value and done flag. */
  private complete(stream: number, nextValue: number, done: number): void {
    const slot = this.pending[stream];
    if (slot < 0) return;
    this.store.columns.nextValues[slot] = nextValue;
    this.store.columns.dones[slot] = done;
    this.ready[stream].push(slot);
    this.readyCount++;
    this.pending[stream] = -1;
  }

  /**
   * Plays until at least `samples` learner decisions are ready and returns them (stream by stream)
   * with the statistics of the games played meanwhile.
   */
  collect(samples: number, mode: CollectMode): { trajectories: TrajectoryBatch; stats: RolloutStats } {
    const started = now();
    const stats = emptyRolloutStats();
    const imitation = mode.kind === 'imitation';
    if (imitation && this.teacher === null) throw new Error('an imitation batch needs a teacher');
    const learnerRows = new Int32Array(this.gameCount);
    while (this.readyCount < samples) {
      const movers = this.movers(learnerRows);
      if (movers.learnerCount > 0) this.learnerMoves(learnerRows, movers.learnerCount, mode, stats);
      this.opponentMoves(movers.bySnapshot, movers.byAgent, stats);
      this.stepGames(stats);
      stats.decisions += this.gameCount;
    }
    const trajectories = this.flush(imitation);
    for (let k = 0; k < trajectories.count; k++) stats.rewardSum += trajectories.rewards[k];
    stats.seconds = now() - started;
    return { trajectories, stats };
  }

  /** The optional columns the run's critic reads. */
  private criticColumns(): OptionalName[] {
    return [...(this.setup.wholeDeal ? ['wholeDeal' as const] : []), ...(this.setup.criticRollouts ? ['rolloutValues' as const] : [])];
  }

  /** Who moves in each game: the learner (its games written into `learnerRows`), a past snapshot, or an agent. */
  private movers(learnerRows: Int32Array): { learnerCount: number; bySnapshot: Map<number, number[]>; byAgent: Map<string, number[]> } {
    let learnerCount = 0;
    const bySnapshot = new Map<number, number[]>();
    const byAgent = new Map<string, number[]>();
    for (let g = 0; g < this.gameCount; g++) {
      const table = this.tables[this.tableOf[g]];
      const seat = table.currentPlayers[this.localOf[g]];
      if (this.isLearner(g, seat)) learnerRows[learnerCount++] = g;
      else if (this.opponentOf[g] === PAST) {
        const list = bySnapshot.get(this.snapshotOf[g]) ?? [];
        list.push(g);
        bySnapshot.set(this.snapshotOf[g], list);
      } else {
        const key = opponentKey(this.opponentOf[g], table.config.players);
        const list = byAgent.get(key) ?? [];
        list.push(g);
        byAgent.set(key, list);
      }
    }
    return { learnerCount, bySnapshot, byAgent };
  }

  /** The learner: one inference call for all its seats; each decision stored, and the one before it in its stream completed. */
  private learnerMoves(learnerRows: Int32Array, learnerCount: number, mode: CollectMode, stats: RolloutStats): void {
    const imitation = mode.kind === 'imitation';
    const t0 = now();
    const out = this.evaluate(this.learner, learnerRows, learnerCount);
    stats.inferenceSeconds += now() - t0;
    for (let k = 0; k < learnerCount; k++) {
      const g = learnerRows[k];
      const table = this.tables[this.tableOf[g]];
      const i = this.localOf[g];
      const seat = table.currentPlayers[i];
      const stream = g * MAX_PLAYERS + seat;
      const value = out.values[k];
      const { action: sampled, best } = this.sample(g, out.probabilities, k);
      let action = sampled;
      let teacherAction = -1;
      if (imitation) {
        const t1 = now();
        // The adviser, when it is the teacher, has answered for this position already.
        const asked = this.teacher === this.adviser ? this.rowAdvisers[k] : -1;
        teacherAction = asked >= 0 ? asked : (this.teacher as Agent).act(this.input(g)).action;
        stats.opponentSeconds += now() - t1;
        if (best === teacherAction) stats.teacherAgreement++;
        if (mode.teacherPlays) action = teacherAction;
      }
      // The previous decision of this stream now knows its next value.
      this.complete(stream, value, 0);
      const slot = this.store.take();
      const store = this.store.columns;
      store.observations.set(this.observationRow(g), slot * OBSERVATION_SIZE);
      store.masks.set(this.maskRow(g), slot * ACTION_COUNT);
      store.actionContexts.set(
        this.rowContexts.subarray(k * ACTION_CONTEXT_SIZE, (k + 1) * ACTION_CONTEXT_SIZE),
        slot * ACTION_CONTEXT_SIZE,
      );
      store.actions[slot] = action;
      store.adviserActions[slot] = this.rowAdvisers[k];
      // Floored so that a teacher's move the network found unthinkable cannot give PPO an infinite ratio later.
      store.logProbs[slot] = Math.max(MIN_LOG_PROB, Math.log(out.probabilities[k * ACTION_COUNT + action]));
      store.values[slot] = value;
      store.rewards[slot] = 0;
      store.teacherActions[slot] = teacherAction;
      if (this.setup.wholeDeal) encodeHiddenDeal(table.state(i), seat, store.wholeDeal, slot * WHOLE_DEAL_HIDDEN_SIZE);
      if (this.setup.criticRollouts) {
        const t1 = now();
        const equity = this.equities[this.tableOf[g]] as GameEquity;
        store.rolloutValues[slot] = rolloutValue(
          table.state(i),
          equity,
          this.setup.criticRollouts,
          mixSeed(this.setup.seed, this.rolloutCount++),
        );
        stats.rolloutSeconds += now() - t1;
      }
      this.pending[stream] = slot;
      this.actions[this.tableOf[g]][i] = action;
    }
    stats.learnerDecisions += learnerCount;
  }

  /** Past snapshots: one call each, sampling like the learner; agents: a batch call where the agent has one. */
  private opponentMoves(bySnapshot: Map<number, number[]>, byAgent: Map<string, number[]>, stats: RolloutStats): void {
    const t2 = now();
    for (const [id, games] of bySnapshot) {
      const network = this.snapshots.get(id) as Network<PolicyValueConfig>;
      const rows = Int32Array.from(games);
      const out = this.evaluate(network, rows, rows.length);
      rows.forEach((g, k) => {
        this.actions[this.tableOf[g]][this.localOf[g]] = this.sample(g, out.probabilities, k).action;
      });
    }
    // Agents: a batch call where the agent has one.
    for (const [key, games] of byAgent) {
      const agent = this.agents.get(key) as Agent;
      const inputs = games.map((g) => this.input(g));
      const decisions = decideAll(agent, inputs);
      games.forEach((g, k) => {
        this.actions[this.tableOf[g]][this.localOf[g]] = decisions[k].action;
      });
    }
    stats.opponentSeconds += now() - t2;
  }

  /** Steps every game, then hands out rewards and closes what ended. */
  private stepGames(stats: RolloutStats): void {
    this.tables.forEach((table, t) => table.step(this.actions[t]));
    const store = this.store.columns;
    for (let g = 0; g < this.gameCount; g++) {
      const table = this.tables[this.tableOf[g]];
      const i = this.localOf[g];
      const players = table.config.players;
      for (let seat = 0; seat < players; seat++) {
        const slot = this.pending[g * MAX_PLAYERS + seat];
        if (slot >= 0) store.rewards[slot] += table.rewards[i * MAX_PLAYERS + seat];
      }
      const terminated = table.terminated[i] === 1;
      const truncated = table.truncated[i] === 1;
      if (terminated || truncated || (table.roundEnds[i] === 1 && this.setup.returnHorizon === 'round')) {
        for (let seat = 0; seat < players; seat++) {
          const stream = g * MAX_PLAYERS + seat;
          const slot = this.pending[stream];
          if (slot >= 0) this.complete(stream, truncated ? store.values[slot] : 0, truncated ? 2 : 1);
        }
      }
      if (terminated || truncated) {
        stats.episodes++;
        if (truncated) stats.truncated++;
        const spec = this.opponentOf[g];
        if (spec !== SELF) {
          const record = (stats.outcomes[spec] ??= { games: 0, wins: 0 });
          record.games++;
          if (table.winners[i] === this.learnerSeat[g]) record.wins++;
          this.results.add(spec, table.winners[i] === this.learnerSeat[g]);
        }
        this.assign(g);
      }
    }
  }

  /** Copies every ready decision out, stream by stream, and frees their slots. */
  private flush(withTeacher: boolean): TrajectoryBatch {
    const optional: OptionalName[] = [...(withTeacher ? ['teacherActions' as const] : []), ...this.criticColumns()];
    const batch = emptyTrajectoryBatch(this.readyCount, optional);
    let k = 0;
    for (const list of this.ready) {
      for (let j = 0; j < list.length; j++, k++) {
        copyRow(this.store.columns, list[j], batch, k);
        batch.segmentEnds[k] = j === list.length - 1 ? 1 : 0;
        this.store.release(list[j]);
      }
      list.length = 0;
    }
    this.readyCount = 0;
    return batch;
  }
}
