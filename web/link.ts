/**
 * The page's WebSocket to the server: JSON frames (subprotocol yaniv.v1.json), `hello` on every
 * connection, requests matched to their replies by id, and a connection that comes back by
 * itself. When the socket closes, or stays silent too long (a laptop woke up, a proxy dropped
 * it), the link opens a new one with growing pauses and says hello again; the page then takes
 * its table back with `resume` (serve/PROTOCOL.md, "Reconnect").
 */
import { type ClientMessageType, JSON_SUBPROTOCOL, type Msg, type ReplyTo, type Request, type ServerMessage, VERSION } from './protocol.js';

/** `locked`: the server wants a token the page does not have (it waits for `unlock`). */
export type LinkStatus = 'connecting' | 'open' | 'reconnecting' | 'locked';

/** A request as the page writes it (of one type, or any); the link gives it an id. */
export type Outgoing<T extends ClientMessageType = ClientMessageType> = T extends ClientMessageType ? Omit<Request<T>, 'id'> : never;

/** What a request of type T resolves with: its success reply, or the server's refusal. */
export type Answer<T extends ClientMessageType> = ReplyTo<T> | Msg<'error'>;

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
  private socket: WebSocket | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (reply: ServerMessage) => void; reject: (error: Error) => void }>();
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
    const socket = this.socket;
    if (socket === null || socket.readyState !== WebSocket.OPEN) return Promise.reject(new Error('not connected to the server'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve: (reply) => resolve(reply as Answer<M['type']>), reject });
      socket.send(JSON.stringify({ ...message, id }));
    });
  }

  /** Tries again at once, after the player gave the token the server wants (or a new one). */
  unlock(): void {
    this.failures = 0;
    clearTimeout(this.retry);
    this.open();
  }

  private open(): void {
    this.listener.status(this.greeted ? 'reconnecting' : 'connecting');
    const socket = new WebSocket(this.url(), JSON_SUBPROTOCOL);
    this.socket = socket;
    let opened = false;
    socket.onopen = () => {
      opened = true;
      this.lastHeard = Date.now();
      this.request({ type: 'hello', version: VERSION, client: 'yaniv-arena web page' }).then(
        (reply) => this.welcomed(reply),
        () => undefined,
      );
    };
    socket.onmessage = (event: MessageEvent<string>) => this.heard(JSON.parse(event.data) as ServerMessage);
    socket.onclose = () => {
      if (this.socket === socket) void this.lost(opened);
    };
  }

  private welcomed(reply: Answer<'hello'>): void {
    if (reply.type !== 'welcome') {
      this.listener.message(reply);
      return;
    }
    const reconnected = this.greeted;
    this.greeted = true;
    this.failures = 0;
    this.listener.status('open');
    this.listener.ready(reply, reconnected);
  }

  private heard(message: ServerMessage): void {
    this.lastHeard = Date.now();
    const id = 'id' in message && typeof message.id === 'number' ? message.id : null;
    const waiter = id === null ? undefined : this.waiting.get(id);
    if (waiter && id !== null) {
      this.waiting.delete(id);
      waiter.resolve(message);
    }
    this.listener.message(message);
  }

  private keepAlive(): void {
    if (this.socket?.readyState !== WebSocket.OPEN) return;
    if (Date.now() - this.lastHeard > SILENT_FOR_MS) {
      void this.lost();
      return;
    }
    this.request({ type: 'ping' }).catch(() => undefined);
  }

  /** The connection is gone: fail what waits on it and try again after a pause (unless the server wants a token first). */
  private async lost(opened = true): Promise<void> {
    this.abandon();
    if (this.stopped) return;
    this.listener.status(this.greeted ? 'reconnecting' : 'connecting');
    if (!opened && (await this.listener.locked?.().catch(() => false))) {
      if (!this.stopped && this.socket === null) this.listener.status('locked');
      return;
    }
    if (this.stopped || this.socket !== null) return;
    const pause = RETRY_MS[Math.min(this.failures++, RETRY_MS.length - 1)];
    clearTimeout(this.retry);
    this.retry = setTimeout(() => this.open(), pause);
  }

  private abandon(): void {
    const socket = this.socket;
    this.socket = null;
    if (socket !== null) {
      socket.onopen = socket.onmessage = socket.onclose = null;
      socket.close();
    }
    for (const waiter of this.waiting.values()) waiter.reject(new Error('the connection to the server was lost'));
    this.waiting.clear();
  }
}
