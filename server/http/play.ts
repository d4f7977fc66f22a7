/**
 * `/play`: the browser table (web/), bundled with esbuild from the client SDK and served by the
 * game server's own express app on its own port. The bundle is built once per process, in
 * memory, on the first request (or by `warmPlay()`), so `npm ci && npm start` on a fresh clone
 * serves it with no separate step and nothing built is written into the tree.
 * Each file is compressed once, when it is built (gzip and brotli, in libuv's thread pool, not on
 * the event loop), and every request picks the stored variant its Accept-Encoding allows.
 * No source map is built, served or linked unless PLAY_SOURCEMAP=1 (development).
 * `npm run build:play` writes the same files to dist/play/ for anyone who wants them as files.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import express, { Express, Request, Response } from 'express';
import { edgeFailed } from './edgeMetrics';
import { notFound, sendJsonError } from './errors';

const WEB = path.resolve(__dirname, '../../web');
/** esbuild's (never written) output directory: output paths are taken relative to it. */
const OUT = path.join(WEB, 'out');
const SKIN_DIRS = ['bugs', 'animals'];

export type Encoding = 'br' | 'gzip' | 'identity';

export interface PlayAsset {
  type: string;
  /** The bytes per content coding; a compressed variant only when it is smaller. */
  bodies: Partial<Record<Encoding, Buffer>> & { identity: Buffer };
  /** A hash of the identity bytes; each coding's ETag adds its name (a strong validator per variant). */
  hash: string;
  /** Chunks (hashed names) keep for good, art an hour; the page, bundle and style are revalidated (a deploy changes them in place). */
  cacheControl: string;
}

export interface PlayAssets {
  /** Path under /play/ → asset: index.html, styles.css, play.js, chunks/*.js (+ maps on request), art/<skin>/<kind>.svg. */
  files: Map<string, PlayAsset>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml; charset=utf-8',
};

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

async function asset(name: string, identity: Buffer): Promise<PlayAsset> {
  // A development source map is read on the same machine: the best compression is for what phones load.
  const best = !name.endsWith('.map');
  const [gz, br] = await Promise.all([
    gzip(identity, { level: best ? zlib.constants.Z_BEST_COMPRESSION : 1 }),
    brotli(identity, {
      params: {
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_QUALITY]: best ? zlib.constants.BROTLI_MAX_QUALITY : 1,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      },
    }),
  ]);
  const bodies: PlayAsset['bodies'] = { identity };
  if (gz.length < identity.length) bodies.gzip = gz;
  if (br.length < identity.length) bodies.br = br;
  return {
    type: TYPES[path.extname(name)],
    bodies,
    hash: crypto.createHash('sha256').update(identity).digest('base64url').slice(0, 22),
    cacheControl: name.startsWith('chunks/')
      ? 'public, max-age=31536000, immutable'
      : name.startsWith('art/')
        ? 'public, max-age=3600'
        : 'no-cache',
  };
}

/** Whether `PLAY_SOURCEMAP=1` asks for the bundle's source map (development only). */
export function sourceMapWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.PLAY_SOURCEMAP === '1';
}

/** Bundles web/src/main.ts (the SDK and colyseus.js compiled in), adds the page's shell and art, compresses each. */
export async function buildPlay(opts: { minify?: boolean; sourcemap?: boolean } = {}): Promise<PlayAssets> {
  const esbuild = await import('esbuild');
  const out = await esbuild.build({
    entryPoints: [path.join(WEB, 'src/main.ts')],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: ['es2020', 'safari14'],
    minify: opts.minify ?? true,
    // 'linked' adds the `//# sourceMappingURL` comment; false builds neither the map nor the link.
    sourcemap: (opts.sourcemap ?? sourceMapWanted()) ? 'linked' : false,
    // Code loaded only when needed (the invite's QR generator) goes to chunks/ under hashed names.
    splitting: true,
    outdir: OUT,
    entryNames: 'play',
    chunkNames: 'chunks/[name]-[hash]',
    write: false,
    loader: { '.svg': 'text' },
    tsconfig: path.join(WEB, 'tsconfig.json'),
    logLevel: 'silent',
  });
  const raw = new Map<string, Buffer>();
  for (const f of out.outputFiles) raw.set(path.relative(OUT, f.path).split(path.sep).join('/'), Buffer.from(f.contents));
  for (const name of ['index.html', 'styles.css']) raw.set(name, fs.readFileSync(path.join(WEB, name)));
  for (const skin of SKIN_DIRS) {
    for (const file of fs.readdirSync(path.join(WEB, 'art', skin))) {
      if (file.endsWith('.svg')) raw.set(`art/${skin}/${file}`, fs.readFileSync(path.join(WEB, 'art', skin, file)));
    }
  }
  const files = new Map<string, PlayAsset>();
  for (const [name, body] of raw) files.set(name, await asset(name, body));
  return { files };
}

