// A bridge process (dist/bridge/main.js) and a reader of its reply frames, in order: for the
// bridge's own tests and the environment contract run on it.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { ACTION_SPACE_VERSION } from '../../env/gym/actionLayout.js';
import { OBSERVATION_VERSION } from '../../env/gym/observation.js';
import { BRIDGE_PROTOCOL, KIND } from '../../bridge/protocol.js';

const MAIN = fileURLToPath(new URL('../../dist/bridge/main.js', import.meta.url));
export const HELLO = { type: 'hello', protocol: BRIDGE_PROTOCOL, observation: OBSERVATION_VERSION, actions: ACTION_SPACE_VERSION };

/** A bridge process and a reader of its reply frames, in order. */
export class Client {
  private readonly child: ChildProcessWithoutNullStreams = spawn(process.execPath, [MAIN]);
  private pending = Buffer.alloc(0);
  private waiting: (() => void) | null = null;

  constructor() {
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.pending = Buffer.concat([this.pending, chunk]);
      this.waiting?.();
    });
  }

  send(body: Uint8Array): void {
    const header = Buffer.alloc(4);
    header.writeUInt32LE(body.length);
    this.child.stdin.write(Buffer.concat([header, body]));
  }

  json(message: unknown): void {
    this.send(Buffer.concat([Buffer.of(KIND.json), Buffer.from(JSON.stringify(message))]));
  }

  async reply(): Promise<Buffer> {
    while (this.pending.length < 4 || this.pending.length < 4 + this.pending.readUInt32LE(0))
      await new Promise<void>((resolve) => (this.waiting = resolve));
    const length = this.pending.readUInt32LE(0);
    const body = this.pending.subarray(4, 4 + length);
    this.pending = this.pending.subarray(4 + length);
    return body;
  }

  async replyJson(): Promise<Record<string, unknown>> {
    const body = await this.reply();
    expect(body[0]).toBe(KIND.json);
    return JSON.parse(body.subarray(1).toString()) as Record<string, unknown>;
  }

  close(): Promise<number | null> {
    return new Promise((resolve) => {
      this.child.once('exit', (code) => resolve(code));
      this.child.stdin.end();
    });
  }
}
