/**
 * One client connection: frames in (rate-limited, decoded, validated at one edge), requests
 * dispatched, replies and table messages out (with backpressure). Every failure becomes an
 * error message with a stable code; nothing a client sends can throw past `receive`.
 */
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import type { TableKind } from '../../agents/resolve.js';
import { DEFAULT_PRESET } from '../../env/index.js';
import { type Codec, checkShape } from '../protocol/codec.js';
import { type DecideRequest, type DecideResult, type PositionSource, playedAgent } from '../inference/decide.js';
import { ProtocolError } from '../protocol/errors.js';
import type { InferencePool } from '../inference/pool.js';
import { type ModelVersions, playedModelOf } from '../inference/models.js';
import type { SlowLog } from '../inference/slowLog.js';
import type { RuleSetBudget } from '../ruleSetBudget.js';
import {
  type ClientMessageAtEdge,
  type ClientMessageType,
  type Msg,
  PROTOCOL_VERSION,
  type RequestId,
  type ServerMessage,
} from '../protocol/protocol.js';
import { parseClientMessageAtEdge, requestIdOf } from '../protocol/protocolEdge.js';
import { type ServerTable, type TableOwner, tableKindOf } from '../tables/table.js';
import type { TableRegistry } from '../tables/tables.js';
import { followedBy, seatFollowers, tellFollowers } from '../tables/tableFollow.js';
import { sentPosition } from './adviceSource.js';
import { newTable, settledRules } from '../tables/tablePolicy.js';
import { TokenBucket } from './addressShares.js';
import { type ServerOptions, messagesPerAddress } from '../options.js';

/** What every connection shares. */
export interface ServerContext {
  readonly options: ServerOptions;
  readonly tables: TableRegistry;
  readonly pool: InferencePool;
  /** Published model versions (new tables and advice get the latest). */
  readonly models: ModelVersions;
  readonly log: Logger;
  /** The rate-limited "slow advice" warning. */
  readonly slow: SlowLog;
  /** New house-rule sets each address may have advice measured on. */
  readonly ruleSets: RuleSetBudget;
  /** The agents served, by name. */
  readonly agents: ReadonlySet<string>;
  welcome(id: RequestId, encoding: Codec['encoding']): Msg<'welcome'>;
  /** The server is stopping: no new tables. */
  draining(): boolean;
}

/** A validated client message of one type. */
type ClientRequest<T extends ClientMessageType> = Extract<ClientMessageAtEdge, { type: T }>;
type Handler<T extends ClientMessageType> = (message: ClientRequest<T>) => void;

/** The messages a client may send before hello. */
const BEFORE_HELLO: ReadonlySet<ClientMessageType> = new Set(['hello', 'ping']);

/** WebSocket close codes the server uses. */
export const CLOSE = { goingAway: 1001, policy: 1008, tooBig: 1009, serviceRestart: 1012, tryAgainLater: 1013 } as const;

export class Connection implements TableOwner {
  /** Heartbeat: set by every pong, cleared by every ping. */
  alive = true;
  private greeted = false;
  private pending = 0;
  private readonly tables = new Map<string, ServerTable>();
  private readonly rate: TokenBucket;
  /** The client's address (serve/net/upgrade.ts `clientAddress`): its tables count toward its limit. */
  readonly address: string | null;
  /** The message budget this connection shares with the others of its address. */
  private readonly addressRate: TokenBucket | null;
  private readonly log: Logger;
  /** Closes a connection that has not said hello in time. */
  private helloTimer: NodeJS.Timeout | null;
  /** Past the rate limit: told, being closed, its further messages not read. */
  private limited = false;
  messages = 0;

  constructor(
    readonly id: number,
    private readonly ws: WebSocket,
    private readonly codec: Codec,
    private readonly ctx: ServerContext,
    from: { readonly address: string; readonly messages: TokenBucket } | null = null,
  ) {
    this.rate = new TokenBucket(ctx.options.maxMessagesPerSecond);
    this.address = from?.address ?? null;
    this.addressRate = from?.messages ?? null;
    this.log = ctx.log.child({ conn: id });
    const helloMs = ctx.options.helloTimeoutMs;
    this.helloTimer = setTimeout(() => {
      this.log.info({ event: 'hello_timeout', ms: helloMs }, 'closing a connection that did not say hello');
      this.ws.close(CLOSE.policy, `no hello within ${helloMs} ms`);
      this.terminateSoon();
    }, helloMs);
    this.helloTimer.unref();
  }

