/**
 * `neural`: a policy-value network (nn/) playing through the Agent interface. `act` returns the
 * policy (probabilities over the legal actions, best first) and the network's value, which the
 * server's advisor mode shows; it evaluates its one position in plain JS (nn/singleEvaluator.ts).
 * `actBatch` decides many positions in one tfjs inference call (the server's batching). Greedy by
 * default (the most probable legal action, ties to the lowest id); with `greedy: false` it samples
 * from the policy with its own
 * seeded randomness.
 *
 * Progress: in a round that has stalled, the policy is nudged toward the moves that end it, as
 * strong's stall penalty does (agents/bots/tactics.ts, `progressGuard` below), so two networks cannot
 * trade the same cards for ever (a server table did, turn after turn, each never calling).
 *
 * The value is in the units the model was trained for (metadata.json, `training.reward`): with the
 * trainer's defaults, the expected zero-sum reward for the rest of the round (points relative to
 * the table's mean × 0.01, negative = worse than the mean).
 */
import * as tf from '@tensorflow/tfjs';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { ACTION_COUNT } from '../../env/gym/actionLayout.js';
import type { Agent, Decision, DecisionInput } from '../../env/gym/agent.js';
import { MODEL_CONTRACT } from '../../env/gym/modelContract.js';
import { OBSERVATION_SIZE } from '../../env/gym/observation.js';
import { type Rng, seededRng } from '../../env/rules/random.js';
import { initBackend } from '../../nn/backend.js';
import type { BackendChoice } from '../../nn/backendChoice.js';
import { evaluatePolicyValue } from '../../nn/inference.js';
import { SinglePolicyValueEvaluator } from '../../nn/singleEvaluator.js';
import type { Network, PolicyValueConfig } from '../../nn/networks.js';
import { type ModelMetadata, loadNetwork } from '../../nn/persistence.js';
import { resolveModelDir } from './modelFolder.js';
import { seatsInPlay, stallPenalty } from '../bots/tactics.js';
import type { PlayerView } from '../../env/rules/view.js';
import { TAKE_START, PASS_ACTION, YANIV_ACTION } from '../../env/gym/actionLayout.js';
import {
  ACTION_CONTEXT_SIZE,
  ACTION_FEATURES_VERSION,
  actionContextOfView,
  readsAdviser,
  writeLegalActionFeatures,
} from '../../env/gym/actionFeatures.js';

export { DEFAULT_MODEL, resolveModelDir } from './modelFolder.js';

export interface NeuralOptions {
  /** Play the most probable action (default) or sample from the policy. */
  greedy?: boolean;
  /** Name shown in tournaments (default "neural"). */
  name?: string;
  /** The adviser of a network trained with one (its choice is an action feature): the agent the model's metadata names. */
  adviser?: Agent;
  /**
   * With an adviser: the most seats in play (not yet eliminated) at which the network's own pick
   * plays. With more, the adviser's choice leads: its probability is raised just above the top one,
   * the others kept as the network gave them (so levels and advice still see the network's
   * alternatives). The registry sets it to the largest table size the model trained at.
   */
  ownUpTo?: number;
}

/** Wraps a loaded policy-value network as an Agent. */
export function neuralAgent(net: Network<PolicyValueConfig>, options: NeuralOptions = {}): Agent {
  checkGameShape(net);
  const scoring = net.config.actionFeatures;
  const advised = scoring > 0 && readsAdviser(scoring);
  const adviser = advised ? options.adviser : undefined;
  if (advised && adviser === undefined)
    throw new Error(`the network reads an adviser's choice (${scoring} action features, ${ACTION_FEATURES_VERSION}): give its adviser`);
  const greedy = options.greedy ?? true;
  // One position: plain JS (nn/singleEvaluator.ts), several times faster than tfjs for a batch of one.
  const single = new SinglePolicyValueEvaluator(net);
  let rng: Rng = seededRng(0);
  /** The one position's features, reused (entries of illegal actions are never read). */
  let singleFeatures: Float32Array | undefined;

  const ownUpTo = options.ownUpTo ?? Infinity;
  const leads = (view: PlayerView) => adviser !== undefined && seatsInPlay(view) > ownUpTo;

  const decide = (
    probabilities: Float32Array,
    offset: number,
    { mask, view }: DecisionInput,
    value: number,
    advised?: number,
  ): Decision => {
    const legal: number[] = [];
    for (let a = 0; a < ACTION_COUNT; a++) if (mask[a]) legal.push(a);
    if (legal.length === 0) throw new Error('no legal action to choose from');
    const network = legal.map((a) => probabilities[offset + a]);
    const weights = progressGuard(legal, advised !== undefined && leads(view) ? adviserLeads(legal, network, advised) : network, view);
    // Best first; equal probabilities keep the lower id first (the sort is stable).
    const order = legal.map((_, i) => i).sort((i, j) => weights[j] - weights[i]);
    const actions = order.map((i) => legal[i]);
    const scores = order.map((i) => weights[i]);
    const action = greedy ? actions[0] : sampled(actions, scores, rng);
    return { action, policy: { actions, scores, value } };
  };

  return {
    name: options.name ?? 'neural',
    reset(seed: number) {
      rng = seededRng(seed);
      adviser?.reset(seed);
    },
    act(input: DecisionInput): Decision {
      const { features, advised } =
        scoring > 0
          ? actionFeaturesOf([input], input.mask, (singleFeatures ??= new Float32Array(ACTION_COUNT * scoring)), adviser)
          : { features: undefined, advised: undefined };
      const out = single.evaluate(input.observation, input.mask, features);
      return decide(out.probabilities, 0, input, out.value, advised?.[0]);
    },
    actBatch(inputs: readonly DecisionInput[]): Decision[] {
      if (inputs.length === 0) return [];
      const observations = new Float32Array(inputs.length * OBSERVATION_SIZE);
      const masks = new Uint8Array(inputs.length * ACTION_COUNT);
      inputs.forEach((input, i) => {
        observations.set(input.observation, i * OBSERVATION_SIZE);
        masks.set(input.mask, i * ACTION_COUNT);
      });
      const { features, advised } =
        scoring > 0
          ? actionFeaturesOf(inputs, masks, new Float32Array(inputs.length * ACTION_COUNT * scoring), adviser)
          : { features: undefined, advised: undefined };
      const out = evaluatePolicyValue(net, observations, masks, features);
      return inputs.map((input, i) => decide(out.probabilities, i * ACTION_COUNT, input, out.values[i], advised?.[i]));
    },
  };
}

