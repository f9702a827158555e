// The tfjs 4.22 wasm backend sends a matmul to XNNPACK only when neither operand is transposed and
// both have batch size 1; anything else runs a scalar triple loop 10-30x slower. Every dense layer's
// backward pass is such a product (dX = dY·Wᵀ, dW = Xᵀ·dY), so this re-registers BatchMatMul and
// _FusedMatMul for 'wasm' to materialise transposes and split batches first, then call the stock
// kernel on plain operands.
import * as tf from '@tensorflow/tfjs';
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';

type Info = tf.TensorInfo;
type Attrs = { transposeA: boolean; transposeB: boolean } & Record<string, unknown>;
type KernelArgs = { inputs: Record<string, Info | null | undefined>; backend: BackendWasm; attrs: Attrs };
type RawKernel = (args: KernelArgs) => Info;

const KERNEL_NAMES = ['BatchMatMul', '_FusedMatMul'] as const;
type MatMulKernel = (typeof KERNEL_NAMES)[number];

let stockConfigs: Map<MatMulKernel, tf.KernelConfig> | null = null;

function kernelFunc(name: string): RawKernel {
  const config = tf.getKernel(name, 'wasm');
  if (config === undefined) throw new Error(`wasm kernel ${name} is not registered (is @tensorflow/tfjs-backend-wasm imported?)`);
  return config.kernelFunc as unknown as RawKernel;
}

function sizeOf(shape: number[]): number {
  return shape.reduce((a, b) => a * b, 1);
}

/** Helpers that run wasm kernels directly and track what they allocate, for disposal at the end. */
class Scratch {
  private readonly owned: Info[] = [];
  constructor(private readonly backend: BackendWasm) {}

  keep(info: Info): Info {
    this.owned.push(info);
    return info;
  }
  reshape(x: Info, shape: number[]): Info {
    return this.keep(kernelFunc('Reshape')({ inputs: { x }, backend: this.backend, attrs: { shape } as unknown as Attrs }));
  }
  transposeLast2(x: Info): Info {
    const perm = x.shape.map((_, i) => i);
    const r = perm.length;
    [perm[r - 2], perm[r - 1]] = [perm[r - 1], perm[r - 2]];
    return this.keep(kernelFunc('Transpose')({ inputs: { x }, backend: this.backend, attrs: { perm } as unknown as Attrs }));
  }
  slice(x: Info, begin: number[], size: number[]): Info {
    return this.keep(kernelFunc('Slice')({ inputs: { x }, backend: this.backend, attrs: { begin, size } as unknown as Attrs }));
  }
  concat(xs: Info[], axis: number): Info {
    // The wasm Concat kernel takes its inputs as an array.
    return kernelFunc('Concat')({
      inputs: xs as unknown as KernelArgs['inputs'],
      backend: this.backend,
      attrs: { axis } as unknown as Attrs,
    });
  }
  dispose(): void {
    for (const info of this.owned) this.backend.disposeData(info.dataId);
  }
}

/** Splits [batch..., rows, cols] into a batch size and the 3-D shape the stock kernel works on. */
function as3d(shape: number[]): { batch: number; shape3d: number[] } {
  const batch = sizeOf(shape.slice(0, -2));
  return { batch, shape3d: [batch, shape[shape.length - 2], shape[shape.length - 1]] };
}

function fastKernel(name: MatMulKernel, stock: RawKernel): RawKernel {
  return (args) => {
    const { inputs, backend, attrs } = args;
    const a = inputs.a as Info;
    const b = inputs.b as Info;
    const fused = name === '_FusedMatMul';
    const hasPrelu = inputs.preluActivationWeights != null;
    const { batch: batchA } = as3d(a.shape);
    const { batch: batchB } = as3d(b.shape);
    const plainBatching = batchA === batchB || batchA === 1 || batchB === 1;
    const alreadyFast = !attrs.transposeA && !attrs.transposeB && batchA === 1 && batchB === 1;
    if (alreadyFast || a.dtype !== 'float32' || b.dtype !== 'float32' || !plainBatching) return stock(args);

    const scratch = new Scratch(backend);
    try {
      let a3 = scratch.reshape(a, as3d(a.shape).shape3d);
      let b3 = scratch.reshape(b, as3d(b.shape).shape3d);
      if (attrs.transposeA) a3 = scratch.transposeLast2(a3);
      if (attrs.transposeB) b3 = scratch.transposeLast2(b3);
      const [, m, k] = a3.shape;
      const n = b3.shape[2];
      const outBatchShape = tf.broadcast_util.assertAndGetBroadcastShape(a.shape.slice(0, -2), b.shape.slice(0, -2));
      const outShape = [...outBatchShape, m, n];
      const plainAttrs: Attrs = { ...attrs, transposeA: false, transposeB: false };
      const run = (x: Info, y: Info): Info => stock({ inputs: { ...inputs, a: x, b: y }, backend, attrs: plainAttrs });
      // The wasm kernel accepts only a rank-1 bias, which broadcasts over rows whatever the batching;
      // PReLU weights index the output's own layout, so then only the transposes are materialised.
      const canReshapeBatches = !fused || !hasPrelu;

      let out: Info;
      if (batchA === 1 && batchB === 1) {
        out = run(a3, b3);
      } else if (!canReshapeBatches) {
        out = run(a3, b3);
      } else if (batchB === 1) {
        // One right operand for all: stack the left batches as rows of one plain matmul.
        out = run(scratch.reshape(a3, [1, batchA * m, k]), b3);
      } else {
        const batch = Math.max(batchA, batchB);
        const parts: Info[] = [];
        for (let i = 0; i < batch; i++) {
          const ai = batchA === 1 ? a3 : scratch.slice(a3, [i, 0, 0], [1, m, k]);
          const bi = scratch.slice(b3, [i, 0, 0], [1, k, n]);
          parts.push(scratch.keep(run(ai, bi)));
        }
        out = scratch.concat(parts, 0);
      }
      // Every kernel output here is a fresh TensorInfo object, so reshaping it in place (as the stock kernel does) is safe.
      out.shape = outShape;
      return out;
    } finally {
      scratch.dispose();
    }
  };
}

/** Replaces the wasm BatchMatMul and _FusedMatMul kernels with the fast path. Idempotent. */
export function installWasmFastMatMul(): void {
  if (stockConfigs !== null) return;
  const saved = new Map<MatMulKernel, tf.KernelConfig>();
  for (const name of KERNEL_NAMES) {
    const config = tf.getKernel(name, 'wasm');
    if (config === undefined) throw new Error(`wasm kernel ${name} is not registered (is @tensorflow/tfjs-backend-wasm imported?)`);
    saved.set(name, config);
  }
  for (const name of KERNEL_NAMES) {
    const stock = saved.get(name) as tf.KernelConfig;
    tf.unregisterKernel(name, 'wasm');
    // The stock setupFunc stays: if the backend initialises after this, it still binds the wasm function we call into.
    tf.registerKernel({
      kernelName: name,
      backendName: 'wasm',
      setupFunc: stock.setupFunc,
      kernelFunc: fastKernel(name, stock.kernelFunc as unknown as RawKernel) as unknown as tf.KernelFunc,
    });
  }
  stockConfigs = saved;
}

/** Restores the stock wasm kernels. Idempotent. */
export function uninstallWasmFastMatMul(): void {
  if (stockConfigs === null) return;
  for (const [name, config] of stockConfigs) {
    tf.unregisterKernel(name, 'wasm');
    tf.registerKernel(config);
  }
  stockConfigs = null;
}

export function isWasmFastMatMulInstalled(): boolean {
  return stockConfigs !== null;
}