  get open(): boolean {
    return this.ws.readyState === this.ws.OPEN;
  }

  /** One heartbeat: pings, or terminates a peer that did not answer the last ping. Returns whether it is still up. */
  heartbeat(): boolean {
    if (!this.alive) {
      this.ws.terminate();
      return false;
    }
    this.alive = false;
    this.ws.ping();
    return true;
  }

  /** Closes with a code (queued frames are written first); resolves once the socket is closed. */
  close(code: number, reason: string): Promise<void> {
    return new Promise((resolve) => {
      if (this.ws.readyState === this.ws.CLOSED) return resolve();
      this.ws.once('close', () => resolve());
      this.ws.close(code, reason);
    });
  }

  terminate(): void {
    if (this.ws.readyState !== this.ws.CLOSED) this.ws.terminate();
  }

  /** Cuts the socket if the peer has not finished the closing handshake within a second. */
  private terminateSoon(): void {
    setTimeout(() => this.terminate(), 1000).unref();
  }

  /** One inbound frame. */
  receive(data: Buffer, isBinary: boolean): void {
    if (this.limited) return;
    this.messages++;
    if (!this.rate.take()) return this.overLimit(data, isBinary, 'connection');
    if (this.addressRate && !this.addressRate.take()) return this.overLimit(data, isBinary, 'address');
    let id: RequestId | null = null;
    try {
      const value = this.codec.read(data, isBinary);
      // The id first, so that a message refused for its shape (nesting, `__proto__`) is answered with it.
      id = requestIdOf(value);
      checkShape(value);
      this.dispatch(parseClientMessageAtEdge(value));
    } catch (error) {
      this.fail(id, error);
    }
  }

  /**
   * Past the rate limit of the connection or of its address: one error (to the message's id), then
   * the connection is closed (1008) and nothing more it sends is read.
   */
  private overLimit(data: Buffer, isBinary: boolean, whose: 'connection' | 'address'): void {
    this.limited = true;
    const { options } = this.ctx;
    const [rate, what] =
      whose === 'connection'
        ? [options.maxMessagesPerSecond, 'on this connection']
        : [messagesPerAddress(options), 'from your address, all its connections together (--max-messages-per-second-per-address)'];
    this.log.warn(
      { event: 'rate_limited', limit: whose, ip: this.address, messages: this.messages },
      'closing a client past the rate limit',
    );
    let id: RequestId | null = null;
    try {
      id = requestIdOf(this.codec.read(data, isBinary));
    } catch {
      // Not a message: the error goes without an id.
    }
    this.fail(id, new ProtocolError('rate_limited', `more than ${rate} messages a second ${what}: closing this connection`));
    this.ws.close(
      CLOSE.policy,
      `more than ${rate} messages a second ${whose === 'connection' ? 'on this connection' : 'from your address'}`,
    );
    this.terminateSoon();
  }

  /** One handler per client message type: a type without one does not compile. */
  private readonly handlers: { readonly [T in ClientMessageType]: Handler<T> } = {
    hello: (message) => this.hello(message),
    ping: (message) => this.send({ type: 'pong', id: message.id, time: Date.now() }),
    create_table: (message) => this.createTable(message),
    act: (message) => this.act(message),
    advise: (message) => this.advise(message),
    resume: (message) => this.resume(message),
    leave: (message) => this.leave(message),
    join_table: (message) => this.joinTable(message),
    start_table: (message) => this.startTable(message),
  };

  private dispatch(message: ClientMessageAtEdge): void {
    if (!this.greeted && !BEFORE_HELLO.has(message.type))
      throw new ProtocolError('bad_message', `say hello first: {"type":"hello","id":1,"version":${PROTOCOL_VERSION}}`, 'type');
    (this.handlers[message.type] as Handler<ClientMessageType>)(message);
  }

  private hello(message: ClientRequest<'hello'>): void {
    if (message.version !== PROTOCOL_VERSION) {
      throw new ProtocolError(
        'unsupported_version',
        `this server speaks protocol version ${PROTOCOL_VERSION} only (subprotocols yaniv.v1.json, yaniv.v1.msgpack); the client asked for ${message.version}`,
        'version',
      );
    }
    this.greeted = true;
    if (this.helloTimer) clearTimeout(this.helloTimer);
    this.helloTimer = null;
    if (message.client) this.log.info({ event: 'hello', client: message.client }, 'client said hello');
    this.send(this.ctx.welcome(message.id, this.codec.encoding));
  }

