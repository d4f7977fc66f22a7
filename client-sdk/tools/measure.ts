/**
 * What the packed SDK costs an app (figures for docs/client-sdk.md): the browser bundle
 * (esbuild, minified, gzipped) and what React Native's bundler pulls in, emulated with esbuild
 * under Metro's resolution (main fields react-native → browser → main; package exports with
 * the conditions given). Run: npx tsx client-sdk/tools/measure.ts. Metro itself bundles the
 * package in test/sdk/reactNative.test.ts, which prints that bundle's size.
 */
import { gzipSync } from 'node:zlib';
import { build, BuildOptions, Metafile } from 'esbuild';
import { buildSdk, STAGE } from './pack';

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

/** node_modules/<package>/… → the package; anything else is the SDK's own bundle. */
function owner(file: string): string {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  return m ? m[1] : '@cockroach-poker/client';
}

function byPackage(meta: Metafile): [string, number][] {
  const sizes = new Map<string, number>();
  for (const out of Object.values(meta.outputs)) {
    for (const [file, { bytesInOutput }] of Object.entries(out.inputs))
      sizes.set(owner(file), (sizes.get(owner(file)) ?? 0) + bytesInOutput);
  }
  return [...sizes].sort((a, b) => b[1] - a[1]);
}

async function bundle(label: string, entry: string, options: BuildOptions) {
  try {
    const result = await build({
      stdin: { contents: entry, resolveDir: STAGE, loader: 'js' },
      bundle: true,
      write: false,
      metafile: true,
      target: 'es2020',
      logLevel: 'silent',
      ...options,
    });
    const code = result.outputFiles![0].contents;
    const small = options.minify
      ? code
      : (
          await build({
            stdin: { contents: entry, resolveDir: STAGE, loader: 'js' },
            bundle: true,
            write: false,
            minify: true,
            target: 'es2020',
            logLevel: 'silent',
            ...options,
            metafile: false,
          })
        ).outputFiles![0].contents;
    const modules = Object.keys(result.metafile!.inputs).filter((f) => f !== '<stdin>');
    const gz = (bytes: Uint8Array) => kb(gzipSync(bytes, { level: 9 }).length);
    console.log(
      `\n## ${label}\n${kb(code.length)} as bundled (${gz(code)} gzipped); minified ${kb(small.length)} (${gz(small)} gzipped, level 9); ${modules.length} modules`,
    );
    for (const [pkg, bytes] of byPackage(result.metafile!)) console.log(`  ${pkg.padEnd(28)} ${kb(bytes)}`);
    if (!options.minify) for (const m of modules) console.log(`    ${m}  ${kb(result.metafile!.inputs[m].bytes)}`);
  } catch (error) {
    const errors = (error as { errors?: { text: string }[] }).errors ?? [];
    console.log(`\n## ${label}\nFAILS: ${[...new Set(errors.map((e) => e.text))].slice(0, 6).join('; ')}`);
  }
}

async function main() {
  await buildSdk();
  const esm = `export * from './dist/index.mjs';`;
  const cjs = `module.exports = require('./dist/index.cjs');`;
  await bundle('Browser (esbuild, platform browser, ESM, minified: the whole SDK)', esm, {
    platform: 'browser',
    format: 'esm',
    minify: true,
  });
  const metro: BuildOptions = { platform: 'neutral', format: 'cjs', mainFields: ['react-native', 'browser', 'main'] };
  await bundle("React Native, Metro with package exports and the 'browser' condition added", cjs, {
    ...metro,
    conditions: ['react-native', 'browser'],
  });
  await bundle("React Native, Metro's default conditions (react-native, require)", cjs, { ...metro, conditions: ['react-native'] });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
