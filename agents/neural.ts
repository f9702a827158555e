/**
 * `neural`: a policy-value network (nn/) playing through the Agent interface. `act` returns the
 * policy (probabilities over the legal actions, best first) and the network's value, which the
 * server's advisor mode shows; it evaluates its one position in plain JS (nn/singleEvaluator.ts).
 * `actBatch` decides many positions in one tfjs inference call (the server's batching). Greedy by
 * default (the most probable legal action, ties to the lowest id); with `greedy: false` it samples
 * from the policy with its own
 * seeded randomness.
 *
 * The value is in the units the model was trained for (metadata.json, `training.reward`): with the
 * trainer's defaults, the expected zero-sum reward for the rest of the round (points relative to
 * the table's mean × 0.01, negative = worse than the mean).
 */
import * as tf from '@tensorflow/tfjs';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { ACTION_COUNT, ACTION_SPACE_VERSION } from '../env/gym/actionLayout.js';
import type { Agent, Decision, DecisionInput } from '../env/gym/agent.js';
import { OBSERVATION_SIZE, OBSERVATION_VERSION } from '../env/gym/observation.js';
import { type Rng, seededRng } from '../env/rules/random.js';
import { initBackend } from '../nn/backend.js';
import type { BackendChoice } from '../nn/backendChoice.js';
import { evaluatePolicyValue } from '../nn/inference.js';
import { SinglePolicyValueEvaluator } from '../nn/singleEvaluator.js';
import type { Network, PolicyValueConfig } from '../nn/networks.js';
import { type ModelMetadata, loadNetwork } from '../nn/persistence.js';
import { resolveModelDir } from './modelFolder.js';

export { DEFAULT_MODEL, resolveModelDir } from './modelFolder.js';

export interface NeuralOptions {
  /** Play the most probable action (default) or sample from the policy. */
  greedy?: boolean;
  /** Name shown in tournaments (default "neural"). */
  name?: string;
}

/** Wraps a loaded policy-value network as an Agent. */
export function neuralAgent(net: Network<PolicyValueConfig>, options: NeuralOptions = {}): Agent {
  if (net.config.observationSize !== OBSERVATION_SIZE || net.config.actionCount !== ACTION_COUNT) {
    throw new Error(
      `network takes ${net.config.observationSize} inputs and ${net.config.actionCount} actions; the game has ${OBSERVATION_SIZE} and ${ACTION_COUNT}`,
    );
  }
  const greedy = options.greedy ?? true;
  // One position: plain JS (nn/singleEvaluator.ts), several times faster than tfjs for a batch of one.
  const single = new SinglePolicyValueEvaluator(net);
  let rng: Rng = seededRng(0);

  const decide = (probabilities: Float32Array, offset: number, mask: Uint8Array, value: number): Decision => {
    const actions: number[] = [];
    for (let a = 0; a < ACTION_COUNT; a++) if (mask[a]) actions.push(a);
    if (actions.length === 0) throw new Error('no legal action to choose from');
    // Best first; equal probabilities keep the lower id first (the sort is stable).
    actions.sort((a, b) => probabilities[offset + b] - probabilities[offset + a]);
    const scores = actions.map((a) => probabilities[offset + a]);
    let action = actions[0];
    if (!greedy) {
      let u = uniformFloat64(rng) * scores.reduce((s, p) => s + p, 0);
      for (let i = 0; i < actions.length; i++) {
        u -= scores[i];
        if (u < 0 || i === actions.length - 1) {
          action = actions[i];
          break;
        }
      }
    }
    return { action, policy: { actions, scores, value } };
  };

  return {
    name: options.name ?? 'neural',
    reset(seed: number) {
      rng = seededRng(seed);
    },
    act({ observation, mask }: DecisionInput): Decision {
      const out = single.evaluate(observation, mask);
      return decide(out.probabilities, 0, mask, out.value);
    },
    actBatch(inputs: readonly DecisionInput[]): Decision[] {
      if (inputs.length === 0) return [];
      const observations = new Float32Array(inputs.length * OBSERVATION_SIZE);
      const masks = new Uint8Array(inputs.length * ACTION_COUNT);
      inputs.forEach((input, i) => {
        observations.set(input.observation, i * OBSERVATION_SIZE);
        masks.set(input.mask, i * ACTION_COUNT);
      });
      const out = evaluatePolicyValue(net, observations, masks);
      return inputs.map((input, i) => decide(out.probabilities, i * ACTION_COUNT, input.mask, out.values[i]));
    },
  };
}

/** Makes sure tfjs runs on a backend: the given one, else whatever was initialised, else the best available. */
async function ensureBackend(choice?: BackendChoice): Promise<void> {
  if (choice !== undefined) await initBackend(choice);
  else if (tf.engine().backendName == null) await initBackend('auto');
}

/**
 * Loads a model folder (see resolveModelDir) as a neural agent. Refuses a model written for another
 * observation, action-space or format version, naming both versions.
 */
export async function loadNeuralAgent(
  arg: string | undefined,
  options: NeuralOptions & { backend?: BackendChoice } = {},
): Promise<{ agent: Agent; network: Network<PolicyValueConfig>; metadata: ModelMetadata; dir: string }> {
  const dir = resolveModelDir(arg);
  await ensureBackend(options.backend);
  const { network, metadata } = await loadNetwork(dir, {
    observationVersion: OBSERVATION_VERSION,
    actionSpaceVersion: ACTION_SPACE_VERSION,
    kind: 'policy-value',
  });
  const net = network as Network<PolicyValueConfig>;
  return { agent: neuralAgent(net, options), network: net, metadata, dir };
}