  private createTable(message: ClientRequest<'create_table'>): void {
    if (this.ctx.draining())
      throw new ProtocolError('draining', 'this server process is stopping and takes no new tables: reconnect and create it again');
    const old = message.follows === undefined ? null : followedBy(this.tableOf(message.follows), this);
    this.checkRoom();
    const { settings, settled } = newTable(message, {
      options: this.ctx.options,
      agents: this.ctx.agents,
      resolve: (agent, table) => this.ctx.models.current(agent, table),
    });
    const table = this.ctx.tables.create(settings, this.address, this.ctx.options.inviteMs);
    this.keep(table);
    table.owner = this;
    const followers = old === null ? [] : seatFollowers(old, table);
    const { preset, seats } = table.settings;
    this.log.info({ event: 'table_created', table: table.id, seats: message.seats, preset, players: seats.length }, 'table created');
    const created: Msg<'table_created'> = {
      type: 'table_created',
      id: message.id,
      ...this.tableInfo(table, settled),
      invite: table.settings.invite ?? null,
    };
    table.afterWrites(() => this.send(created));
    if (old !== null) {
      tellFollowers(old, table, followers, this.tableInfo(table));
      this.log.info({ event: 'table_followed', table: table.id, follows: old.id, guests: followers.length }, 'played again');
      this.leaveTable(old);
    }
    table.start();
  }

  private tableInfo(table: ServerTable, settled = settledRules(table.settings)) {
    const { id, token, preset, rules, seats, thinkMs, moveDeadlineMs, lobby } = table.settings;
    return {
      table: id,
      token,
      preset,
      rules,
      settledRules: settled,
      players: seats.length,
      seats: table.seatsInfo(),
      thinkMs,
      moveDeadlineMs,
      lobby: lobby === true,
    };
  }

  /** Tables in play: finished ones do not count toward the limit. */
  private inPlay(): number {
    let count = 0;
    for (const table of this.tables.values()) if (!table.game.over) count++;
    return count;
  }

  private checkRoom(): void {
    const limit = this.ctx.options.maxTablesPerConnection;
    const playing = this.inPlay();
    if (playing >= limit)
      throw new ProtocolError('table_full', `this connection has ${playing} tables in play, the most it may; finish or leave one first`);
  }

  /**
   * Adds a table; a finished table stays (for resume and its record) until left or idle, but
   * past as many finished tables as the limit, the oldest finished one is dropped.
   */
  private keep(table: ServerTable): void {
    this.tables.set(table.id, table);
    const finished = [...this.tables.values()].filter((t) => t.game.over);
    for (const old of finished.slice(0, Math.max(0, finished.length - this.ctx.options.maxTablesPerConnection))) {
      this.tables.delete(old.id);
      this.ctx.tables.remove(old);
      this.log.info({ event: 'table_dropped', table: old.id }, 'finished table dropped to make room');
    }
  }

  private tableOf(id: string): ServerTable {
    const table = this.tables.get(id);
    if (!table) throw new ProtocolError('unknown_table', `no table ${JSON.stringify(id.slice(0, 64))} on this connection`, 'table');
    return table;
  }

  private act(message: ClientRequest<'act'>): void {
    const table = this.tableOf(message.table);
    const move = message.cards !== undefined ? { cards: message.cards } : { action: message.action ?? -1 };
    table.act(
      this,
      message.seat,
      move,
      message.counter,
      (counter) => this.send({ type: 'acted', id: message.id, table: table.id, counter }),
      () =>
        this.fail(
          message.id,
          new ProtocolError('unknown_table', `table ${table.id} was taken over elsewhere: the action was not applied`, 'table'),
        ),
    );
  }

