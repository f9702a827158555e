/**
 * A policy-value MLP evaluated in plain JS for one observation at a time — the latency path of
 * an agent deciding a single position. tfjs pays its dispatch for every op of a batch of one
 * (about 0.3–1 ms here); this reads the weights once and then does only the arithmetic the
 * answer needs: inputs that are 0 (most of an observation) skip their kernel rows, hidden units
 * at 0 after ReLU skip theirs, and only the legal actions' logits are computed. It gives what
 * `evaluatePolicyValue` gives to float rounding (tested against it); batches stay with tfjs.
 */
import { ACTION_GATE, type Network, type PolicyValueConfig } from './networks.js';
import { type Dense, denseForward as forward } from './denseForward.js';
import { WasmDenseStack } from './denseWasm.js';

const ACTIVATIONS: Record<PolicyValueConfig['activation'], (x: number) => number> = {
  relu: (x) => (x > 0 ? x : 0),
  tanh: Math.tanh,
  elu: (x) => (x > 0 ? x : Math.expm1(x)),
};

function denseOf(net: Network<PolicyValueConfig>, name: string): Dense {
  const [kernel, bias] = net.model.getLayer(name).getWeights();
  const [inputs, units] = kernel.shape as [number, number];
  return { kernel: kernel.dataSync() as Float32Array, bias: bias.dataSync() as Float32Array, inputs, units };
}

export interface SingleOutput {
  /** One entry per action: the masked softmax (exactly 0 for illegal actions). */
  readonly probabilities: Float32Array;
  readonly value: number;
}

export class SinglePolicyValueEvaluator {
  private readonly trunk: Dense[];
  /** The trunk in WebAssembly SIMD where it can be (the same numbers: nn/denseWasm.ts), else null. */
  private readonly trunkWasm: WasmDenseStack | null;
  /** Whether `trunkOf` runs in WebAssembly (else `trunkInJs`). */
  readonly trunkInWasm: boolean;
  private readonly policy: Dense;
  private readonly valueHead: Dense;
  /** The action-scoring head, when the network has one. */
  private readonly gateHead: Dense | null;
  private readonly gate: Float64Array;
  private readonly activation: (x: number) => number;
  private readonly hidden: Float64Array[];
  private readonly logits: Float64Array;
  /** The policy kernel as [action, unit] (`baseLogit`), made on first use. */
  private policyColumns: Float32Array | Float64Array | undefined;
  private readonly valueOut = new Float64Array(1);

  /** Reads the network's weights now: call again after they change. */
  constructor(net: Network<PolicyValueConfig>) {
    const { hiddenUnits, activation } = net.config;
    this.trunk = hiddenUnits.map((_, i) => denseOf(net, `trunk_${i + 1}`));
    this.trunkWasm = WasmDenseStack.of(this.trunk);
    this.trunkInWasm = this.trunkWasm !== null;
    this.policy = denseOf(net, 'policy_logits');
    this.valueHead = denseOf(net, 'value');
    this.gateHead = net.config.actionFeatures > 0 ? denseOf(net, ACTION_GATE) : null;
    this.gate = new Float64Array(net.config.actionFeatures);
    this.activation = ACTIVATIONS[activation];
    this.hidden = hiddenUnits.map((units) => new Float64Array(units));
    this.logits = new Float64Array(net.config.actionCount);
  }

  /**
   * The trunk alone: the top hidden layer's activations for one observation (a buffer of this
   * evaluator's, overwritten by the next call), what a head on the frozen trunk reads.
   */
  trunkOf(observation: ArrayLike<number>): Float64Array {
    if (this.trunkWasm) return this.trunkWasm.forward(observation, this.activation);
    return this.trunkInJs(observation);
  }

  /** `trunkOf` in plain JS: the reference the WebAssembly trunk is held to. */
  trunkInJs(observation: ArrayLike<number>): Float64Array {
    let input: ArrayLike<number> = observation;
    this.trunk.forEach((layer, i) => {
      const out = this.hidden[i];
      forward(layer, input, out);
      for (let j = 0; j < out.length; j++) out[j] = this.activation(out[j]);
      input = out;
    });
    return this.hidden[this.hidden.length - 1];
  }

  /** An action's policy logit from the trunk's top layer, without the action-scoring term (the policy head's own part). */
  baseLogit(h: ArrayLike<number>, action: number): number {
    const { bias, inputs } = this.policy;
    // The action's column, read from a copy made once with the columns as rows: the same numbers
    // in the same order, from a few cache lines instead of one line (and page) per trunk unit.
    const columns = (this.policyColumns ??= transposed(this.policy));
    const at = action * inputs;
    let logit = bias[action];
    for (let j = 0; j < h.length; j++) if (h[j] !== 0) logit += h[j] * columns[at + j];
    return logit;
  }

  /** With an action-scoring head, `actionFeatures` holds [actionCount, K] (read at legal actions only). */
  evaluate(observation: Float32Array, mask: ArrayLike<number>, actionFeatures?: Float32Array): SingleOutput {
    const h = this.trunkOf(observation);
    const { kernel, bias, units: actions } = this.policy;
    const probabilities = new Float32Array(actions);
    const width = this.gate.length;
    if (this.gateHead !== null) {
      if (actionFeatures === undefined || actionFeatures.length !== actions * width)
        throw new Error(`the network scores actions from ${width} features each: give ${actions} × ${width} of them`);
      forward(this.gateHead, h, this.gate);
    }
    let max = -Infinity;
    for (let a = 0; a < actions; a++) {
      if (!mask[a]) continue;
      let logit = bias[a];
      for (let j = 0; j < h.length; j++) if (h[j] !== 0) logit += h[j] * kernel[j * actions + a];
      if (actionFeatures !== undefined) for (let k = 0; k < width; k++) logit += this.gate[k] * actionFeatures[a * width + k];
      this.logits[a] = logit;
      if (logit > max) max = logit;
    }
    let sum = 0;
    for (let a = 0; a < actions; a++) if (mask[a]) sum += this.logits[a] = Math.exp(this.logits[a] - max);
    for (let a = 0; a < actions; a++) if (mask[a]) probabilities[a] = this.logits[a] / sum;
    forward(this.valueHead, h, this.valueOut);
    return { probabilities, value: this.valueOut[0] };
  }
}

/** A layer's kernel with its columns as rows: [units, inputs]. */
function transposed({ kernel, inputs, units }: Dense): Float32Array | Float64Array {
  const out = kernel.slice();
  for (let i = 0; i < inputs; i++) for (let j = 0; j < units; j++) out[j * inputs + i] = kernel[i * units + j];
  return out;
}
