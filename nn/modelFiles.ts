// The file names of a model folder, without tfjs: code that only looks at model folders (finding
// one, reading its metadata) imports these rather than nn/persistence.ts, which loads tfjs.
export const MODEL_JSON = 'model.json';
export const WEIGHTS_BIN = 'weights.bin';
export const METADATA_JSON = 'metadata.json';
