/**
 * `/play`: the browser table (web/), bundled with esbuild from the client SDK and served by the
 * game server's own express app on its own port. The bundle is built once per process, in
 * memory, on the first request (or by `warmPlay()`), so `npm ci && npm start` on a fresh clone
 * serves it with no separate step and nothing built is written into the tree.
 * `npm run build:play` writes the same files to dist/play/ for anyone who wants them as files.
 */
import fs from 'node:fs';
import path from 'node:path';
import express, { Express, Request, Response } from 'express';

const WEB = path.resolve(__dirname, '../../web');

export interface PlayAssets {
  /** File name → contents and type: index.html, styles.css, play.js. */
  files: Map<string, { body: Buffer; type: string }>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** Bundles web/src/main.ts (the SDK and colyseus.js compiled in) and copies the page's shell. */
export async function buildPlay(opts: { minify?: boolean } = {}): Promise<PlayAssets> {
  const esbuild = await import('esbuild');
  const out = await esbuild.build({
    entryPoints: [path.join(WEB, 'src/main.ts')],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: ['es2020', 'safari14'],
    minify: opts.minify ?? true,
    sourcemap: 'linked',
    outfile: 'play.js',
    write: false,
    loader: { '.svg': 'text' },
    tsconfig: path.join(WEB, 'tsconfig.json'),
    logLevel: 'silent',
  });
  const files = new Map<string, { body: Buffer; type: string }>();
  for (const f of out.outputFiles) {
    const name = path.basename(f.path);
    files.set(name, { body: Buffer.from(f.contents), type: TYPES[path.extname(name)] });
  }
  for (const name of ['index.html', 'styles.css']) {
    files.set(name, { body: fs.readFileSync(path.join(WEB, name)), type: TYPES[path.extname(name)] });
  }
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

async function serve(name: string, res: Response) {
  let assets: PlayAssets;
  try {
    assets = await warmPlay();
  } catch (error) {
    console.error('play: build failed', error);
    res.status(503).type('text/plain; charset=utf-8').send('게임 화면을 준비하지 못했어요. 잠시 후에 다시 해요.');
    return;
  }
  const file = assets.files.get(name);
  if (!file) {
    res.status(404).type('text/plain; charset=utf-8').send('찾는 파일이 없어요.');
    return;
  }
  res.set(SECURITY_HEADERS);
  // The page itself is always fresh (a deploy changes the bundle under the same name).
  res.set('Cache-Control', 'no-cache');
  res.type(file.type).send(file.body);
}

/** Mounts `/play` (the page) and `/play/art/*` (the SVG art, served as source files). */
export function mountPlay(app: Express): void {
  const router = express.Router({ caseSensitive: true, strict: true });
  router.get('/', (_req, res) => void serve('index.html', res));
  router.get(/^\/(play\.js|play\.js\.map|styles\.css|index\.html)$/, (req: Request, res) => void serve(req.params[0], res));
  router.use(
    '/art',
    express.static(path.join(WEB, 'art'), {
      index: false,
      extensions: false,
      dotfiles: 'deny',
      maxAge: '1h',
      setHeaders: (res) => res.set(SECURITY_HEADERS),
    }),
  );
  // Anything else under /play (a bad path, `..`, a directory) is a plain 404, never an error page.
  router.use((_req, res) => void res.status(404).type('text/plain; charset=utf-8').send('찾는 파일이 없어요.'));
  // `/play` without the slash: relative asset paths in the page need the trailing one.
  app.get('/play', (req, res, next) => (req.path === '/play' ? res.redirect(301, '/play/') : next()));
  app.use('/play', router);
}

if (require.main === module) {
  // `npm run build:play`: the same bundle as files, for a CDN or for the app team to read.
  const outDir = path.resolve(__dirname, '../../dist/play');
  buildPlay({ minify: true })
    .then(({ files }) => {
      fs.mkdirSync(outDir, { recursive: true });
      for (const [name, file] of files) fs.writeFileSync(path.join(outDir, name), file.body);
      fs.cpSync(path.join(WEB, 'art'), path.join(outDir, 'art'), { recursive: true });
      console.log(outDir);
    })
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
