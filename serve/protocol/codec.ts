/**
 * The two encodings of the same messages, picked by the WebSocket subprotocol: JSON text
 * frames and MessagePack binary frames. MessagePack is written with plain maps only (no
 * msgpackr records or other extensions), so any language's decoder reads it. Decoding is
 * defensive: a frame of the wrong kind, bytes that do not decode, nesting deeper than a
 * message needs, or keys such as `__proto__` are a `bad_message`, never a crash.
 */
import { Packr } from 'msgpackr';
import { ProtocolError } from './errors.js';
import type { Encoding } from './protocol.js';

const packr = new Packr({ useRecords: false, mapsAsObjects: true, encodeUndefinedAsNil: true, moreTypes: false });

/** Deeper than any message of the protocol (a view is 4 levels inside an advise). */
export const MAX_DEPTH = 16;
const TOO_DEEP = `nested deeper than ${MAX_DEPTH} levels: no message of the protocol needs more (lists and objects inside each other)`;
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export interface Codec {
  readonly encoding: Encoding;
  /** Text for JSON, a Buffer for MessagePack that no later encode writes over (safe to queue). */
  encode(message: object): string | Buffer;
  /** A frame's payload to a value, unchecked (see checkShape); throws ProtocolError('bad_message'). */
  read(data: Buffer, isBinary: boolean): unknown;
  /** A frame's payload to a plain value: read, then checkShape; throws ProtocolError('bad_message'). */
  decode(data: Buffer, isBinary: boolean): unknown;
}

const decode = function (this: Codec, data: Buffer, isBinary: boolean): unknown {
  const value = this.read(data, isBinary);
  checkShape(value);
  return value;
};

export const jsonCodec: Codec = {
  encoding: 'json',
  encode: (message) => JSON.stringify(message),
  decode,
  read(data, isBinary) {
    if (isBinary)
      throw new ProtocolError('bad_message', 'this connection speaks yaniv.v1.json: send text frames of JSON, not binary frames');
    let value: unknown;
    try {
      value = JSON.parse(data.toString('utf8'));
    } catch (error) {
      throw new ProtocolError('bad_message', `not valid JSON: ${(error as Error).message.slice(0, 200)}`);
    }
    return value;
  },
};

export const msgpackCodec: Codec = {
  encoding: 'msgpack',
  // msgpackr hands out a slice of its buffer and moves past it (its REUSE/RESET modes are off):
  // a later pack writes further on or into a new buffer, so the slice is safe to queue uncopied.
  encode: (message) => packr.pack(message),
  decode,
  read(data, isBinary) {
    if (!isBinary)
      throw new ProtocolError('bad_message', 'this connection speaks yaniv.v1.msgpack: send binary frames of MessagePack, not text frames');
    let value: unknown;
    try {
      value = packr.unpack(data);
    } catch (error) {
      // The decoder recurses: nesting thousands deep overflows its stack before checkShape could refuse it.
      if (error instanceof RangeError && /call stack/i.test(error.message)) throw new ProtocolError('bad_message', TOO_DEEP);
      throw new ProtocolError('bad_message', `not valid MessagePack: ${(error as Error).message.slice(0, 200)}`);
    }
    return value;
  },
};

export const CODECS: Record<Encoding, Codec> = { json: jsonCodec, msgpack: msgpackCodec };

/**
 * Rejects what no message contains: nesting deeper than MAX_DEPTH, keys that name object
 * internals, and non-plain values (MessagePack extensions such as timestamps decode to them).
 * Bounded work: it stops at the first problem and never recurses past MAX_DEPTH.
 */
export function checkShape(value: unknown): void {
  const problem = shapeProblem(value, 0);
  if (!problem) return;
  const field = problem.path.reduceRight<string>(
    (at, step) => (typeof step === 'number' ? `${at}[${step}]` : at ? `${at}.${step}` : step),
    '',
  );
  throw new ProtocolError('bad_message', problem.message, field || undefined);
}

interface ShapeProblem {
  readonly message: string;
  /** Innermost step first (filled in while the recursion unwinds, so a well-formed message builds no path). */
  readonly path: (string | number)[];
}

function shapeProblem(value: unknown, depth: number): ShapeProblem | null {
  if (value === null || typeof value !== 'object') return null;
  if (depth >= MAX_DEPTH) return { message: TOO_DEEP, path: [] };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const problem = shapeProblem(value[i], depth + 1);
      if (problem) return (problem.path.push(i), problem);
    }
    return null;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null)
    return { message: 'holds a value that is not a plain object, list, string, number, boolean or null', path: [] };
  for (const key of Object.keys(value)) {
    if (FORBIDDEN_KEYS.has(key) || key === '__proto_') return { message: `the key ${JSON.stringify(key)} is not allowed`, path: [] };
    const problem = shapeProblem((value as Record<string, unknown>)[key], depth + 1);
    if (problem) return (problem.path.push(key), problem);
  }
  return null;
}
