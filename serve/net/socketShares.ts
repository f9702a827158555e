/**
 * The TCP sockets under the HTTP server, before any of them is a WebSocket (issue 39: one address
 * must not use up what everyone shares): one client address holds at most `perAddress` sockets at
 * once (WebSockets included, page requests besides); a socket past that is closed at once. A
 * trusted proxy's sockets are not counted (every client behind it shares its address; nginx keeps
 * its own shares). How long a socket may take to finish its request is the HTTP server's
 * (serve/net/http.ts).
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';

/** An address's sockets per WebSocket of its share: its WebSockets, and as many page requests besides. */
export const SOCKETS_PER_CONNECTION = 2;

export interface SocketLimits {
  /** Sockets one client address may hold at once. */
  readonly perAddress: number;
  /** Proxy addresses (--trust-proxy), not counted. */
  readonly trusted: readonly string[];
}

/** Closes each new socket of an address that already holds `perAddress`. */
export function guardSockets(http: Server, limits: SocketLimits, log: Logger): void {
  const open = new Map<string, number>();
  http.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    if (limits.trusted.includes(address)) return;
    const held = open.get(address) ?? 0;
    if (held >= limits.perAddress) {
      log.info({ event: 'socket_refused', ip: address, held }, 'an address at its share of sockets: closed');
      socket.destroy();
      return;
    }
    open.set(address, held + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
