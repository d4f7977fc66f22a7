/**
 * `npm run sdk:pack`: builds `@cockroach-poker/client` (ESM and CommonJS bundles of the SDK with
 * the pure shared code it uses compiled in, so no decorators and no `../server` at run time;
 * declarations by tsc) in dist/sdk-package/ with client-sdk/package.json as its manifest, and
 * packs it into dist/. The last line printed is the tarball's path. Nothing is written into the
 * source tree.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build, BuildOptions, Metafile } from 'esbuild';

export const ROOT = path.resolve(__dirname, '../..');
const SDK = path.join(ROOT, 'client-sdk');
const PACKED = path.join(ROOT, 'dist');
/** The package's folder: client-sdk/package.json and README.md, with the build in its dist/. */
export const STAGE = path.join(PACKED, 'sdk-package');
const OUT = path.join(STAGE, 'dist');

/** The package's only dependencies: everything else is compiled in. */
export const SDK_DEPENDENCIES = ['colyseus.js', '@colyseus/schema'];

/**
 * What may be compiled in: the SDK and the pure shared code (rules, schema classes, protocol
 * names, the fairness check, and what a client sees of Colyseus: server/colyseus/client.ts).
 */
export const SHARED_PURE =
  /^(client-sdk\/(?!tools\/|example\.ts|bots\.ts)[^/]+\.ts|server\/(rules|fairness)\/[^/]+\.ts|server\/schema\/(CockroachState|playerView)\.ts|server\/protocol\.ts|server\/colyseus\/client\.ts)$/;

export const BUNDLE: BuildOptions = {
  entryPoints: [path.join(SDK, 'index.ts')],
  bundle: true,
  external: SDK_DEPENDENCIES,
  platform: 'neutral',
  // Hermes (React Native) and every current browser run ES2020.
  target: 'es2020',
  sourcemap: true,
  metafile: true,
  logLevel: 'warning',
  // The schema classes use legacy decorators: compiled here, so the app's toolchain never sees them.
  tsconfigRaw: { compilerOptions: { experimentalDecorators: true, useDefineForClassFields: false } },
};

function checkInputs(metafile: Metafile): void {
  const outside = Object.keys(metafile.inputs).filter((file) => !SHARED_PURE.test(file));
  if (outside.length) throw new Error(`not shared pure code, refusing to ship: ${outside.join(', ')}`);
}

export async function buildSdk(): Promise<void> {
  rmSync(STAGE, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  for (const file of ['package.json', 'README.md']) copyFileSync(path.join(SDK, file), path.join(STAGE, file));
  for (const format of ['esm', 'cjs'] as const) {
    const result = await build({
      ...BUNDLE,
      absWorkingDir: ROOT,
      format,
      outfile: path.join(OUT, format === 'esm' ? 'index.mjs' : 'index.cjs'),
    });
    checkInputs(result.metafile!);
  }
  execFileSync(
    process.execPath,
    [require.resolve('typescript/bin/tsc'), '-p', path.join(SDK, 'tsconfig.build.json'), '--outDir', path.join(OUT, 'types')],
    { stdio: 'inherit' },
  );
  // ESM-typed entry for `import`; the declarations themselves are one tree for both formats.
  writeFileSync(path.join(OUT, 'index.d.mts'), "export * from './types/client-sdk/index.js';\n");
}

export function packSdk(): string {
  mkdirSync(PACKED, { recursive: true });
  const out = execFileSync('npm', ['pack', '--pack-destination', PACKED, '--loglevel', 'error'], { cwd: STAGE, encoding: 'utf8' });
  const name = out.trim().split('\n').pop()!.trim();
  return path.join(PACKED, name);
}

if (require.main === module) {
  buildSdk()
    .then(() => console.log(packSdk()))
    .catch((error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    });
}