/** Refuses a network whose inputs or actions are not the game's. */
function checkGameShape(net: Network<PolicyValueConfig>): void {
  if (net.config.observationSize !== OBSERVATION_SIZE || net.config.actionCount !== ACTION_COUNT) {
    throw new Error(
      `network takes ${net.config.observationSize} inputs and ${net.config.actionCount} actions; the game has ${OBSERVATION_SIZE} and ${ACTION_COUNT}`,
    );
  }
}

/** An action drawn with a chance in proportion to its score (the last where rounding leaves some over). */
function sampled(actions: readonly number[], scores: readonly number[], rng: Rng): number {
  let u = uniformFloat64(rng) * scores.reduce((s, p) => s + p, 0);
  for (let i = 0; i < actions.length - 1; i++) {
    u -= scores[i];
    if (u < 0) return actions[i];
  }
  return actions[actions.length - 1];
}

/**
 * The legal actions' features of each input (masks: theirs, row after row), from its seat's view
 * (env/gym/actionFeatures.ts), in the network's dense layout; with an adviser, its choice too.
 */
function actionFeaturesOf(
  inputs: readonly DecisionInput[],
  masks: ArrayLike<number>,
  out: Float32Array,
  adviser?: Agent,
): { features: Float32Array; advised: number[] | undefined } {
  const contexts = new Int16Array(inputs.length * ACTION_CONTEXT_SIZE);
  inputs.forEach((input, i) => actionContextOfView(input.view, contexts, i * ACTION_CONTEXT_SIZE));
  const advised = adviser ? inputs.map(({ observation, mask, view }) => adviser.act({ observation, mask, view }).action) : undefined;
  writeLegalActionFeatures(contexts, inputs.length, masks, out, advised);
  return { features: out, advised };
}

/**
 * The network's probabilities over `legal` with the adviser's choice raised just above the top
 * other one (renormalised; unchanged when it is already the top): it is played greedily, and the rest keep the network's order and ratios.
 */
export function adviserLeads(legal: readonly number[], probabilities: readonly number[], advised: number): number[] {
  const at = legal.indexOf(advised);
  if (at < 0) return [...probabilities];
  const top = Math.max(...probabilities.filter((_, i) => i !== at));
  if (probabilities[at] > top) return [...probabilities];
  const raised = probabilities.map((p, i) => (i === at ? top * (1 + 1e-6) + 1e-12 : p));
  const total = raised.reduce((sum, p) => sum + p, 0);
  return raised.map((p) => p / total);
}

/**
 * The policy over the legal actions `legal` (probabilities in the same order), with progress: in
 * a round that has stalled (strong's `stallPenalty` p > 0: past 30 turns a seat), taking a card
 * from the previous group is weighted by e^−p and a Yaniv call by e^+p, then renormalised. A
 * round can only go round for ever by seats taking cards from each other, or by seats that could
 * call never calling; so two networks that keep trading end up drawing from the deck and calling.
 * Before the stall (nearly every decision) the policy is returned unchanged.
 */
export function progressGuard(legal: readonly number[], probabilities: readonly number[], view: PlayerView): number[] {
  // Capped, so that the weights stay finite however long a round goes.
  const penalty = Math.min(stallPenalty(view.turn, seatsInPlay(view)), 200);
  if (penalty <= 0) return [...probabilities];
  // A floor, so that a call the network gives (float32) probability 0 can still come through.
  const weights = legal.map((action, i) => {
    const p = Math.max(probabilities[i], 1e-30);
    if (action === YANIV_ACTION) return p * Math.exp(penalty);
    return action >= TAKE_START && action < PASS_ACTION ? p * Math.exp(-penalty) : p;
  });
  const total = weights.reduce((sum, w) => sum + w, 0);
  return weights.map((w) => w / total);
}

/** Makes sure tfjs runs on a backend: the given one, else whatever was initialised, else the best available. */
async function ensureBackend(choice?: BackendChoice): Promise<void> {
  if (choice !== undefined) await initBackend(choice);
  else if (tf.engine().backendName == null) await initBackend('auto');
}

/**
 * Loads a model folder (see resolveModelDir) as a neural agent. Refuses a model written for another
 * observation, action-space or format version, naming both versions. A model trained with an
 * adviser needs it in `options.adviser` (the registry builds the one its card names).
 */
export async function loadNeuralAgent(
  arg: string | undefined,
  options: NeuralOptions & { backend?: BackendChoice } = {},
): Promise<{ agent: Agent; network: Network<PolicyValueConfig>; metadata: ModelMetadata; dir: string }> {
  const dir = resolveModelDir(arg);
  await ensureBackend(options.backend);
  const { network, metadata } = await loadNetwork(dir, MODEL_CONTRACT);
  return { agent: neuralAgent(network, options), network, metadata, dir };
}
