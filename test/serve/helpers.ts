// A real server on an ephemeral loopback port and real `ws` clients for the serve tests. Every
// frame a client receives is decoded (MessagePack by msgpackr's plain unpack and, as a check,
// by the independent @msgpack/msgpack decoder) and validated against the protocol's schema.
import { decode as decodeIndependently } from '@msgpack/msgpack';
import { unpack } from 'msgpackr';
import pino from 'pino';
import WebSocket from 'ws';
import { expect } from 'vitest';
import {
  type Encoding,
  type RunningServer,
  SUBPROTOCOLS,
  type ServerMessage,
  type ServerOptionsInput,
  type StartOptions,
  serverMessageSchema,
  startServer,
} from '../../serve/index.js';
import { CODECS } from '../../serve/protocol/codec.js';
import { type PlayedAgent, playedAgent } from '../../serve/inference/decide.js';
import { resolveAgent } from '../../agents/resolve.js';
import type { Health } from '../../serve/net/http.js';

export const LONG = process.env.YANIV_PROPERTY_RUNS === 'long';

/** A server on 127.0.0.1 with an ephemeral port; `logs`, when given, collects its log lines (parsed). */
export function startTestServer(
  options: ServerOptionsInput = {},
  logs?: Record<string, unknown>[],
  start: Omit<StartOptions, 'logger'> = {},
): Promise<RunningServer> {
  const logger = logs
    ? pino({ level: 'debug' }, { write: (line: string) => logs.push(JSON.parse(line) as Record<string, unknown>) })
    : pino({ level: 'silent' });
  return startServer({ host: '127.0.0.1', port: 0, workers: 1, heartbeatMs: 60_000, ...options }, { logger, ...start });
}

/** The server's `GET /health`: its status code and body. */
export async function health(server: RunningServer): Promise<{ code: number; body: Health }> {
  const res = await fetch(`${server.pageUrl}health`);
  return { code: res.status, body: (await res.json()) as Health };
}

/**
 * Waits until `condition` holds, checking every few milliseconds; after `timeoutMs` of wall time
 * (not a number of tries: a loaded machine checks less often) it fails naming what it waited for.
 * The default leaves the error room to show before the test's own 60 s timeout.
 */
export async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

type Waiter = { test: (m: ServerMessage) => boolean; resolve: (m: ServerMessage) => void; reject: (e: Error) => void };

export class TestClient {
  readonly frames: ServerMessage[] = [];
  readonly ws: WebSocket;
  closeCode: number | null = null;
  private waiters: Waiter[] = [];
  private nextId = 1;
  readonly opened: Promise<void>;
  readonly closedPromise: Promise<number>;

  constructor(
    url: string,
    readonly encoding: Encoding = 'json',
    options: WebSocket.ClientOptions = {},
    protocols: string[] = [SUBPROTOCOLS[encoding]],
  ) {
    this.ws = new WebSocket(url, protocols, options);
    this.ws.on('error', () => undefined);
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
      this.ws.once('error', reject);
    });
    this.closedPromise = new Promise((resolve) =>
      this.ws.once('close', (code) => {
        this.closeCode = code;
        for (const w of this.waiters) w.reject(new Error(`closed (${code}) while waiting`));
        this.waiters = [];
        resolve(code);
      }),
    );
    this.ws.on('message', (data: Buffer, isBinary) => this.receive(data, isBinary));
  }

  static async connect(url: string, encoding: Encoding = 'json'): Promise<TestClient> {
    const client = new TestClient(url, encoding);
    await client.opened;
    return client;
  }

  /** Connects and says hello. */
  static async greeted(url: string, encoding: Encoding = 'json'): Promise<TestClient> {
    const client = await TestClient.connect(url, encoding);
    const welcome = await client.request({ type: 'hello', version: 1 });
    expect(welcome.type).toBe('welcome');
    return client;
  }

  private receive(data: Buffer, isBinary: boolean): void {
    let message: ServerMessage;
    if (this.encoding === 'msgpack') {
      expect(isBinary).toBe(true);
      message = unpack(data) as ServerMessage;
      expect(decodeIndependently(data)).toEqual(message);
    } else {
      expect(isBinary).toBe(false);
      message = JSON.parse(data.toString()) as ServerMessage;
    }
    const checked = serverMessageSchema.safeParse(message);
    if (!checked.success)
      throw new Error(
        `a server frame does not match the protocol schema: ${JSON.stringify(checked.error.issues[0])} in ${JSON.stringify(message).slice(0, 300)}`,
      );
    this.frames.push(message);
    const waiter = this.waiters.find((w) => w.test(message));
    if (waiter) {
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve(message);
    }
  }

  /** Sends a message object in this connection's encoding. */
  send(message: object): void {
    this.ws.send(CODECS[this.encoding].encode(message));
  }

  /** Sends raw bytes or text as they are. */
  sendRaw(data: string | Buffer, binary: boolean): void {
    this.ws.send(data, { binary });
  }

  /** The next frame (from now on, or already received after `since`) that passes `test`. */
  next(test: (m: ServerMessage) => boolean, since = this.frames.length): Promise<ServerMessage> {
    const found = this.frames.slice(since).find(test);
    if (found) return Promise.resolve(found);
    if (this.closeCode !== null) return Promise.reject(new Error(`closed (${this.closeCode})`));
    return new Promise((resolve, reject) => this.waiters.push({ test, resolve, reject }));
  }

  /** Sends a request with a fresh id and resolves with the reply carrying that id. */
  request<T extends ServerMessage = ServerMessage>(message: Record<string, unknown>): Promise<T> {
    const id = message.id ?? `r${this.nextId++}`;
    const since = this.frames.length;
    this.send({ ...message, id });
    return this.next((m) => 'id' in m && m.id === id, since) as Promise<T>;
  }

  close(): Promise<number> {
    this.ws.close();
    return this.closedPromise;
  }
}

