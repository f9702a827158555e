/**
 * Scratch probe (issue 44 item 2, step 1): does a critic that predicts the round's points from the
 * whole deal, valued through the game-equity tables, explain more of the return than one that
 * regresses the return? Phase "collect" plays held-out four-seat games as heldOutValue does and
 * dumps each learner decision's whole-deal input, realised return, seat value and its round's
 * outcome; phase "fit" trains the predictors on most games and measures on the rest.
 *
 *   node dist/scripts/criticProbe.js collect <dir> <games> [seed] [stride: keep one decision in stride]
 *   node dist/scripts/criticProbe.js fit <dir>       (what to fit, from the environment:)
 *     PROBE_KINDS=dist,points,return   the points distribution, the mean points, the return regressed
 *     PROBE_COMPACT=1 | PROBE_SEATS=1  29 compact inputs | the whole deal seat by seat, shared weights
 *     PROBE_EPOCHS, PROBE_LR, PROBE_SAMPLES (draws per winner), PROBE_TRAIN_EVERY (a learning curve)
 *   node dist/scripts/criticProbe.js oracles <dir>   the values that need no learning
 *   PROBE_ROLLOUTS=n ... collect ...                   also play the round out from one in n kept val/test decisions (criticProbeRollouts.ts)
 *   node dist/scripts/criticProbe.js cost <K>       the actor's µs per learner decision with K rollouts (0: none)
 *   node dist/scripts/criticProbe.js rollouts <dir> [epoch]   the rollout critic's figures (beside the learned critic's values that fit dumps at that epoch under PROBE_DUMP=1)
 *
 * The figures are in docs/training.md ("A points critic, probed offline"). The probe reads the
 * rollout's and the episode's private state by patching their prototypes: a measuring tool, not
 * a pattern for the code that trains.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Episode } from '../env/gym/episode.js';
import { WHOLE_DEAL_HIDDEN_SIZE, WHOLE_DEAL_SIZE } from '../env/gym/wholeDeal.js';
import { OBSERVATION_SIZE } from '../env/gym/observation.js';
import { mixSeed } from '../env/rules/random.js';
import type { GameState, RoundResult } from '../env/rules/state.js';
import type { GameEquity } from '../env/gym/equity.js';
import { initBackend } from '../nn/backend.js';
import { actorAgents } from '../training/actor.js';
import { hyperParametersSchema, runOptionsSchema } from '../training/config.js';
import { realisedReturns } from '../training/heldOutValue.js';
import { parseOpponentMix } from '../training/league.js';
import { Learner } from '../training/learner.js';
import { rewardEquity } from '../training/rewardEquity.js';
import { Rollout, type RolloutSetup } from '../training/rollout.js';
import type { SummedStat, TrajectoryBatch } from '../training/trajectory.js';
import { fit, oracles } from './criticProbeFit.js';
import type { DecisionMeta, RoundRecord } from './criticProbeInputs.js';
import { ROLLOUT_VARIANTS, probeRolloutValues, rolloutReport } from './criticProbeRollouts.js';

type Rounds = RoundRecord[] & { game: number };
interface RowInfo {
  rounds: Rounds;
  index: number;
  seat: number;
  /** Whether the decision is kept (one in `stride`, counted over the learner's decisions). */
  keep: boolean;
  rollouts?: number[];
}

/** The rollout critic (PROBE_ROLLOUTS=n): computed for one in n kept decisions of the val and test games (criticProbeFit's split). */
const ROLLOUTS = Number(process.env.PROBE_ROLLOUTS ?? 0);
let keptCounter = 0;
const rolloutMicros = ROLLOUT_VARIANTS.map(() => 0);
let rolloutDecisions = 0;
let decisionCounter = 0;

function rolloutsAt(episode: Record<string, unknown>, game: number): number[] | undefined {
  if (!ROLLOUTS || game % 20 >= 8 || keptCounter++ % ROLLOUTS !== 0) return undefined;
  rolloutDecisions++;
  return probeRolloutValues(episode.state as GameState, episode.equity as GameEquity, mixSeed(game, decisionCounter), rolloutMicros);
}

