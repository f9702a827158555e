/**
 * nginx's consistent-hash ring (`hash KEY consistent;`, ngx_http_upstream_hash_module), computed
 * here so that a server behind deploy/nginx can mint table ids that nginx routes back to it: a
 * reconnect with `?table=ID` then lands on the table's owner while it is up, and on the next
 * server of the ring (the same one from every nginx) when it is not.
 *
 * The ring is ketama-compatible, as nginx builds it: each `server ADDRESS` (weight 1) gets 160
 * points, point j = crc32(HOST "\0" PORT prev) where prev is point j−1 as 4 little-endian bytes
 * (0 for the first); a key belongs to the first point at or above crc32(key), wrapping round.
 */
import { crc32 } from 'node:zlib';

const POINTS_PER_SERVER = 160;

interface Point {
  hash: number;
  server: string;
}

/** HOST and PORT as nginx splits a `server` address: at the last colon when only digits follow it. */
function hostAndPort(address: string): [string, string] {
  const colon = address.lastIndexOf(':');
  if (colon >= 0 && /^\d+$/.test(address.slice(colon + 1))) return [address.slice(0, colon), address.slice(colon + 1)];
  return [address, ''];
}

export class UpstreamRing {
  private readonly points: Point[];

  /** `servers`: the upstream's `server` addresses exactly as its nginx configuration writes them (`127.0.0.1:8081`). */
  constructor(readonly servers: readonly string[]) {
    if (servers.length === 0) throw new RangeError('the ring needs at least one server address');
    const points: Point[] = [];
    for (const server of servers) {
      const [host, port] = hostAndPort(server);
      const base = Buffer.concat([Buffer.from(host), Buffer.from([0]), Buffer.from(port)]);
      const prev = Buffer.alloc(4);
      for (let j = 0; j < POINTS_PER_SERVER; j++) {
        const hash = crc32(prev, crc32(base));
        points.push({ hash, server });
        prev.writeUInt32LE(hash);
      }
    }
    points.sort((a, b) => a.hash - b.hash);
    // nginx keeps the first of equal points (after its sort): the same collisions are dropped here.
    this.points = points.filter((p, i) => i === 0 || p.hash !== points[i - 1].hash);
  }

  /** The servers in the order nginx tries them for this key: its owner first, then each next server round the ring. */
  order(key: string): string[] {
    const hash = crc32(key);
    let lo = 0;
    let hi = this.points.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.points[mid].hash < hash) lo = mid + 1;
      else hi = mid;
    }
    const seen: string[] = [];
    for (let i = 0; i < this.points.length && seen.length < this.servers.length; i++) {
      const { server } = this.points[(lo + i) % this.points.length];
      if (!seen.includes(server)) seen.push(server);
    }
    return seen;
  }

  /** The server nginx sends this key to while every server is up. */
  owner(key: string): string {
    return this.order(key)[0];
  }
}

/**
 * Which table ids this process may mint: with no peers, any; else those nginx's consistent hash
 * sends to `self`, which must be one of the peers.
 */
export function ownIdFilter(peers: readonly string[], self: string): ((id: string) => boolean) | null {
  if (peers.length === 0) return null;
  if (!peers.includes(self))
    throw new RangeError(
      `--advertise ${self} is not among the --peers (${peers.join(', ')}); give this process's address as the nginx upstream writes it`,
    );
  const ring = new UpstreamRing(peers);
  return (id) => ring.owner(id) === self;
}
