/**
 * The page's WebSocket to the server: JSON frames (subprotocol yaniv.v1.json), `hello` on every
 * connection, requests matched to their replies by id (by the package's own client,
 * client/client.ts, one per connection), and a connection that comes back by itself. When the
 * socket closes, or stays silent too long (a laptop woke up, a proxy dropped it), the link opens
 * a new one with growing pauses and says hello again; the page then takes its table back with
 * `resume` (serve/PROTOCOL.md, "Reconnect").
 */
import { RefusedError, YanivClient } from '../client/client.js';
import { type Answer, JSON_SUBPROTOCOL, type Msg, type Outgoing, type ServerMessage } from '../client/protocol.js';

export type { Answer, Outgoing } from '../client/protocol.js';

/** `locked`: the server wants a token the page does not have (it waits for `unlock`). */
export type LinkStatus = 'connecting' | 'open' | 'reconnecting' | 'locked';

export interface LinkListener {
  /** Every message the server sends, replies included. */
  message(message: ServerMessage): void;
  /** Said hello and got welcome: the first time, and after each reconnect. */
  ready(welcome: Msg<'welcome'>, reconnected: boolean): void;
  status(status: LinkStatus): void;
  /**
   * A connection closed before it opened: whether that is the server asking for a token (a
   * browser cannot read the upgrade's 401). When it says yes, the link waits for `unlock`.
   */
  locked?(): Promise<boolean>;
}

/** A ping this often keeps the connection known to be alive; this much silence means it is not. */
const PING_EVERY_MS = 10_000;
const SILENT_FOR_MS = 25_000;
const RETRY_MS = [250, 500, 1000, 2000, 4000];

export class ServerLink {
  private client: YanivClient | null = null;
  private failures = 0;
  private greeted = false;
  private lastHeard = 0;
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;

  constructor(
    /** Asked at each (re)connect: behind the load balancer it names the table to take back (serve/PROTOCOL.md). */
    private readonly url: () => string,
    private readonly listener: LinkListener,
  ) {}

  start(): void {
    this.open();
    this.heartbeat = setInterval(() => this.keepAlive(), PING_EVERY_MS);
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.heartbeat);
    clearTimeout(this.retry);
    this.abandon();
  }

  /**
   * Sends a request and resolves with the reply that carries its id: the reply its type gets
   * (the server's REPLY_TYPES, which its tests hold every request to) or an `error`.
   */
  request<M extends Outgoing>(message: M): Promise<Answer<M['type']>> {
    const client = this.client;
    if (client === null) return Promise.reject(new Error('not connected to the server'));
    return client.request(message);
  }

  /** Tries again at once, after the player gave the token the server wants (or a new one). */
  unlock(): void {
    this.failures = 0;
    clearTimeout(this.retry);
    this.open();
  }

  private open(): void {
    this.listener.status(this.greeted ? 'reconnecting' : 'connecting');
    const client = new YanivClient(new WebSocket(this.url(), JSON_SUBPROTOCOL));
    this.client = client;
    let opened = false;
    client.onMessage((message) => this.heard(message));
    client.onClose(() => {
      if (this.client === client) void this.lost(opened);
    });
    client.opened().then(
      () => {
        opened = true;
        this.lastHeard = Date.now();
        client.hello('yaniv-arena web page').then(
          (welcome) => this.welcomed(welcome),
          (error: Error) => this.refused(error),
        );
      },
      () => undefined,
    );
  }

  private welcomed(welcome: Msg<'welcome'>): void {
    const reconnected = this.greeted;
    this.greeted = true;
    this.failures = 0;
    this.listener.status('open');
    this.listener.ready(welcome, reconnected);
  }

  /** A hello the server refused (an unsupported version): the page shows its error like any other message. */
  private refused(error: Error): void {
    if (error instanceof RefusedError) this.listener.message(error.reply);
  }

  private heard(message: ServerMessage): void {
    this.lastHeard = Date.now();
    this.listener.message(message);
  }

  private keepAlive(): void {
    const client = this.client;
    if (client?.socket.readyState !== WebSocket.OPEN) return;
    if (Date.now() - this.lastHeard > SILENT_FOR_MS) {
      void this.lost();
      return;
    }
    client.ping().catch(() => undefined);
  }

  /** The connection is gone: fail what waits on it and try again after a pause (unless the server wants a token first). */
  private async lost(opened = true): Promise<void> {
    this.abandon();
    if (this.stopped) return;
    this.listener.status(this.greeted ? 'reconnecting' : 'connecting');
    if (!opened && (await this.listener.locked?.().catch(() => false))) {
      if (!this.stopped && this.client === null) this.listener.status('locked');
      return;
    }
    if (this.stopped || this.client !== null) return;
    const pause = RETRY_MS[Math.min(this.failures++, RETRY_MS.length - 1)];
    clearTimeout(this.retry);
    this.retry = setTimeout(() => this.open(), pause);
  }

  /** Closes the current connection, if any: what waits on it rejects. */
  private abandon(): void {
    const client = this.client;
    this.client = null;
    client?.close();
  }
}