let building: Promise<PlayAssets> | null = null;

/** Starts the build now (e.g. at boot) so the first visitor does not wait for it. */
export function warmPlay(): Promise<PlayAssets> {
  building ??= buildPlay();
  // A failed build is retried on the next request rather than remembered forever.
  building.catch(() => {
    building = null;
  });
  return building;
}

const SECURITY_HEADERS = {
  'Content-Security-Policy':
    "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/**
 * The coding to send for an Accept-Encoding header (RFC 9110 §12.5.3): brotli, then gzip, when
 * the client accepts them with a q-value above 0 (by name or by `*`); otherwise the plain bytes.
 */
export function pickEncoding(header: string | undefined, available: ReadonlySet<Encoding>): Encoding {
  if (!header) return 'identity';
  const q = new Map<string, number>();
  for (const part of header.split(',').slice(0, 32)) {
    const [rawName, ...params] = part.toLowerCase().split(';');
    const name = rawName.trim();
    if (!name) continue;
    let weight = 1;
    for (const param of params) {
      const [key, value] = param.split('=').map((x) => x.trim());
      if (key !== 'q') continue;
      // A q-value that is not one (qvalue = 0[.ddd] / 1[.000]) accepts nothing.
      weight = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(value ?? '') ? Number(value) : 0;
    }
    if (!q.has(name)) q.set(name, weight);
  }
  const accepted = (coding: Encoding) => (q.get(coding) ?? q.get('*') ?? 0) > 0;
  for (const coding of ['br', 'gzip'] as const) if (available.has(coding) && accepted(coding)) return coding;
  return 'identity';
}

async function serve(name: string, req: Request, res: Response) {
  let assets: PlayAssets;
  try {
    assets = await warmPlay();
  } catch (error) {
    edgeFailed('play', error);
    sendJsonError(res, 503, 'SERVER_ERROR');
    return;
  }
  const file = assets.files.get(name);
  if (!file) return notFound(req, res);
  const coding = pickEncoding(req.get('accept-encoding'), new Set(Object.keys(file.bodies) as Encoding[]));
  res.set(SECURITY_HEADERS);
  res.set('Cache-Control', file.cacheControl);
  // Every variant is chosen by Accept-Encoding, so caches must key on it (even for identity).
  res.set('Vary', 'Accept-Encoding');
  res.set('ETag', `"${file.hash}-${coding}"`);
  if (coding !== 'identity') res.set('Content-Encoding', coding);
  res.type(file.type);
  // res.send answers 304 itself when If-None-Match names this variant's ETag, and sends no body to HEAD.
  res.send(file.bodies[coding]);
}

const ASSET_PATH =
  /^\/(play\.js|play\.js\.map|styles\.css|index\.html|art\/(?:bugs|animals)\/[a-z]{1,16}\.svg|chunks\/[A-Za-z0-9_-]{1,64}\.js(?:\.map)?)$/;

/** Mounts `/play` (the page, its bundle, style and art, from memory). */
export function mountPlay(app: Express): void {
  const router = express.Router({ caseSensitive: true, strict: true });
  router.get('/', (req, res) => void serve('index.html', req, res));
  router.get(ASSET_PATH, (req: Request, res) => void serve(req.params[0], req, res));
  // Anything else under /play (a bad path, `..`, a directory) is the JSON 404 of every other path.
  router.use(notFound);
  // `/play` without the slash: relative asset paths in the page need the trailing one. The query
  // (an invite's `?code=`) goes along.
  app.get('/play', (req, res, next) => {
    if (req.path !== '/play') return next();
    const query = req.originalUrl.indexOf('?');
    res.redirect(301, `/play/${query >= 0 ? req.originalUrl.slice(query) : ''}`);
  });
  app.use('/play', router);
}

if (require.main === module) {
  // `npm run build:play`: the same bundle as files, for a CDN or for the app team to read.
  const outDir = path.resolve(__dirname, '../../dist/play');
  buildPlay({ minify: true })
    .then(({ files }) => {
      for (const [name, file] of files) {
        fs.mkdirSync(path.dirname(path.join(outDir, name)), { recursive: true });
        fs.writeFileSync(path.join(outDir, name), file.bodies.identity);
      }
      console.log(outDir);
    })
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
