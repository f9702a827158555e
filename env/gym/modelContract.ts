/**
 * The model contract: the versions of the encodings a trained network reads and writes. A model
 * fits this build when its metadata names these three; the trainer writes them, the loader, the
 * server and publish-model check them. One constant, so a version bump is one edit.
 */
import { ACTION_FEATURES_VERSION } from './actionFeatures.js';
import { ACTION_SPACE_VERSION } from './actionLayout.js';
import { OBSERVATION_VERSION } from './observation.js';

export const MODEL_CONTRACT = Object.freeze({
  observationVersion: OBSERVATION_VERSION,
  actionSpaceVersion: ACTION_SPACE_VERSION,
  actionFeaturesVersion: ACTION_FEATURES_VERSION,
});
export type ModelContract = typeof MODEL_CONTRACT;