let gameCounter = 0;
function patchEpisode(): void {
  const proto = Episode.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  const endRound = proto.endRound;
  proto.endRound = function (this: Record<string, unknown>, ...args: unknown[]) {
    const state = this.state as { dealer: number; lastResult: RoundResult };
    const record: RoundRecord = {
      startTotals: Array.from(this.roundStartTotals as Int32Array),
      eqStart: Array.from(this.roundStartEquity as Float64Array),
      dealer: state.dealer,
      result: state.lastResult,
    };
    roundsOf(this).push(record);
    return endRound.apply(this, args);
  };
  const reset = proto.reset;
  proto.reset = function (this: Record<string, unknown>, ...args: unknown[]) {
    const out = reset.apply(this, args);
    this._rounds = Object.assign([], { game: gameCounter++ });
    return out;
  };
}

function roundsOf(episode: Record<string, unknown>): Rounds {
  episode._rounds ??= Object.assign([], { game: gameCounter++ });
  return episode._rounds as Rounds;
}

let lastRows: RowInfo[] = [];
function patchRollout(stride: number): void {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const proto = Rollout.prototype as unknown as Record<string, (...args: any[]) => unknown>;
  const slotInfo: RowInfo[] = [];
  const learnerMoves = proto.learnerMoves;
  proto.learnerMoves = function (this: Record<string, unknown>, learnerRows: Int32Array, learnerCount: number, ...rest: unknown[]) {
    const tables = this.tables as { currentPlayers: Int8Array; games: Record<string, unknown>[] }[];
    const tableOf = this.tableOf as Int16Array;
    const localOf = this.localOf as Int16Array;
    const infos: [number, RowInfo][] = [];
    for (let k = 0; k < learnerCount; k++) {
      const g = learnerRows[k];
      const table = tables[tableOf[g]];
      const i = localOf[g];
      const seat = table.currentPlayers[i];
      const rounds = roundsOf(table.games[i]);
      const keep = (decisionCounter++ * 7919) % stride === 0;
      const rollouts = keep ? rolloutsAt(table.games[i], rounds.game) : undefined;
      infos.push([g * 8 + seat, { rounds, index: rounds.length, seat, keep, rollouts }]);
    }
    const out = learnerMoves.call(this, learnerRows, learnerCount, ...rest);
    const pending = this.pending as Int32Array;
    for (const [stream, info] of infos) slotInfo[pending[stream]] = info;
    return out;
  };
  const flush = proto.flush;
  proto.flush = function (this: Record<string, unknown>, ...args: unknown[]) {
    lastRows = (this.ready as number[][]).flatMap((list) => list.map((slot) => slotInfo[slot]));
    return flush.apply(this, args);
  };
}

interface Pending {
  batch: TrajectoryBatch;
  rows: RowInfo[];
  realised: Float32Array;
}

/** The held-out games' rollout as heldOutValue plays them: `standard-4` against the run's mix, four seats, reward equity. */
async function probeRollout(dir: string, seed: number, games: number, extra: Partial<RolloutSetup>) {
  await initBackend('auto');
  const run = runOptionsSchema.parse({
    episodes: 1,
    players: [4],
    out: path.join(dir, 'run'),
    initFrom: 'models/standard-4',
    opponents: 'strong=0.85,self=0.15',
    seed,
  });
  const hp = hyperParametersSchema.parse({ reward: 'equity', adviser: 'strong', critic: 'whole-deal', returnHorizon: 'round' });
  const learner = await Learner.fresh(run, hp, []);
  const setup = {
    players: run.players,
    games: Math.min(games, hp.gamesPerActor),
    env: learner.env,
    returnHorizon: hp.returnHorizon,
    opponents: parseOpponentMix(run.opponents),
    seed: mixSeed(run.seed, 5),
    equity: rewardEquity(hp, run),
    adviser: hp.adviser ?? null,
    ...extra,
  };
  const { agents, adviser } = await actorAgents(setup, null);
  return { rollout: new Rollout(setup, learner.network, agents, null, adviser), hp };
}

