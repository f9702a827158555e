/**
 * The browser page on the server's own HTTP port. `GET /` is web/index.html, the one page shell,
 * and so is each of PAGE_PATHS (its entry module shows the view the path names); the page's other
 * files come from web/ (by extension: markup, styles, images — never its TypeScript), its
 * modules compiled by tsc (web/*.ts → dist/web/*.js) from /app/, the package's protocol client
 * (dist/client/, `yaniv-arena/client`: no imports but each other) from /client/, the rules
 * core's pure card and group modules (dist/env/rules/, no imports but each other) from
 * /env/rules/ — so that the page checks a group with the engine's own code —, and preact, its
 * hooks, htm and uqr (VENDOR_MODULES), found as Node resolves them (in this package's node_modules or, installed as a
 * dependency, beside it), under /vendor/: everything from this server, nothing from a CDN.
 *
 * A path is looked up only when each of its segments, once decoded, is a plain file name (no
 * dot segments, no hidden files, no slashes or NUL); the file must then lie inside its folder
 * and have a known content type. Anything else is "not here" (404).
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/** The headers of every HTTP answer of the server (files, JSON, errors): no content-type sniffing. */
export const BASE_HEADERS: Readonly<Record<string, string>> = { 'X-Content-Type-Options': 'nosniff' };

/** BASE_HEADERS as raw header lines, for the answers written straight to a socket (a refused upgrade, a request that is not HTTP). */
export const BASE_HEADER_LINES = Object.entries(BASE_HEADERS)
  .map(([name, value]) => `${name}: ${value}\r\n`)
  .join('');

/**
 * A page's policy: scripts, styles, images and connections (its WebSocket) from its own server
 * only, its inline scripts (the import map) allowed by their hashes, computed from the page
 * itself; never in a frame; no referrer sent on.
 */
export function pageHeaders(html: string): Record<string, string> {
  const inline = [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    ([, script]) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`,
  );
  const policy = [
    "default-src 'self'",
    `script-src 'self' ${inline.join(' ')}`.trim(),
    "style-src 'self'",
    "img-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ];
  return { 'Content-Security-Policy': policy.join('; '), 'X-Frame-Options': 'DENY', 'Referrer-Policy': 'no-referrer' };
}

/** The page's paths besides `/`, each served the one page shell: its entry (web/main.ts) shows the game, or How to play at rules.html. */
export const PAGE_PATHS: ReadonlySet<string> = new Set(['index.html', 'rules.html']);

/** What web/ itself serves: the page's TypeScript is served compiled, from /app/. */
const PAGE_FILES = new Set(['.html', '.css', '.svg', '.png', '.ico']);

/**
 * The other packages' modules the page imports (the view library and the invite's QR code), by
 * the specifier the page's import map gives each (web/index.html), served as /vendor/NAME: each the
 * ES module its package exports, which imports nothing.
 */
export const VENDOR_MODULES: Readonly<Record<string, string>> = {
  preact: 'preact.mjs',
  'preact/hooks': 'preact-hooks.mjs',
  htm: 'htm.mjs',
  uqr: 'uqr.mjs',
};

const VENDOR: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(VENDOR_MODULES).map(([specifier, name]) => [name, fileURLToPath(import.meta.resolve(specifier))]),
);

/** The rules core's modules the page imports (web/howto.ts: the group checker; web/difficulty.ts: the nearest rated size), compiled. */
export const BROWSER_RULES: ReadonlySet<string> = new Set(['cards.js', 'groups.js', 'tableSizes.js']);

const PLAIN_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

export interface StaticFile {
  readonly file: string;
  readonly contentType: string;
}

/** Maps URL paths to the page's files under `root` (the project folder). */
export class StaticSite {
  private readonly page: string;
  private readonly modules: string;
  private readonly rules: string;
  private readonly client: string;

  constructor(root: string) {
    this.page = resolve(root, 'web');
    this.modules = resolve(root, 'dist', 'web');
    this.rules = resolve(root, 'dist', 'env', 'rules');
    this.client = resolve(root, 'dist', 'client');
  }

  /** The file a URL path (as sent, percent-encoded) names, or null when there is none to serve. */
  lookup(urlPath: string): StaticFile | null {
    const segments = decodeSegments(urlPath);
    if (segments === null) return null;
    if (segments.length === 0 || (segments.length === 1 && PAGE_PATHS.has(segments[0]))) return this.inside(this.page, ['index.html']);
    const [first, ...rest] = segments;
    const extension = extname(segments[segments.length - 1]);
    if (first === 'vendor') {
      const file = rest.length === 1 && Object.hasOwn(VENDOR, rest[0]) ? VENDOR[rest[0]] : undefined;
      return file === undefined ? null : { file, contentType: CONTENT_TYPES['.mjs'] };
    }
    if (first === 'app') return extension === '.js' ? this.inside(this.modules, rest) : null;
    if (first === 'client') return extension === '.js' && rest.length === 1 ? this.inside(this.client, rest) : null;
    if (first === 'env')
      return rest.length === 2 && rest[0] === 'rules' && BROWSER_RULES.has(rest[1]) ? this.inside(this.rules, [rest[1]]) : null;
    return PAGE_FILES.has(extension) ? this.inside(this.page, segments) : null;
  }

  private inside(folder: string, segments: readonly string[]): StaticFile | null {
    const file = resolve(folder, ...segments);
    const contentType = CONTENT_TYPES[extname(file)];
    if (!file.startsWith(folder + sep) || contentType === undefined) return null;
    return { file, contentType };
  }
}

/** The decoded segments of a path whose every segment is a plain name (`/` is none), else null. */
function decodeSegments(urlPath: string): string[] | null {
  if (!urlPath.startsWith('/')) return null;
  if (urlPath === '/') return [];
  const segments: string[] = [];
  for (const raw of urlPath.slice(1).split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return null;
    }
    if (!PLAIN_NAME.test(segment) || segment.includes('..')) return null;
    segments.push(segment);
  }
  return segments;
}

/**
 * Answers a GET or HEAD for a file of the page; false (nothing written) when the path names
 * none, so that the caller answers 404.
 */
export async function serveStatic(site: StaticSite, req: IncomingMessage, res: ServerResponse, urlPath: string): Promise<boolean> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const found = site.lookup(urlPath);
  if (found === null) return false;
  let body: Buffer;
  try {
    body = await readFile(found.file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return false;
    throw error;
  }
  res.writeHead(200, {
    'Content-Type': found.contentType,
    'Content-Length': body.length,
    'Cache-Control': 'no-cache',
    ...BASE_HEADERS,
    ...(found.contentType === CONTENT_TYPES['.html'] ? pageHeaders(body.toString('utf8')) : {}),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}
