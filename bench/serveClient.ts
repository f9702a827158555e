// The load generator of the serve benches (bench/serve.ts, bench/advice.ts): `yaniv serve` started
// on a free port, WebSocket clients with request/reply by id in either encoding, and the closed loop
// of advice requests whose latencies the benches report.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Packr } from 'msgpackr';
import WebSocket from 'ws';
import type { ViewJson } from '../serve/protocol/viewJson.js';

const MAIN = fileURLToPath(new URL('../cli/main.js', import.meta.url));
export type Message = { type: string; id?: number; [key: string]: unknown };

/** Starts `yaniv serve` on a free port; resolves with its URL. */
export function startServer(agents: string, main = MAIN, extra: string[] = []): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [main, 'serve', '--port', '0', '--log-level', 'error', '--agents', agents, ...extra], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const url = /ws:\/\/[^ ]+\//.exec(out)?.[0];
      if (url) resolve({ child, url });
    });
    child.once('exit', (code) => reject(new Error(`yaniv serve exited with ${code}`)));
  });
}

/** A connection with request/reply by id and a handler for other messages. */
const packr = new Packr({ useRecords: false, mapsAsObjects: true });
export type Encoding = 'json' | 'msgpack';

export async function connect(url: string, onOther: (m: Message) => void = () => undefined, encoding: Encoding = 'json') {
  const ws = new WebSocket(url, `yaniv.v1.${encoding}`, { perMessageDeflate: false });
  const waiting = new Map<number, (m: Message) => void>();
  let next = 1;
  ws.on('message', (data) => {
    const m = (encoding === 'json' ? JSON.parse((data as Buffer).toString()) : packr.unpack(data as Buffer)) as Message;
    const resolve = m.id !== undefined ? waiting.get(m.id) : undefined;
    if (resolve) {
      waiting.delete(m.id as number);
      resolve(m);
    } else onOther(m);
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  /** Sends a message `frame` writes for its id (`request`, or `withId` of a message encoded once). */
  const send = (frame: (id: number) => string | Buffer) =>
    new Promise<Message>((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      ws.send(frame(id));
    });
  const request = (m: Record<string, unknown>) =>
    send((id) => (encoding === 'json' ? JSON.stringify({ ...m, id }) : packr.pack({ ...m, id })));
  await request({ type: 'hello', version: 1, client: 'bench' });
  return { ws, request, send, encoding };
}

/**
 * A message encoded once, its id added per request: the load generator shares the machine with
 * the server, and encoding each view again (half its time per request) took CPU from the server.
 * JSON: the id is the last key. MessagePack: the map's count (fixmap, map16 or map32 header) grows
 * by one, the id's key and value appended.
 */
function withId(m: Record<string, unknown>, encoding: Encoding): (id: number) => string | Buffer {
  if (encoding === 'json') {
    const head = JSON.stringify(m).slice(0, -1);
    return (id) => `${head},"id":${id}}`;
  }
  const head = Buffer.from(packr.pack(m));
  if (head[0] >= 0x80 && head[0] < 0x8f) head[0]++;
  else if (head[0] === 0xde) head.writeUInt16BE(head.readUInt16BE(1) + 1, 1);
  else if (head[0] === 0xdf) head.writeUInt32BE(head.readUInt32BE(1) + 1, 1);
  else throw new RangeError(`withId appends to a MessagePack map of under 15 keys or a map16/map32 (header 0x${head[0].toString(16)})`);
  const key = packr.pack('id');
  return (id) => Buffer.concat([head, key, packr.pack(id)]);
}

export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;

export type Connection = Awaited<ReturnType<typeof connect>>;

/** What a closed loop of advice requests measured: the sorted latencies (ms), the seconds measured, the replies that were no advice, the mean `worlds` of the advice that says it (NaN: none did). */
export interface AdviceLatencies {
  latencies: number[];
  seconds: number;
  errors: number;
  worlds: number;
}

/**
 * Every connection asks for advice one request at a time (view k of `views`, the connections taking
 * turns), `warmupMs` unmeasured, then `seconds` measured; the connections are closed at the end.
 * `seeded`: each request carries `seed: k` (the same answers in every run); `extra`: fields every request carries (`outlook`).
 */
export async function adviceClosedLoop(
  connections: Connection[],
  options: {
    agent: string;
    views: readonly ViewJson[];
    warmupMs: number;
    seconds: number;
    seeded?: boolean;
    extra?: Record<string, unknown>;
  },
): Promise<AdviceLatencies> {
  const { agent, views } = options;
  const latencies: number[] = [];
  let errors = 0;
  let worlds = 0;
  let worldsCounted = 0;
  const message = (view: ViewJson, k: number) => ({
    type: 'advise',
    agent,
    view,
    ...(options.seeded ? { seed: k } : {}),
    ...options.extra,
  });
  const frames = new Map<Encoding, ((id: number) => string | Buffer)[]>();
  const frameOf = (c: Connection, k: number) => {
    let list = frames.get(c.encoding);
    if (!list) frames.set(c.encoding, (list = views.map((view, j) => withId(message(view, j), c.encoding))));
    return list[k % views.length];
  };
  const run = async (c: Connection, i: number, until: number, record: boolean) => {
    for (let k = i; performance.now() < until; k += connections.length) {
      const started = performance.now();
      const reply = options.seeded ? await c.request(message(views[k % views.length], k)) : await c.send(frameOf(c, k));
      if (!record) continue;
      if (reply.type !== 'advice') errors++;
      if (typeof reply.worlds === 'number') {
        worlds += reply.worlds;
        worldsCounted++;
      }
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(connections.map((c, i) => run(c, i, performance.now() + options.warmupMs, false)));
  const started = performance.now();
  await Promise.all(connections.map((c, i) => run(c, i, started + options.seconds * 1000, true)));
  const seconds = (performance.now() - started) / 1000;
  // Closed before the next row connects: a server still counting them refuses its connections past the per-address limit (503).
  await Promise.all(
    connections.map(
      (c) =>
        new Promise<void>((closed) => {
          c.ws.once('close', () => closed());
          c.ws.close();
        }),
    ),
  );
  latencies.sort((a, b) => a - b);
  return { latencies, seconds, errors, worlds: worldsCounted > 0 ? worlds / worldsCounted : NaN };
}
