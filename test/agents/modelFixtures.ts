// Model folders' metadata for tests: what a trainer writes, in its smallest valid form.
import { MODEL_CONTRACT } from '../../env/gym/modelContract.js';

/** A training record (metadata.json `training`) as the trainer writes it: rules, sizes and what else is given. */
export function trainingRecord(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { rules: { preset: 'standard', rules: {} }, players: [2], ...extra };
}

/** A whole metadata.json that a model card reads (agents/models/modelCard.ts), with this training record. */
export function cardMetadata(training: Record<string, unknown> = trainingRecord()): Record<string, unknown> {
  return {
    formatVersion: 1,
    ...MODEL_CONTRACT,
    network: { kind: 'policy-value', hiddenUnits: [8] },
    createdAt: '2026-12-03T00:00:00.000Z',
    training,
  };
}
