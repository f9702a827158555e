// A client that plays one table through the load balancer the way a frontend should: when its
// connection drops or it is told to reconnect, it opens a new one naming the table (`?table=ID`),
// resumes with the token, and goes on until game_over. It keeps every frame of every connection,
// so that a test can check that no step was told twice with different moves and that no state
// went back.
import { expect } from 'vitest';
import type { Msg } from '../../serve/protocol/protocol.js';
import type { ServerMessage } from '../../serve/index.js';
import { TestClient, chooser } from '../serve/helpers.js';

/** How long a player keeps trying to connect or resume (every 100 ms) before it fails the test. */
const RETRY_FOR_MS = 30_000;

export interface PlayerOptions {
  /** The URL of a connection naming `table` (or none, for the first). */
  url: (table?: string) => string;
  seed: number;
  rules: object;
  seats?: string[];
  /** A client's thinking time before each step, so that games last across faults. */
  thinkMs?: number;
  /** Awaited before each step: a test holds games open across its faults with it (an event, not a timing). */
  gate?: () => Promise<void>;
}

export class ClusterPlayer {
  /** Every frame, from every connection, in order. */
  readonly frames: ServerMessage[] = [];
  connections = 0;
  created!: Msg<'table_created'>;
  private client!: TestClient;

  constructor(private readonly options: PlayerOptions) {}

  /** Creates the table and plays it to the end across reconnects; resolves with game_over. */
  async play(): Promise<Msg<'game_over'>> {
    this.client = await this.open();
    const created = await this.client.request<Msg<'table_created'>>({
      type: 'create_table',
      seats: this.options.seats ?? ['client', 'novice'],
      rules: this.options.rules,
      seed: this.options.seed,
    });
    expect(created.type, JSON.stringify(created)).toBe('table_created');
    this.created = created;
    const choose = chooser(this.options.seed);
    for (let steps = 0; steps < 20_000; steps++) {
      const next = await this.nextStep();
      if (next.type === 'game_over') {
        await this.client.close();
        return next;
      }
      if (this.options.thinkMs) await new Promise((resolve) => setTimeout(resolve, this.options.thinkMs));
      await this.options.gate?.();
      const reply = await this.client
        .request({ type: 'act', table: created.table, action: choose(next.legal), counter: next.counter })
        .catch(() => null);
      // A refusal because the table moved or the state went on is not a move: the next state says what to do.
      if (reply !== null && reply.type === 'error' && !['stale_state', 'table_moved'].includes(reply.code))
        throw new Error(`act refused: ${JSON.stringify(reply)}`);
    }
    throw new Error('no game_over within 20,000 steps');
  }

  private async open(table?: string): Promise<TestClient> {
    const deadline = Date.now() + RETRY_FOR_MS;
    for (;;) {
      try {
        const client = await TestClient.greeted(this.options.url(table));
        this.connections++;
        client.ws.on('message', () => this.frames.push(client.frames[client.frames.length - 1]));
        return client;
      } catch (error) {
        // While a process is down nginx may answer 502 for a moment: try again, for a while (wall time: a loaded machine tries less often).
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  /** The next state offering this client a move, or game_over; reconnecting and resuming as needed. */
  private async nextStep(): Promise<Msg<'state'> | Msg<'game_over'>> {
    const table = this.created.table;
    for (;;) {
      const message = await this.client
        .next((m) => m.type === 'reconnect' || ('table' in m && m.table === table && (m.type === 'game_over' || m.type === 'state')), 0)
        .catch(() => null);
      if (message === null || message.type === 'reconnect') {
        await this.resume();
        continue;
      }
      this.client.frames.splice(0, this.client.frames.indexOf(message) + 1);
      if (message.type === 'game_over') return message;
      if (message.type === 'state' && message.legal.length > 0) return message;
    }
  }

  private async resume(): Promise<void> {
    this.client.ws.terminate();
    for (const deadline = Date.now() + RETRY_FOR_MS; Date.now() < deadline;) {
      this.client = await this.open(this.created.table);
      const reply = await this.client.request({ type: 'resume', table: this.created.table, token: this.created.token }).catch(() => null);
      if (reply?.type === 'resumed') return;
      // The table is between processes, or the store is briefly unreachable: the documented answers to retry on.
      if (reply !== null && !(reply.type === 'error' && ['table_moved', 'store_unavailable'].includes(reply.code)))
        throw new Error(`resume refused: ${JSON.stringify(reply)}`);
      this.client.ws.terminate();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`could not resume ${this.created.table}`);
  }

  /** Each step told (event counter → action) once only, whatever the connection; states never going back. */
  checkConsistent(over: Msg<'game_over'>): void {
    const told = new Map<number, number>();
    for (const m of this.frames) {
      if (m.type !== 'event' || m.table !== this.created.table) continue;
      const before = told.get(m.counter);
      if (before !== undefined) expect(m.action, `step ${m.counter} told twice with different moves`).toBe(before);
      told.set(m.counter, m.action);
    }
    expect(Math.max(...told.keys())).toBe(over.counter);
    let shown = -1;
    for (const m of this.frames) {
      if (m.type !== 'state' || m.table !== this.created.table) continue;
      expect(m.counter, 'a state older than one already shown').toBeGreaterThanOrEqual(shown);
      shown = m.counter;
    }
  }
}
