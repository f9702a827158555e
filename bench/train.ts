// train section of `npm run bench`: self-play decisions per second with batched inference (one
// actor, one thread), learner samples per second (the PPO and imitation updates), and end-to-end
// decisions per second of real training runs (an actor worker and the learner, as `yaniv train`
// runs them), with the default network and batch sizes.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import path from 'node:path';
import Table from 'cli-table3';
import { ACTION_COUNT } from '../env/gym/actionLayout.js';
import { OBSERVATION_SIZE } from '../env/gym/observation.js';
import { seededRng } from '../env/rules/random.js';
import { ruleSelectionSchema } from '../env/rules/rules.js';
import { describeBackend, initBackend } from '../nn/backend.js';
import { DEFAULT_HYPER_PARAMETERS, type HyperParameters, runOptionsSchema } from '../training/config.js';
import { FastAdam } from '../training/fastAdam.js';
import { imitationUpdate } from '../training/imitation.js';
import { policyValueNetwork } from '../training/learner.js';
import { opponentAgents, parseOpponentMix } from '../training/league.js';
import { ppoUpdate } from '../training/ppo.js';
import { Rollout, type TrajectoryBatch } from '../training/rollout.js';
import { type IterationMetrics, type TrainOptions, train } from '../training/trainer.js';
import { RedisServer } from '../scripts/redisServer.js';
import { redisTransportFactory } from '../training/redisRun.js';

const hp = DEFAULT_HYPER_PARAMETERS;

const network = (seed: number) => policyValueNetwork(hp, seed);

/** Self-play (every seat the network) in one thread: decisions/s and the inference share. */
async function selfPlay(
  players: number[],
  opponents: string,
  samples: number,
): Promise<{ rate: number; inferenceShare: number; opponentShare: number; batch: TrajectoryBatch }> {
  const net = network(1);
  const mix = parseOpponentMix(opponents);
  const agents = await opponentAgents(mix, { ...ruleSelectionSchema.parse({}), sizes: players });
  const rollout = new Rollout(
    {
      players,
      games: hp.gamesPerActor,
      env: { ...ruleSelectionSchema.parse({}), episode: 'game', reward: hp.reward, rewardScale: hp.rewardScale, maxTurns: hp.maxTurns },
      returnHorizon: hp.returnHorizon,
      opponents: mix,
      seed: 1,
    },
    net,
    agents,
    null,
  );
  rollout.collect(1024, { kind: 'ppo' });
  const { trajectories, stats } = rollout.collect(samples, { kind: 'ppo' });
  net.model.dispose();
  return {
    rate: stats.decisions / stats.seconds,
    inferenceShare: stats.inferenceSeconds / stats.seconds,
    opponentShare: stats.opponentSeconds / stats.seconds,
    batch: trajectories,
  };
}

/** One pass of the PPO update (and of the imitation update) over a batch: learner samples/s. */
function learner(batch: TrajectoryBatch): { ppo: number; imitation: number } {
  const net = network(2);
  const optimizer = new FastAdam({ kind: 'adam', learningRate: hp.learningRate });
  const once: HyperParameters = { ...hp, epochs: 1, targetKl: null, imitationEpochs: 1 };
  ppoUpdate(net, optimizer, { ...batch, count: Math.min(batch.count, hp.minibatchSize * 2) }, once, seededRng(1));
  let t0 = performance.now();
  ppoUpdate(net, optimizer, batch, once, seededRng(1));
  const ppo = batch.count / ((performance.now() - t0) / 1000);
  const labelled = { ...batch, teacherActions: batch.actions };
  t0 = performance.now();
  imitationUpdate(net, optimizer, labelled, once, seededRng(1));
  const imitation = batch.count / ((performance.now() - t0) / 1000);
  optimizer.dispose();
  net.model.dispose();
  return { ppo, imitation };
}

