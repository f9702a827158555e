// The page's files on the server's HTTP port (serve/net/static.ts): what each path serves and with
// which content type, 404 for anything else, and no way out of the served folders — checked on
// the lookup itself and over real HTTP with the raw paths a browser would never send.
import { readFileSync, readdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../serve/index.js';
import { packageRoot } from '../../../agents/models/modelFolder.js';
import { BROWSER_RULES, StaticSite, VENDOR_MODULES } from '../../../serve/net/static.js';
import { startTestServer } from '../helpers.js';

const ROOT = packageRoot();
const site = new StaticSite(ROOT);

/** Paths that climb out, hide, or name what the page does not serve (its sources, maps, other packages). */
const REFUSED = [
  '/main.ts',
  '/app/main.ts',
  '/app/main.js.map',
  '/app/main.d.ts',
  '/app',
  '/app/',
  '/../package.json',
  '/..%2fpackage.json',
  '/%2e%2e/package.json',
  '/%2e%2e%2fpackage.json',
  '/app/..%2f..%2fpackage.json',
  '/app/%2e%2e/serve/server.js',
  '/app/..%5c..%5cserve%5cserver.js',
  '/vendor/..%2f..%2fpackage.json',
  '/vendor/zod.mjs',
  '/vendor/constructor',
  '/vendor/__proto__',
  '/.hidden.css',
  '/app/.x.js',
  '//etc/passwd',
  '/style.css%00.js',
  '/%ZZ.css',
  '/package.json',
  '/env/rules/rules.js',
  '/env/rules/engine.js',
  '/env/rules/groups.ts',
  '/env/rules/groups.js.map',
  '/env/groups.js',
  '/env/rules/x/groups.js',
  '/client/client.ts',
  '/client/client.d.ts',
  '/client/client.js.map',
  '/client/x/client.js',
  '/client/',
];

describe('StaticSite.lookup', () => {
  it.each([
    ['/', 'web/index.html', 'text/html; charset=utf-8'],
    ['/index.html', 'web/index.html', 'text/html; charset=utf-8'],
    ['/style.css', 'web/style.css', 'text/css; charset=utf-8'],
    ['/favicon.svg', 'web/favicon.svg', 'image/svg+xml'],
    ['/app/main.js', 'dist/web/main.js', 'text/javascript; charset=utf-8'],
    ['/app/%6Dain.js', 'dist/web/main.js', 'text/javascript; charset=utf-8'],
    ['/vendor/preact.mjs', 'node_modules/preact/dist/preact.mjs', 'text/javascript; charset=utf-8'],
    ['/vendor/preact-hooks.mjs', 'node_modules/preact/hooks/dist/hooks.mjs', 'text/javascript; charset=utf-8'],
    ['/vendor/htm.mjs', 'node_modules/htm/dist/htm.mjs', 'text/javascript; charset=utf-8'],
    ['/vendor/uqr.mjs', 'node_modules/uqr/dist/index.mjs', 'text/javascript; charset=utf-8'],
    ['/rules.html', 'web/index.html', 'text/html; charset=utf-8'],
    ['/env/rules/groups.js', 'dist/env/rules/groups.js', 'text/javascript; charset=utf-8'],
    ['/env/rules/cards.js', 'dist/env/rules/cards.js', 'text/javascript; charset=utf-8'],
    ['/client/client.js', 'dist/client/client.js', 'text/javascript; charset=utf-8'],
    ['/client/protocol.js', 'dist/client/protocol.js', 'text/javascript; charset=utf-8'],
  ])('%s is %s (%s)', (path, file, contentType) => {
    expect(site.lookup(path)).toEqual({ file: join(ROOT, file), contentType });
  });

  it.each(REFUSED)('%s is nothing', (path) => {
    expect(site.lookup(path)).toBeNull();
  });

  it('serves vendored modules that import nothing but each other by their import-map names', () => {
    for (const name of Object.values(VENDOR_MODULES)) {
      const code = readFileSync(site.lookup(`/vendor/${name}`)?.file ?? '', 'utf8');
      const imported = [...code.matchAll(/\b(?:import|from)\s*["']([^"']+)["']/g)].map((m) => m[1]);
      for (const target of imported) expect(Object.keys(VENDOR_MODULES), `${name} imports ${target}`).toContain(target);
    }
  });

  it('serves only rules modules that import nothing but each other (a browser loads them without an import map)', () => {
    for (const name of BROWSER_RULES) {
      const code = readFileSync(join(ROOT, 'dist/env/rules', name), 'utf8');
      const imported = [...code.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]);
      for (const target of imported) expect(BROWSER_RULES, `${name} imports ${target}`).toContain(target.replace(/^\.\//, ''));
    }
  });

  it('serves a protocol client (yaniv-arena/client) that imports nothing but its own folder once compiled', () => {
    const folder = join(ROOT, 'dist/client');
    for (const name of readdirSync(folder).filter((file) => file.endsWith('.js'))) {
      const code = readFileSync(join(folder, name), 'utf8');
      const imported = [...code.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]);
      for (const target of imported) expect(target, `${name} imports ${target}`).toMatch(/^\.\/[A-Za-z]+\.js$/);
      expect(site.lookup(`/client/${name}`)?.file).toBe(join(folder, name));
    }
  });
});

describe('the page over HTTP', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  /** A request with the path sent exactly as written (fetch would normalise it). */
  function raw(path: string, method = 'GET'): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.port, path, method }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('serves the page, its modules and the view library with their content types', async () => {
    const page = await raw('/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.body).toBe(readFileSync(join(ROOT, 'web/index.html'), 'utf8'));
    const main = await raw('/app/main.js');
    expect(main.status).toBe(200);
    expect(main.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(main.body).toContain("import('./app.js')");
    const css = await raw('/style.css');
    expect([css.status, css.headers['content-type']]).toEqual([200, 'text/css; charset=utf-8']);
  });

  // The one page shell carries the import map, at / and at rules.html alike.
  it.each(['/', '/rules.html'])('serves every module of the import map of the page at %s, from this server', async (path) => {
    const html = (await raw(path)).body;
    expect(html).toBe(readFileSync(join(ROOT, 'web/index.html'), 'utf8'));
    const importMap = /<script type="importmap">([\s\S]*?)<\/script>/.exec(html)?.[1];
    const { imports } = JSON.parse(importMap ?? '{}') as { imports: Record<string, string> };
    expect(imports).toEqual(Object.fromEntries(Object.entries(VENDOR_MODULES).map(([specifier, name]) => [specifier, `/vendor/${name}`])));
    for (const url of Object.values(imports)) {
      expect(url).toMatch(/^\/vendor\//);
      const file = await raw(url);
      expect([url, file.status, file.headers['content-type']]).toEqual([url, 200, 'text/javascript; charset=utf-8']);
      expect(file.body).toBe(readFileSync(site.lookup(url)?.file ?? '', 'utf8'));
    }
  });

  it('answers HEAD with the headers alone', async () => {
    const head = await raw('/', 'HEAD');
    expect(head.status).toBe(200);
    expect(Number(head.headers['content-length'])).toBe(readFileSync(join(ROOT, 'web/index.html')).length);
    expect(head.body).toBe('');
  });

  it.each([...REFUSED, '/nope.css', '/app/nope.js', '/web/index.html'])('404 for %s, with nothing of the file', async (path) => {
    const answer = await raw(path);
    expect(answer.status).toBe(404);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'bad_message' } });
    expect(answer.body).not.toContain('"name": "yaniv-arena"');
  });

  it('404 for other methods, and /health is still the status', async () => {
    expect((await raw('/', 'POST')).status).toBe(404);
    expect((await raw('/style.css', 'DELETE')).status).toBe(404);
    const health = await raw('/health');
    expect(JSON.parse(health.body)).toMatchObject({ status: 'ok', protocol: 1 });
  });

  it('400 for a request target that is no URL path', async () => {
    const answer = await raw('http://[');
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'bad_message' } });
  });
});
