/**
 * A typed client of `yaniv serve` (serve/PROTOCOL.md) over one WebSocket, for browsers and Node
 * alike: it needs no module but its own folder (the protocol's types are erased when compiled),
 * so the page loads it as it is (serve/static.ts serves it under /client/) and Node programs
 * import it as `yaniv-arena/client`. It numbers requests and matches each reply by its id; every
 * request type is typed by the server's own schemas (`Request<T>` in, `ReplyTo<T>` or an `error`
 * out), so a message type the server gains is usable through `request`/`call` at once, and a
 * method of its own is one line (`createTable` below).
 */
import {
  type Answer,
  type ClientMessageType,
  type Fields,
  JSON_SUBPROTOCOL,
  type Msg,
  type Outgoing,
  type ReplyTo,
  type ServerMessage,
  VERSION,
} from './protocol.js';

/** An event handler of any WebSocket implementation (checked both ways, as methods are). */
type Handler<E> = { handle(event: E): void }['handle'] | null;

/** What the client needs of a WebSocket: the browser's, Node 22's global one and the `ws` package's all have it. */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: Handler<unknown>;
  onmessage: Handler<{ data: unknown }>;
  onclose: Handler<unknown>;
  onerror: Handler<unknown>;
}

/** A WebSocket class: `globalThis.WebSocket`, or `WebSocket` from the `ws` package on Node 20. */
export type SocketClass = new (url: string, protocols: string) => SocketLike;

const OPEN = 1;

/** The server refused a request: its error reply, with the code and the words it gave. */
export class RefusedError extends Error {
  override name = 'RefusedError';
  readonly code: Msg<'error'>['code'];
  constructor(readonly reply: Msg<'error'>) {
    super(`${reply.code}: ${reply.message}`);
    this.code = reply.code;
  }
}

export interface ClientOptions {
  /**
   * Reads a frame's text into a message. The default trusts the server (`JSON.parse`); a Node
   * program that wants each message checked passes the server's schema
   * (`(text) => serverMessageSchema.parse(JSON.parse(text))`, from `yaniv-arena/protocol`).
   */
  parse?: (text: string) => ServerMessage;
}

export interface ConnectOptions extends ClientOptions {
  /** The WebSocket class (default `globalThis.WebSocket`; on Node 20 pass the `ws` package's). */
  WebSocket?: SocketClass;
  /** The client's name for the server's logs (hello's `client`). */
  client?: string;
}

type Waiter = { resolve: (reply: ServerMessage) => void; reject: (error: Error) => void };

export class YanivClient {
  /** The server's welcome, once `hello` was answered. */
  welcome: Msg<'welcome'> | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, Waiter>();
  private readonly listeners = new Set<(message: ServerMessage) => void>();
  private readonly closeListeners = new Set<() => void>();
  private readonly parse: (text: string) => ServerMessage;
  private gone: Error | null = null;
  /** The latest state of each of this connection's seats (by table and seat), and each table's game_over. */
  private readonly states = new Map<string, Msg<'state'>>();
  private readonly ends = new Map<string, Msg<'game_over'>>();

  /** Wraps a socket opened with the JSON subprotocol (`JSON_SUBPROTOCOL`), open or opening. */
  constructor(
    readonly socket: SocketLike,
    options: ClientOptions = {},
  ) {
    this.parse = options.parse ?? ((text) => JSON.parse(text) as ServerMessage);
    socket.onmessage = (event) => this.heard(event.data);
    socket.onclose = () => this.lost(new Error('the connection to the server was lost'));
  }

  /** Opens a connection, says hello and resolves once the server welcomed it (rejects with what went wrong). */
  static async connect(url: string, options: ConnectOptions = {}): Promise<YanivClient> {
    const Socket = options.WebSocket ?? (globalThis as { WebSocket?: SocketClass }).WebSocket;
    if (Socket === undefined) throw new Error("no WebSocket class here: pass { WebSocket } (on Node 20: import WebSocket from 'ws')");
    const client = new YanivClient(new Socket(url, JSON_SUBPROTOCOL), options);
    await client.opened();
    await client.hello(options.client);
    return client;
  }