/** A real training run (one actor worker + the learner), PPO only: decisions/s over its iterations after the first two. */
async function endToEnd(
  opponents: string,
  iterations: number,
  workers = 1,
  transport?: TrainOptions['transport'],
): Promise<{ decisionsPerSecond: number; learnerShare: number; samplesPerIteration: number }> {
  const out = mkdtempSync(path.join(os.tmpdir(), 'yaniv-bench-train-'));
  const lines: IterationMetrics[] = [];
  try {
    const run = runOptionsSchema.parse({
      episodes: 1_000_000,
      players: [2],
      out,
      opponents,
      evalEvery: 0,
      evalGames: 0,
      workers,
      backend: 'auto',
    });
    await train(
      {
        run,
        hyperParameters: { ...hp, imitationEpisodes: 0, checkpointEvery: 1000 },
        explicit: new Set(),
        commandLine: ['bench'],
        transport,
      },
      { log: () => undefined, onIteration: (m) => lines.push(m), stopRequested: () => lines.length >= iterations },
    );
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  const measured = lines.slice(2);
  const seconds = measured.reduce((s, m) => s + m.iterationSeconds, 0);
  return {
    decisionsPerSecond: (measured[measured.length - 1].decisions - lines[1].decisions) / seconds,
    learnerShare: measured.reduce((s, m) => s + m.updateSeconds, 0) / seconds,
    samplesPerIteration: measured.reduce((s, m) => s + m.batchSamples, 0) / measured.length,
  };
}

/**
 * Self-play through Redis against the in-process path, side by side: `actors` actor processes of
 * one worker each (`yaniv actor`) against as many actor threads; null without redis-server.
 */
export async function redisAgainstThreads(
  actors: number,
  iterations: number,
): Promise<{ ratio: number; redis: number; threads: number } | null> {
  if (spawnSync('redis-server', ['--version']).status !== 0) return null;
  const threads = await endToEnd('self=1', iterations, actors);
  const server = await RedisServer.start();
  const main = fileURLToPath(new URL('../cli/main.js', import.meta.url));
  const children: ChildProcess[] = [];
  try {
    // The actors join once the learner has made its run.
    const redis = await endToEnd('self=1', iterations, actors, async (plan) => {
      const transport = await redisTransportFactory(server.url)(plan);
      for (let a = 0; a < actors; a++)
        children.push(spawn(process.execPath, [main, 'actor', '--redis', server.url, '--workers', '1'], { stdio: 'ignore' }));
      return transport;
    });
    return {
      ratio: redis.decisionsPerSecond / threads.decisionsPerSecond,
      redis: redis.decisionsPerSecond,
      threads: threads.decisionsPerSecond,
    };
  } finally {
    children.forEach((child) => child.kill('SIGKILL'));
    server.dispose();
  }
}

export async function run(): Promise<void> {
  const backend = await initBackend('auto');
  console.log(
    `${describeBackend(backend)}; network ${OBSERVATION_SIZE}-${hp.hiddenUnits.join('-')}-${ACTION_COUNT} + value, ${hp.gamesPerActor} games per actor, minibatch ${hp.minibatchSize}`,
  );
  const table = new Table({ head: ['train', 'figure', 'notes'] });
  const selfHeadsUp = await selfPlay([2], 'self=1', 8192);
  table.push([
    'self-play decisions/s, heads-up, one thread',
    selfHeadsUp.rate.toFixed(0),
    `batched inference ${(100 * selfHeadsUp.inferenceShare).toFixed(0)}% of the time`,
  ]);
  const selfFour = await selfPlay([4], 'self=1', 8192);
  table.push([
    'self-play decisions/s, 4 players, one thread',
    selfFour.rate.toFixed(0),
    `batched inference ${(100 * selfFour.inferenceShare).toFixed(0)}%`,
  ]);
  const mixed = await selfPlay([2], 'self=0.4,strong=0.4,intermediate=0.2', 8192);
  table.push([
    'league decisions/s (40% strong, 20% intermediate), heads-up',
    mixed.rate.toFixed(0),
    `inference ${(100 * mixed.inferenceShare).toFixed(0)}%, bots ${(100 * mixed.opponentShare).toFixed(0)}%`,
  ]);
  const rates = learner(selfHeadsUp.batch);
  table.push(['learner samples/s, PPO (one pass, hand backward + FastAdam)', rates.ppo.toFixed(0), `${selfHeadsUp.batch.count} samples`]);
  table.push(['learner samples/s, imitation', rates.imitation.toFixed(0), '']);
  for (const [label, opponents] of [
    ['self-play', 'self=1'],
    ['default league mix', runOptionsSchema.shape.opponents.parse(undefined)],
  ] as const) {
    const e2e = await endToEnd(opponents, 8);
    table.push([
      `end-to-end decisions/s, ${label} (1 actor worker + learner, ${hp.epochs} epochs)`,
      e2e.decisionsPerSecond.toFixed(0),
      `learner busy ${(100 * e2e.learnerShare).toFixed(0)}% of the time; ${e2e.samplesPerIteration.toFixed(0)} samples/iteration`,
    ]);
  }
  for (const actors of [1, 2]) {
    const compared = await redisAgainstThreads(actors, 8);
    table.push([
      `end-to-end decisions/s through Redis, ${actors} actor process(es) ÷ ${actors} actor thread(s)`,
      compared === null ? 'no redis-server' : compared.ratio.toFixed(2),
      compared === null ? '' : `${compared.redis.toFixed(0)} vs ${compared.threads.toFixed(0)} decisions/s, self-play; goal ≥ 0.9`,
    ]);
  }
  console.log(table.toString());
  console.log("(end-to-end: all seats' decisions per wall-clock second of `yaniv train`, after two warm-up iterations; goal ≥ 5,000)");
}
