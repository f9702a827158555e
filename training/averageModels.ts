/**
 * `yaniv average-models`: the weight average of trained models of one network, contract, rules and
 * adviser — a "model soup" (Wortsman et al. 2022) or, over the checkpoints of one run, stochastic
 * weight averaging (Izmailov et al. 2018). The first folder is the base: its training record
 * (rules, table sizes, adviser, reward) is the average's, and `averageOf` names every folder
 * averaged with its table sizes and games.
 */
import * as tf from '@tensorflow/tfjs';
import { readModelCard, trainedUnder, type ModelCard } from '../agents/models/modelCard.js';
import { resolveModelDir } from '../agents/models/modelFolder.js';
import { MODEL_CONTRACT } from '../env/gym/modelContract.js';
import { initBackend } from '../nn/backend.js';
import { loadNetwork, saveNetwork } from '../nn/persistence.js';
import { trainerStateSchema } from './learner.js';

export class AverageModelsError extends Error {
  override name = 'AverageModelsError';
}

interface Averaged {
  dir: string;
  card: ModelCard;
}

/** Refuses folders the average would mix wrongly, naming the folder and what differs. */
function checkAlike(base: Averaged, other: Averaged): void {
  const differs = (what: string, a: unknown, b: unknown) =>
    new AverageModelsError(
      `${other.dir} cannot be averaged with ${base.dir}: its ${what} is ${JSON.stringify(b)}, not ${JSON.stringify(a)}`,
    );
  if (JSON.stringify(other.card.hiddenUnits) !== JSON.stringify(base.card.hiddenUnits))
    throw differs('network (hidden units)', base.card.hiddenUnits, other.card.hiddenUnits);
  if (!trainedUnder(other.card, base.card.rules)) throw differs('rules', base.card.rules, other.card.rules);
  if (other.card.adviser !== base.card.adviser) throw differs('adviser', base.card.adviser, other.card.adviser);
}

/** Averages the models in `dirs` (model folders or training runs) into `out`; returns the folders read. */
export async function averageModels(dirs: readonly string[], out: string, commandLine: readonly string[]): Promise<string[]> {
  if (dirs.length < 2) throw new AverageModelsError(`give two or more model folders to average (got ${dirs.length})`);
  const models: Averaged[] = dirs.map((arg) => {
    try {
      const dir = resolveModelDir(arg);
      return { dir, card: readModelCard(dir) };
    } catch (error) {
      throw new AverageModelsError((error as Error).message);
    }
  });
  for (const other of models.slice(1)) checkAlike(models[0], other);
  await initBackend();
  const loaded = await Promise.all(models.map(({ dir }) => loadNetwork(dir, MODEL_CONTRACT)));
  const [base] = loaded;
  const weights = loaded.map(({ network }) => network.model.getWeights());
  const mean = weights[0].map((_, k) => tf.tidy(() => tf.addN(weights.map((w) => w[k])).div(weights.length)));
  base.network.model.setWeights(mean);
  tf.dispose(mean);
  // The base's own commands (its run) and then this one: the whole recipe of the average.
  const runCommands = trainerStateSchema.shape.commandLines.safeParse(base.metadata.training.commandLines ?? []);
  if (!runCommands.success) throw new AverageModelsError(`${models[0].dir}: its training.commandLines is not a list of command lines`);
  const training = {
    ...base.metadata.training,
    averageOf: models.map(({ dir, card }) => ({ dir, players: card.players, episodes: card.episodes })),
    benchmark: null,
    evaluation: null,
    commandLines: [...runCommands.data, [...commandLine]],
  };
  await saveNetwork(base.network, out, { ...MODEL_CONTRACT, training });
  loaded.forEach(({ network }) => network.model.dispose());
  return models.map(({ dir }) => dir);
}