/** The actor's time per learner decision with `--critic-rollouts` K (0: none): the network's, the opponents' and adviser's, the rollouts'. */
async function cost(rollouts: number): Promise<void> {
  const { rollout } = await probeRollout('/tmp/criticProbe-cost', 95, 64, { criticRollouts: rollouts });
  rollout.collect(2048, { kind: 'ppo' });
  const t0 = performance.now();
  const parts = Array.from({ length: 4 }, () => rollout.collect(4096, { kind: 'ppo' }).stats);
  const sum = (name: SummedStat) => parts.reduce((total, stats) => total + stats[name], 0);
  const decisions = sum('learnerDecisions');
  const us = (seconds: number) => ((seconds * 1e6) / decisions).toFixed(0);
  console.log(
    `K=${rollouts}: ${decisions} learner decisions; µs each: wall ${us((performance.now() - t0) / 1000)}, network ${us(sum('inferenceSeconds'))}, opponents and adviser ${us(sum('opponentSeconds'))}, rollouts ${us(sum('rolloutSeconds'))}`,
  );
}

async function collect(dir: string, games: number, seed: number, stride: number): Promise<void> {
  patchEpisode();
  patchRollout(stride);
  const { rollout, hp } = await probeRollout(dir, seed, games, { wholeDeal: true });
  mkdirSync(dir, { recursive: true });
  const featureFile = path.join(dir, 'features.f32');
  writeFileSync(featureFile, '');
  const metas: DecisionMeta[] = [];
  const write = ({ batch, rows, realised }: Pending) => {
    const kept: number[] = [];
    let newSegment = true;
    for (let k = 0; k < batch.count; k++) {
      if (k > 0 && batch.segmentEnds[k - 1] === 1) newSegment = true;
      const info = rows[k];
      const round = info.rounds[info.index];
      if (Number.isNaN(realised[k]) || round === undefined || !info.keep) continue;
      kept.push(k);
      const segmentStart = newSegment;
      newSegment = false;
      metas.push({
        game: info.rounds.game,
        seat: info.seat,
        segmentStart,
        realised: realised[k],
        seatValue: batch.values[k],
        round,
        ...(info.rollouts ? { rollouts: info.rollouts } : {}),
      });
    }
    const block = new Float32Array(kept.length * WHOLE_DEAL_SIZE);
    kept.forEach((k, i) => {
      block.set(batch.observations.subarray(k * OBSERVATION_SIZE, (k + 1) * OBSERVATION_SIZE), i * WHOLE_DEAL_SIZE);
      const hidden = (batch.wholeDeal as Float32Array).subarray(k * WHOLE_DEAL_HIDDEN_SIZE, (k + 1) * WHOLE_DEAL_HIDDEN_SIZE);
      block.set(hidden, i * WHOLE_DEAL_SIZE + OBSERVATION_SIZE);
    });
    appendFileSync(featureFile, Buffer.from(block.buffer));
  };
  const pending: Pending[] = [];
  let episodes = 0;
  while (episodes < games) {
    const { trajectories: batch, stats } = rollout.collect(2048, { kind: 'ppo' });
    episodes += stats.episodes;
    pending.push({ batch, rows: lastRows, realised: realisedReturns(batch, hp.gamma) });
    // A batch's rounds have ended a few batches later: write it then, so memory stays small.
    if (pending.length > 4) write(pending.shift() as Pending);
    process.stderr.write(`\r${episodes} games`);
  }
  pending.forEach(write);
  writeFileSync(path.join(dir, 'meta.json'), JSON.stringify({ episodes, metas, rolloutMicros, rolloutDecisions }));
  console.log(`\n${episodes} games, ${metas.length} decisions kept`);
}

const [phase, dir, games, seed, stride] = process.argv.slice(2);
if (phase === 'collect') await collect(dir, Number(games), Number(seed ?? 95), Number(stride ?? 1));
else if (phase === 'fit') await fit(dir);
else if (phase === 'oracles') oracles(dir);
else if (phase === 'rollouts') rolloutReport(dir, games);
else if (phase === 'cost') await cost(Number(dir));
else throw new Error('usage: criticProbe collect <dir> <games> | fit <dir>');