/** A seeded choice among legal actions (xorshift), so that games are reproducible and not degenerate. */
export function chooser(seed: number): (legal: readonly { action: number; kind: string }[]) => number {
  let x = seed * 2654435761 + 1 || 1;
  return (legal) => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    const yaniv = legal.find((l) => l.kind === 'yaniv');
    if (yaniv) return yaniv.action;
    return legal[Math.abs(x) % legal.length].action;
  };
}

/**
 * Plays the client seats of a table until game_over, acting on every state that offers legal
 * actions; returns the game_over message. Bounded: at most `maxSteps` actions.
 */
export async function playToEnd(
  client: TestClient,
  table: string,
  choose = chooser(1),
  maxSteps = 5000,
): Promise<Extract<ServerMessage, { type: 'game_over' }>> {
  let seen = 0;
  for (let steps = 0; steps < maxSteps; steps++) {
    const message = await client.next(
      (m) => 'table' in m && m.table === table && (m.type === 'game_over' || (m.type === 'state' && m.legal.length > 0)),
      seen,
    );
    seen = client.frames.indexOf(message) + 1;
    if (message.type === 'game_over') return message;
    if (message.type !== 'state') continue;
    if (message.counter !== latestCounter(client, table)) continue;
    const reply = await client.request({ type: 'act', table, seat: message.seat, action: choose(message.legal), counter: message.counter });
    if (reply.type !== 'acted') throw new Error(`act refused: ${JSON.stringify(reply)}`);
  }
  throw new Error(`no game_over within ${maxSteps} steps`);
}

function latestCounter(client: TestClient, table: string): number {
  for (let i = client.frames.length - 1; i >= 0; i--) {
    const m = client.frames[i];
    if ('table' in m && m.table === table && 'counter' in m && typeof m.counter === 'number' && m.type !== 'acted') return m.counter;
  }
  return -1;
}

/** An agent as the pool and the workers get it: the spec resolved at a table of this size (default rules). */
export function played(spec: string, players = 2): PlayedAgent {
  return playedAgent(resolveAgent(spec, { players }));
}

/**
 * A heads-up yaniv-view/1 the advice tests start from: seat 0's turn holding A♠ 2♠ 3♥ over a
 * K♦ single, totals 0, with these fields changed.
 */
export function turnView(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    format: 'yaniv-view/1',
    players: 2,
    seat: 0,
    current: 0,
    phase: 'turn',
    hand: ['AS', '2S', '3H'],
    handSizes: [3, 5],
    known: [[], []],
    previous: { type: 'single', cards: ['KD'], pickable: ['KD'] },
    pile: [],
    deckSize: 45,
    totals: [0, 0],
    ...over,
  };
}
