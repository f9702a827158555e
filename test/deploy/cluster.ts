// Server processes on their ports behind one nginx (deploy/nginx.conf.template), with the ring
// nginx routes table ids by: the set-up the load-balancer tests share.
import { UpstreamRing } from '../../serve/net/ring.js';
import { NginxServer } from '../../scripts/nginxServer.js';
import { ServeProcess } from '../../scripts/serveProcess.js';

export interface Cluster {
  readonly servers: ServeProcess[];
  readonly nginx: NginxServer;
  readonly ring: UpstreamRing;
  /** The flags each server was started with (`--peers` first): a stopped one starts again with them. */
  readonly args: string[];
}

/** Starts a server on each port with `--peers` (every port) and these flags, then nginx in front of them. */
export async function startCluster(ports: readonly number[], flags: readonly string[]): Promise<Cluster> {
  const peers = ports.map((p) => `127.0.0.1:${p}`);
  const args = ['--peers', peers.join(','), ...flags];
  const servers = await Promise.all(ports.map((port) => ServeProcess.start(args, { port })));
  return { servers, nginx: await NginxServer.start(peers), ring: new UpstreamRing(peers), args };
}

/** Stops nginx and every server of a cluster (started or not). */
export async function stopCluster(cluster: Partial<Cluster>): Promise<void> {
  await cluster.nginx?.dispose();
  await Promise.all((cluster.servers ?? []).map((s) => s.stop('SIGKILL')));
}
