// serve/net/ring.ts against nginx itself: the owner it computes for a table id is the process nginx's
// `hash $arg_table consistent` sends `/?table=ID` to (three backends that answer with their own
// address), and with the owner gone nginx goes to the next server the ring names. Without nginx the
// nginx part is skipped (one line says how to install it); in CI it fails.
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpstreamRing, ownIdFilter } from '../../serve/net/ring.js';
import { NginxServer, nginxAvailable, renderNginxConfig } from '../../scripts/nginxServer.js';

const ids = Array.from({ length: 300 }, (_, i) => `t-${Buffer.from(`id${i * 7919}`).toString('base64url')}`);

describe('the ring', () => {
  const servers = ['127.0.0.1:8081', '127.0.0.1:8082', '127.0.0.1:8083'];
  const ring = new UpstreamRing(servers);

  it('names every server once for a key, and spreads keys over all of them', () => {
    const owners = new Map<string, number>();
    for (const id of ids) {
      const order = ring.order(id);
      expect([...order].sort()).toEqual([...servers].sort());
      owners.set(order[0], (owners.get(order[0]) ?? 0) + 1);
    }
    for (const server of servers) expect(owners.get(server) ?? 0).toBeGreaterThan(ids.length / 6);
  });

  it('is consistent: without a server, its keys go to the next one it names and no other key moves', () => {
    const smaller = new UpstreamRing(servers.slice(1));
    for (const id of ids) expect(smaller.owner(id)).toBe(ring.order(id).find((s) => s !== servers[0]));
  });

  it('mints only ids for its own address, and refuses an address not among the peers', () => {
    const own = ownIdFilter(servers, servers[1]);
    expect(ids.filter((id) => own?.(id)).every((id) => ring.owner(id) === servers[1])).toBe(true);
    expect(ownIdFilter([], 'anything')).toBeNull();
    expect(() => ownIdFilter(servers, '127.0.0.1:9999')).toThrow(/127\.0\.0\.1:9999 is not among the --peers/);
  });

  it('renders the nginx template with every field filled', () => {
    const text = renderNginxConfig({ prefix: '/tmp/x', listen: '127.0.0.1:1', servers });
    expect(text).not.toMatch(/\{\{/);
    expect(text.match(/server 127\.0\.0\.1:8082 max_fails=0;/g)).toHaveLength(2);
    expect(() => renderNginxConfig({ prefix: '/tmp/x', listen: '1', servers: [] })).toThrow(/at least one/);
  });
});

describe.runIf(nginxAvailable())('nginx routes a table id where the ring says', () => {
  const backends: Server[] = [];
  let addresses: string[] = [];
  let nginx: NginxServer;

  beforeAll(async () => {
    for (let i = 0; i < 3; i++) {
      const server = createServer((req, res) => res.end(`127.0.0.1:${(req.socket.address() as AddressInfo).port}`));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      backends.push(server);
    }
    addresses = backends.map((b) => `127.0.0.1:${(b.address() as AddressInfo).port}`);
    nginx = await NginxServer.start(addresses);
  });
  afterAll(async () => {
    await nginx?.dispose();
    for (const b of backends) b.close();
  });

  const via = async (id: string) => (await fetch(`${nginx.httpUrl}?table=${id}`)).text();

  it('sends each ?table=ID to its owner, and with the owner down to the next server of the ring', async () => {
    const ring = new UpstreamRing(addresses);
    for (const id of ids.slice(0, 120)) expect(await via(id)).toBe(ring.owner(id));
    backends[0].close();
    backends[0].closeAllConnections();
    for (const id of ids.slice(0, 120)) expect(await via(id)).toBe(ring.order(id).find((s) => s !== addresses[0]));
  });
});