  private advise(message: ClientRequest<'advise'>): void {
    const { options } = this.ctx;
    if (this.pending >= options.maxPending)
      throw new ProtocolError(
        'rate_limited',
        `${this.pending} advice requests are in progress on this connection, the most it may have; wait for answers`,
      );
    const agent = message.agent ?? options.agents[0];
    if (!this.ctx.agents.has(agent))
      throw new ProtocolError(
        'bad_message',
        `${JSON.stringify(agent.slice(0, 60))} is not an agent this server plays (${[...this.ctx.agents].join(', ')})`,
        'agent',
      );
    const { source, table } = message.table !== undefined ? this.seatAsked(message.table, message.seat) : sentPosition(message);
    const played = this.ctx.models.current(agent, table);
    const reply = { id: message.id, agent, model: playedModelOf(played), encoding: this.codec.encoding };
    const outlook = message.outlook ?? true;
    const budget = outlook
      ? this.ctx.ruleSets.take(this.address ?? '', table.preset ?? DEFAULT_PRESET, table.rules ?? {}, table.players)
      : null;
    const request: DecideRequest = {
      agent: playedAgent(played),
      source,
      seed: message.seed ?? 0,
      explain: true,
      outlook,
      reply,
      ...(budget && 'unmeasured' in budget ? { unmeasured: budget.unmeasured } : {}),
    };
    const started = performance.now();
    this.pending++;
    void this.ctx.pool.decide(request, this.address ?? '').then((result) => {
      this.pending--;
      if (budget && 'done' in budget) budget.done();
      const ms = performance.now() - started;
      if (ms > options.slowMs) this.ctx.slow.record(agent, ms);
      this.answerAdvice(message.id, result);
    });
  }

  /** What advice on a seat of one of this client's tables asks about: that seat's view, at its table's kind. */
  private seatAsked(id: string, seat: number | undefined): { source: PositionSource; table: TableKind } {
    const played = this.tableOf(id);
    return { source: { kind: 'playerView', view: played.adviceView(seat, this) }, table: tableKindOf(played.settings) };
  }

  private answerAdvice(id: RequestId, result: DecideResult): void {
    if (!result.ok)
      return this.fail(
        id,
        result.code === 'internal' ? new Error(result.message) : new ProtocolError(result.code, result.message, result.field),
      );
    if (result.frame === undefined) return this.fail(id, new Error('no advice in the result'));
    this.sendFrame(result.frame);
  }

  /** Runs `then` with a table found now or once taken over from the store; its errors become the request's error reply. */
  private withTable(id: RequestId, found: ServerTable | Promise<ServerTable>, then: (table: ServerTable) => void): void {
    if (!(found instanceof Promise)) return then(found);
    found.then(
      (table) => {
        try {
          if (this.open) then(table);
        } catch (error) {
          this.fail(id, error);
        }
      },
      (error: unknown) => this.fail(id, error),
    );
  }

  private resume(message: ClientRequest<'resume'>): void {
    this.withTable(message.id, this.ctx.tables.claim(message.table, message.token, this.address), (table) => this.resumed(message, table));
  }

  private resumed(message: ClientRequest<'resume'>, table: ServerTable): void {
    if (!this.tables.has(table.id) && !table.game.over) this.checkRoom();
    const role = table.roleOf(message.token);
    const previous = role === 'creator' ? table.owner : role === null ? null : (table.guests.get(role) ?? null);
    if (previous && previous !== this) previous.tableClosed(table, 'resumed_elsewhere');
    if (role === 'creator') table.address = this.address;
    this.keep(table);
    this.log.warn({ event: 'table_resumed', table: table.id, counter: table.game.counter, seat: role }, 'table resumed');
    const info = this.tableInfo(table);
    const reply: Msg<'resumed'> =
      role === 'creator'
        ? { type: 'resumed', id: message.id, ...info, counter: table.game.counter, invite: table.settings.invite ?? null, seat: null }
        : { type: 'resumed', id: message.id, ...info, token: message.token, counter: table.game.counter, invite: null, seat: role };
    table.afterWrites(() => this.send(reply));
    if (role === 'creator') table.attach(this);
    else if (role !== null) table.attachGuest(role, this);
  }

  private joinTable(message: ClientRequest<'join_table'>): void {
    this.withTable(message.id, this.ctx.tables.invited(message.code, this.address), (table) => {
      if (!table.game.over) this.checkRoom();
      if (this.tables.has(table.id)) throw new ProtocolError('bad_message', 'this connection already plays at this table', 'code');
      // The reply goes out before the seat's first state: join calls back between taking the seat and sending it.
      const joined = table.join(this, message.name, (seat, token) => {
        const reply: Msg<'joined'> = { type: 'joined', id: message.id, ...this.tableInfo(table), token, seat, counter: table.game.counter };
        table.afterWrites(() => this.send(reply));
      });
      this.keep(table);
      this.log.info({ event: 'table_joined', table: table.id, seat: joined.seat }, 'a guest joined a table');
    });
  }

