// `node dist/scripts/widenModel.js FROM TO`: migrates a model folder trained for an earlier
// observation whose inputs are the first ones of the current observation (EARLIER_OBSERVATIONS)
// to the current version: the new inputs get zero weights (nn/networks.ts widenInputs), so the
// widened network plays exactly as before until training (`yaniv train --init-from TO`) uses them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { ACTION_SPACE_VERSION } from '../env/gym/actionLayout.js';
import { EARLIER_OBSERVATIONS, OBSERVATION_SIZE, OBSERVATION_VERSION } from '../env/gym/observation.js';
import { initBackend } from '../nn/backend.js';
import { widenInputs } from '../nn/networks.js';
import { METADATA_JSON, ModelMetadataSchema, nodeFileHandler, saveNetwork } from '../nn/persistence.js';

export async function widenModel(from: string, to: string): Promise<void> {
  const metadata = ModelMetadataSchema.parse(JSON.parse(readFileSync(path.join(from, METADATA_JSON), 'utf8')));
  const inputs = EARLIER_OBSERVATIONS[metadata.observationVersion];
  if (inputs === undefined) {
    throw new Error(
      `${from} is for ${metadata.observationVersion}; only ${Object.keys(EARLIER_OBSERVATIONS).join(', ')} widen to ${OBSERVATION_VERSION}`,
    );
  }
  if (metadata.network.kind !== 'policy-value' || metadata.network.observationSize !== inputs) {
    throw new Error(`${from} is not a policy-value network over the ${inputs} inputs of ${metadata.observationVersion}`);
  }
  if (metadata.actionSpaceVersion !== ACTION_SPACE_VERSION) {
    throw new Error(`${from} is for ${metadata.actionSpaceVersion}, not ${ACTION_SPACE_VERSION}`);
  }
  const model = await tf.loadLayersModel(nodeFileHandler(from));
  const wide = widenInputs({ config: metadata.network, model }, OBSERVATION_SIZE);
  await saveNetwork(wide, to, {
    observationVersion: OBSERVATION_VERSION,
    actionSpaceVersion: ACTION_SPACE_VERSION,
    training: { ...metadata.training, widenedFrom: { observationVersion: metadata.observationVersion, folder: path.resolve(from) } },
  });
  model.dispose();
  wide.model.dispose();
}

if (process.argv[1] !== undefined && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  const [from, to] = process.argv.slice(2);
  if (from === undefined || to === undefined) {
    console.error('usage: node dist/scripts/widenModel.js FROM TO');
    process.exit(2);
  }
  await initBackend('auto');
  widenModel(from, to).then(
    () => console.log(`${from} (${OBSERVATION_SIZE} inputs now, ${OBSERVATION_VERSION}) → ${to}`),
    (error: Error) => {
      console.error(`widenModel: ${error.message}`);
      process.exit(2);
    },
  );
}
