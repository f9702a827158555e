/**
 * The server's WebSocket connections: upgrades (after the checks of serve/net/upgrade.ts), each
 * accepted socket wired to a `Connection`, heartbeats, and the two ways of letting them all go —
 * handed over (a shared store: clients told to reconnect elsewhere, 1012) or shut down (1001).
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { type WebSocket, WebSocketServer } from 'ws';
import { CODECS } from '../protocol/codec.js';
import { AddressShares, type AddressSeat } from './addressShares.js';
import { CLOSE, Connection, type ServerContext } from './connection.js';
import { type Encoding, SUBPROTOCOLS } from '../protocol/protocol.js';
import { messagesPerAddress } from '../options.js';
import { chooseSubprotocol, clientAddress, refuse, upgradeRefusal } from './upgrade.js';

export class Sockets {
  private readonly connections = new Set<Connection>();
  /** Open connections and the shared message budget per client address (`clientAddress`). */
  private readonly perAddress: AddressShares;
  private readonly wss: WebSocketServer;
  private readonly heartbeat: NodeJS.Timeout;
  private nextId = 1;

  constructor(
    private readonly ctx: ServerContext,
    private readonly log: Logger,
  ) {
    this.perAddress = new AddressShares(messagesPerAddress(ctx.options));
    this.wss = new WebSocketServer({
      noServer: true,
      maxPayload: ctx.options.maxPayload,
      perMessageDeflate: false,
      clientTracking: false,
      handleProtocols: (offered) => chooseSubprotocol(offered) ?? false,
    });
    this.wss.on('error', (error) => log.error({ event: 'wss_error', err: error.message }, 'WebSocket server error'));
    this.heartbeat = setInterval(() => this.beat(), ctx.options.heartbeatMs);
  }

  get size(): number {
    return this.connections.size;
  }

  /** An HTTP upgrade request: refused before the upgrade, or accepted as a connection. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', (error) => this.log.debug({ event: 'socket_error', err: error.message }, 'socket error during upgrade'));
    const address = clientAddress(req, this.ctx.options.trustProxy);
    const refusal = upgradeRefusal(req, this.ctx.options, {
      shuttingDown: this.ctx.draining(),
      connections: this.size,
      fromAddress: this.perAddress.connections(address),
    });
    if (refusal) {
      this.log.info(
        { event: 'upgrade_refused', status: refusal.status, code: refusal.code, origin: req.headers.origin, ip: address },
        refusal.message,
      );
      return refuse(socket, refusal);
    }
    // Counted from now: upgrades that arrive while this one completes see it.
    const seat = this.perAddress.add(address);
    socket.once('close', seat.release);
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, req, address, seat));
  }

  private accept(ws: WebSocket, req: IncomingMessage, address: string, seat: AddressSeat): void {
    const encoding: Encoding = ws.protocol === SUBPROTOCOLS.msgpack ? 'msgpack' : 'json';
    const connection = new Connection(this.nextId++, ws, CODECS[encoding], this.ctx, { address, messages: seat.messages });
    this.connections.add(connection);
    const opened = Date.now();
    const log = this.log;
    log.info({ event: 'connection_open', conn: connection.id, encoding, ip: address, origin: req.headers.origin }, 'connection opened');
    ws.on('error', (error) => log.info({ event: 'connection_error', conn: connection.id, err: error.message }, 'connection error'));
    ws.on('message', (data, isBinary) => connection.receive(asBuffer(data), isBinary));
    ws.on('pong', () => {
      connection.alive = true;
    });
    ws.on('close', (code, reason) => {
      seat.release();
      this.connections.delete(connection);
      connection.closed();
      const seconds = Math.round((Date.now() - opened) / 1000);
      log.info(
        {
          event: 'connection_close',
          conn: connection.id,
          code,
          reason: reason.toString().slice(0, 120),
          messages: connection.messages,
          seconds,
        },
        'connection closed',
      );
    });
  }

  private beat(): void {
    for (const connection of this.connections) {
      if (connection.heartbeat()) continue;
      this.log.info({ event: 'heartbeat_timeout', conn: connection.id }, 'terminated a peer that missed a heartbeat');
    }
  }

  /** No more heartbeats (the server stops). */
  stop(): void {
    clearInterval(this.heartbeat);
  }

  /**
   * Lets every connection go, within `cutOff`: with a shared store, once `handOver` has written and
   * released every table, each client is told to reconnect and closed with 1012; else each table
   * is told closed and the client closed with 1001. Whatever is still open then is cut.
   */
  async close(how: {
    shared: boolean;
    /** Hands the tables over; resolves with how many it could not. */
    handOver: () => Promise<number>;
    tables: () => number;
    cutOff: Promise<void>;
    retryMs: number;
  }): Promise<void> {
    const { cutOff } = how;
    this.stop();
    const open = [...this.connections];
    if (how.shared) {
      const tables = how.tables();
      const kept = await Promise.race([how.handOver(), cutOff.then(() => tables)]);
      for (const connection of open) connection.drained(how.retryMs);
      const fields = { tables, connections: open.length };
      if (kept === 0) this.log.warn({ event: 'drained', ...fields }, 'tables handed over; clients told to reconnect');
      else
        this.log.error(
          { event: 'drain_incomplete', ...fields, notHandedOver: kept },
          `could not hand ${kept} of ${tables} table(s) over (the store unreachable, or --shutdown-ms passed): each resumes elsewhere from the last step the store took, once the store is back; clients told to reconnect`,
        );
      await Promise.race([Promise.all(open.map((c) => c.close(CLOSE.serviceRestart, 'server restarting: reconnect and resume'))), cutOff]);
    } else {
      for (const connection of open) connection.shutdown();
      await Promise.race([Promise.all(open.map((c) => c.close(CLOSE.goingAway, 'server shutting down'))), cutOff]);
    }
    for (const connection of open) connection.terminate();
  }
}

function asBuffer(data: Buffer | ArrayBuffer | Buffer[]): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}