  private startTable(message: ClientRequest<'start_table'>): void {
    const table = this.tableOf(message.table);
    if (table.owner !== this) throw new ProtocolError('not_your_turn', 'only the creator of the table starts it', 'table');
    table.afterWrites(() => this.send({ type: 'started', id: message.id, table: table.id }));
    table.begin();
  }

  private leave(message: ClientRequest<'leave'>): void {
    const table = this.tableOf(message.table);
    this.leaveTable(table);
    this.send({ type: 'left', id: message.id, table: table.id });
  }

  /** This connection leaves a table: the creator's leaving ends it for its guests still there. */
  private leaveTable(table: ServerTable): void {
    this.tables.delete(table.id);
    if (table.owner === this) {
      const guests = table.owners().filter((owner) => owner !== this);
      this.ctx.tables.remove(table);
      for (const guest of guests) guest.tableClosed(table, 'creator_left');
    } else table.detach(this);
    this.log.info({ event: 'table_left', table: table.id }, 'table left');
  }

  // ---------------------------------------------------------------- TableOwner

  deliver(message: ServerMessage): void {
    this.send(message);
  }

  tableClosed(table: ServerTable, reason: Msg<'table_closed'>['reason']): void {
    if (this.tables.get(table.id) !== table) return;
    this.tables.delete(table.id);
    table.detach(this);
    this.log.info({ event: 'table_closed', table: table.id, reason }, 'table closed');
    this.send({ type: 'table_closed', table: table.id, reason });
  }

  follow(old: ServerTable, next: ServerTable, told: Msg<'next_table'>): void {
    if (this.tables.get(old.id) === old) this.tables.delete(old.id);
    old.detach(this);
    this.keep(next);
    next.afterWrites(() => this.send(told));
  }

  /** The server is stopping: each table of this connection is told closed before the socket is. */
  shutdown(): void {
    for (const table of [...this.tables.values()]) this.tableClosed(table, 'shutdown');
  }

  /**
   * The server is stopping and has handed its tables over to the store: the client is told to
   * reconnect (to another process) and resume them.
   */
  drained(retryMs: number): void {
    const tables = [...this.tables.keys()];
    for (const table of this.tables.values()) table.detach(this);
    this.tables.clear();
    this.send({ type: 'reconnect', reason: 'draining', tables, retryMs });
  }

  /** The connection closed: its tables wait for a resume (or expire). */
  closed(): void {
    if (this.helloTimer) clearTimeout(this.helloTimer);
    for (const table of this.tables.values()) table.detach(this);
    this.tables.clear();
  }

  // ---------------------------------------------------------------- output

  send(message: ServerMessage): void {
    if (this.open) this.sendFrame(this.codec.encode(message));
  }

  /** A message already encoded in this connection's encoding (text for JSON, bytes for MessagePack). */
  private sendFrame(frame: string | Uint8Array): void {
    if (!this.open) return;
    if (this.ws.bufferedAmount > this.ctx.options.maxBufferedBytes) {
      this.log.warn({ event: 'slow_consumer', buffered: this.ws.bufferedAmount }, 'closing a client that does not read');
      this.ws.close(CLOSE.tryAgainLater, 'too much unread data: read faster');
      return;
    }
    this.ws.send(frame);
  }

  /** An error reply; anything but a ProtocolError is logged and told as `internal` without details. */
  private fail(id: RequestId | null, error: unknown): void {
    if (error instanceof ProtocolError) {
      this.log.info({ event: 'request_error', code: error.code, err: error.message }, 'request refused');
      this.send({
        type: 'error',
        id,
        code: error.code,
        message: error.message,
        ...(error.field ? { field: error.field } : {}),
        ...error.details,
      });
      return;
    }
    this.log.error(
      { event: 'internal_error', err: error instanceof Error ? (error.stack ?? error.message) : String(error) },
      'request failed',
    );
    this.send({ type: 'error', id, code: 'internal', message: 'the server failed on this request; nothing was applied' });
  }
}