  /** Resolves when the socket is open; rejects when it closes or fails first. */
  opened(): Promise<void> {
    if (this.socket.readyState === OPEN) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const fail = () => reject(new Error('could not connect to the server'));
      this.socket.onopen = () => resolve();
      this.socket.onerror = fail;
      this.closeListeners.add(fail);
    });
  }

  /**
   * Sends a request and resolves with the reply that carries its id: the reply its type gets
   * (the server's REPLY_TYPES) or an `error`. Rejects only when the connection is gone.
   */
  request<M extends Outgoing>(message: M): Promise<Answer<M['type']>> {
    if (this.gone !== null) return Promise.reject(this.gone);
    if (this.socket.readyState !== OPEN) return Promise.reject(new Error('not connected to the server'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve: (reply) => resolve(reply as Answer<M['type']>), reject });
      this.socket.send(JSON.stringify({ ...message, id }));
    });
  }

  /** As `request`, but resolves with the success reply only: a refusal rejects with a `RefusedError`. */
  async call<M extends Outgoing>(message: M): Promise<ReplyTo<M['type']>> {
    const reply: ServerMessage = await this.request(message);
    if (reply.type === 'error') throw new RefusedError(reply);
    return reply as ReplyTo<M['type']>;
  }

  /** Says hello (once per connection; `connect` does it) and keeps the welcome. */
  async hello(client?: string): Promise<Msg<'welcome'>> {
    this.welcome = await this.call({ type: 'hello', version: VERSION, ...(client === undefined ? {} : { client }) });
    return this.welcome;
  }

  createTable = this.method('create_table');
  act = this.method('act');
  advise = this.method('advise');
  resume = this.method('resume');
  leave = this.method('leave');
  joinTable = this.method('join_table');
  startTable = this.method('start_table');
  ping = (): Promise<Msg<'pong'>> => this.call({ type: 'ping' });

  /** Calls `listener` with every message the server sends (replies included); returns how to stop. */
  onMessage(listener: (message: ServerMessage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Calls `listener` once the connection is gone (closed by either side). */
  onClose(listener: () => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  /** Resolves with the next message of `type` that `test` accepts (any, by default). */
  next<T extends ServerMessage['type']>(type: T, test: (message: Msg<T>) => boolean = () => true): Promise<Msg<T>> {
    return new Promise((resolve, reject) => {
      const stop = () => {
        off();
        offClose();
      };
      const off = this.onMessage((message) => {
        if (message.type !== type || !test(message as Msg<T>)) return;
        stop();
        resolve(message as Msg<T>);
      });
      const offClose = this.onClose(() => {
        stop();
        reject(this.gone ?? new Error('the connection to the server was lost'));
      });
    });
  }

  /** The latest state the server sent a seat of this connection at `table` (the first such seat, by default). */
  latest(table: string, seat?: number): Msg<'state'> | undefined {
    for (const state of this.states.values()) if (state.table === table && (seat === undefined || state.seat === seat)) return state;
    return undefined;
  }

  /**
   * Plays this connection's seats at `table` to the end of the game: on every state in which one of
   * them is to move (from the latest one, so a state that came before the call counts), acts with
   * the action `choose` gives; resolves with the game's end. A refused act rejects.
   */
  async playOut(table: string, choose: (state: Msg<'state'>) => number | Promise<number>): Promise<Msg<'game_over'>> {
    let acted = -1;
    for (;;) {
      const ended = this.ends.get(table);
      if (ended !== undefined) return ended;
      const state = [...this.states.values()].find((s) => s.table === table && s.legal.length > 0 && s.counter > acted);
      if (state !== undefined) {
        acted = state.counter;
        await this.act({ table, seat: state.seat, action: await choose(state), counter: state.counter });
        continue;
      }
      const news = (m: { table: string }) => m.table === table;
      await Promise.race([this.next('state', news), this.next('game_over', news)]);
    }
  }

  /** Closes the connection; what still waits for a reply rejects. */
  close(): void {
    this.lost(new Error('the client was closed'));
    this.socket.onopen = this.socket.onmessage = this.socket.onclose = this.socket.onerror = null;
    this.socket.close();
  }

  /** A method sending requests of one type: its fields in, its success reply out (a refusal rejects). */
  private method<T extends ClientMessageType>(type: T): (fields: Fields<T>) => Promise<ReplyTo<T>> {
    return (fields) => this.call({ ...fields, type } as unknown as Outgoing<T>) as Promise<ReplyTo<T>>;
  }

  private heard(data: unknown): void {
    const message = this.parse(typeof data === 'string' ? data : String(data));
    if (message.type === 'state') this.states.set(`${message.table} ${message.seat}`, message);
    else if (message.type === 'game_over') this.ends.set(message.table, message);
    const id = 'id' in message && typeof message.id === 'number' ? message.id : null;
    const waiter = id === null ? undefined : this.waiting.get(id);
    if (waiter !== undefined && id !== null) {
      this.waiting.delete(id);
      waiter.resolve(message);
    }
    for (const listener of [...this.listeners]) listener(message);
  }

  private lost(error: Error): void {
    if (this.gone !== null) return;
    this.gone = error;
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
    for (const listener of [...this.closeListeners]) listener();
    this.closeListeners.clear();
  }
}
