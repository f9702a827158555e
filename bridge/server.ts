/**
 * The bridge's stdio loop: frames in on one file descriptor, frames out on another, read and
 * written synchronously (the client waits for each reply; nothing else runs meanwhile). The
 * first request must be a hello with matching versions, the second a make; then reset, step,
 * observe and render, until the input ends.
 */
import { readSync, writeSync, writevSync } from 'node:fs';
import { ACTION_COUNT, ACTION_SPACE_VERSION } from '../env/gym/actionLayout.js';
import { OBSERVATION_SIZE, OBSERVATION_VERSION } from '../env/gym/observation.js';
import { MAX_PLAYERS, PRESET_NAMES } from '../env/rules/rules.js';
import { AGENT_NAMES } from '../agents/registry.js';
import { formatOptionIssues } from '../support/zod.js';
import { BRIDGE_PROTOCOL, BridgeError, FRAME_HEADER, KIND, RESET_BODY, STEP_ACTIONS_AT, requestSchema } from './protocol.js';
import { type Parts, type Session, makeSession, render } from './sessions.js';

/** Frames of a blocking input descriptor; null once it ends. */
export class FrameReader {
  private buffer = Buffer.alloc(1 << 16);
  private start = 0;
  private end = 0;

  constructor(private readonly fd: number) {}

  next(): Buffer | null {
    if (!this.fill(FRAME_HEADER)) return null;
    const length = this.buffer.readUInt32LE(this.start);
    if (!this.fill(FRAME_HEADER + length)) return null;
    const body = this.buffer.subarray(this.start + FRAME_HEADER, this.start + FRAME_HEADER + length);
    this.start += FRAME_HEADER + length;
    return body;
  }

  /** Reads until `bytes` are buffered from `start`; false at the end of input. */
  private fill(bytes: number): boolean {
    if (this.end - this.start >= bytes) return true;
    if (this.start > 0) {
      this.buffer.copy(this.buffer, 0, this.start, this.end);
      this.end -= this.start;
      this.start = 0;
    }
    if (bytes > this.buffer.length) {
      const grown = Buffer.alloc(Math.max(bytes, this.buffer.length * 2));
      this.buffer.copy(grown, 0, 0, this.end);
      this.buffer = grown;
    }
    while (this.end < bytes) {
      let read: number;
      try {
        read = readSync(this.fd, this.buffer, this.end, this.buffer.length - this.end, null);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') {
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
          continue;
        }
        if ((error as NodeJS.ErrnoException).code === 'EOF') return false;
        throw error;
      }
      if (read === 0) return false;
      this.end += read;
    }
    return true;
  }
}

/** Writes one frame (its length, then the parts) to a blocking descriptor. */
export function writeFrame(fd: number, parts: Parts): void {
  let length = 0;
  for (const part of parts) length += part.byteLength;
  const header = new Uint8Array(FRAME_HEADER);
  new DataView(header.buffer).setUint32(0, length, true);
  const all = [header, ...parts];
  const written = writevSync(fd, all);
  if (written === length + FRAME_HEADER) return;
  // A partial write (a full pipe on a non-blocking descriptor): send the rest in order.
  const rest = Buffer.concat(all).subarray(written);
  for (let at = 0; at < rest.length;) {
    try {
      at += writeSync(fd, rest, at);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
    }
  }
}

const json = (value: unknown): Parts => [Uint8Array.of(KIND.json), Buffer.from(JSON.stringify(value))];

function hello(request: { protocol: string; observation: string; actions: string }): Parts {
  const ours = { protocol: BRIDGE_PROTOCOL, observation: OBSERVATION_VERSION, actions: ACTION_SPACE_VERSION };
  for (const key of ['protocol', 'observation', 'actions'] as const) {
    if (request[key] !== ours[key])
      throw new BridgeError('version', `version mismatch: the client speaks ${key} ${request[key]}, this bridge speaks ${ours[key]}`);
  }
  return json({
    type: 'hello',
    ...ours,
    observationSize: OBSERVATION_SIZE,
    actionCount: ACTION_COUNT,
    maxPlayers: MAX_PLAYERS,
    agents: AGENT_NAMES,
    presets: PRESET_NAMES,
  });
}

/** One connection's state: hello first, then one make, then the session's requests. */
export class Connection {
  private greeted = false;
  private session: Session | null = null;

  async handle(body: Buffer): Promise<Parts> {
    if (body.length === 0) throw new BridgeError('protocol', 'an empty frame');
    const kind = body[0];
    if (kind === KIND.json) return this.handleJson(body.subarray(1));
    const session = this.session;
    if (!session) throw new BridgeError('state', 'make a session first (hello, then make)');
    if (kind === KIND.reset) {
      if (body.length !== RESET_BODY) throw new BridgeError('protocol', `a reset frame has ${RESET_BODY} bytes, got ${body.length}`);
      return session.reset(body[1] ? body.readInt32LE(4) : null);
    }
    if (kind === KIND.step) {
      const count = (body.length - STEP_ACTIONS_AT) / 4;
      if (!Number.isInteger(count) || count < 1)
        throw new BridgeError('protocol', `a step frame holds whole i32 actions, got ${body.length} bytes`);
      // The body's offset within the read buffer need not be 4-aligned: copy the actions' bytes out
      // (the protocol's little-endian is the host's: every array goes out as the env's own bytes).
      const actions = new Int32Array(count);
      new Uint8Array(actions.buffer).set(body.subarray(STEP_ACTIONS_AT));
      return session.step(actions);
    }
    if (kind === KIND.observe) {
      const seat = body[1];
      if (body.length !== 2 || seat >= (session.description.players as number))
        throw new BridgeError('options', `observe: no seat ${seat} at this table of ${session.description.players as number}`);
      return session.observe(seat);
    }
    throw new BridgeError('protocol', `unknown frame kind ${kind}`);
  }

  private async handleJson(text: Buffer): Promise<Parts> {
    let raw: unknown;
    try {
      raw = JSON.parse(text.toString('utf8'));
    } catch {
      throw new BridgeError('protocol', 'a JSON frame that does not parse');
    }
    const parsed = requestSchema.safeParse(raw, { reportInput: true });
    if (!parsed.success) throw new BridgeError('protocol', formatOptionIssues(parsed.error, 'request field', []));
    const request = parsed.data;
    if (request.type === 'hello') {
      const reply = hello(request);
      this.greeted = true;
      return reply;
    }
    if (!this.greeted) throw new BridgeError('state', 'say hello first');
    if (request.type === 'make') {
      if (this.session) throw new BridgeError('state', 'this bridge already serves a session (one per process)');
      this.session = await makeSession(request);
      return json({ type: 'made', ...this.session.description });
    }
    if (!this.session) throw new BridgeError('state', 'make a session first');
    return json({ type: 'render', text: render(this.session, request.seat) });
  }
}

/** Serves one client until its input ends. Errors become error replies; the loop goes on. */
export async function serve(input: number, output: number): Promise<void> {
  const reader = new FrameReader(input);
  const connection = new Connection();
  for (let body = reader.next(); body !== null; body = reader.next()) {
    let reply: Parts;
    try {
      reply = await connection.handle(body);
    } catch (error) {
      const kind = error instanceof BridgeError ? error.kind : 'internal';
      const message = error instanceof Error ? error.message : String(error);
      if (kind === 'internal') process.stderr.write(`yaniv bridge: ${(error as Error).stack ?? message}\n`);
      reply = json({ type: 'error', kind, message });
    }
    writeFrame(output, reply);
  }
}
