#!/usr/bin/env node
/**
 * `npm run build`: compiles the server (server/**) into build/ (build/index.js is the entry point),
 * so that production runs plain JavaScript with no TypeScript loader. `npm start`
 * (scripts/start.js) calls `ensureBuilt()`: it builds only when build/ is missing or was built
 * from other sources.
 *
 * The compiler is esbuild, file by file, CommonJS for Node 20, with tsconfig.json's decorator
 * settings (experimentalDecorators, useDefineForClassFields false, as @colyseus/schema needs):
 * the same transform tsx applies when the tests run the sources, so the compiled server is the
 * code the tests exercised, in about 0.2 s (tsc needs 5–20 s here). Types are checked by
 * `npm run typecheck`; the server is safe to compile file by file (`tsc --isolatedModules` finds
 * nothing). Dependencies stay in node_modules, required at run time (better-sqlite3 is native).
 * build/index.js sits one level below the root like server/index.ts, so paths relative to a
 * file (web/ for /play) hold in both.
 *
 * "Other sources" is a content hash of every input (server/**, the tsconfigs, the lockfile and
 * this file) kept in build/.sources: it holds across git checkouts, copies and clock changes,
 * where mtimes would not. The new tree is compiled beside build/ and swapped in whole, so a
 * failed compile never leaves half a build behind, and no .js of a deleted source lingers.
 */
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS for plain node, run before anything is compiled */
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const OUT = path.join(ROOT, 'build');
const STAMP = '.sources';
const INPUT_FILES = ['tsconfig.json', 'package-lock.json', 'scripts/build.js'];
const INPUT_DIRS = ['server'];

function listFiles(dir) {
  const entries = fs.readdirSync(dir, { withFileTypes: true });
  return entries.flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return listFiles(full);
    return e.isFile() && e.name.endsWith('.ts') ? [full] : [];
  });
}

/** Hash of every input's path and content. */
function sourcesHash() {
  const files = [...INPUT_FILES.map((f) => path.join(ROOT, f)), ...INPUT_DIRS.flatMap((d) => listFiles(path.join(ROOT, d)))]
    .filter((f) => fs.existsSync(f))
    .sort();
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(path.relative(ROOT, file)).update('\0');
    hash.update(fs.readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

function builtHash() {
  try {
    return fs.readFileSync(path.join(OUT, STAMP), 'utf8').trim();
  } catch {
    return null;
  }
}

/** Compiles into a fresh directory, then swaps it in for build/. Throws on a compile error. */
function build() {
  const started = Date.now();
  const hash = sourcesHash();
  let esbuild;
  try {
    esbuild = require(require.resolve('esbuild', { paths: [ROOT] }));
  } catch {
    throw new Error('build: esbuild is not installed (npm ci installs it; building needs the devDependencies)');
  }
  const tmp = `${OUT}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  try {
    esbuild.buildSync({
      entryPoints: INPUT_DIRS.flatMap((d) => listFiles(path.join(ROOT, d))),
      outdir: tmp,
      outbase: path.join(ROOT, 'server'),
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      // import() of our own files as require(), as tsc does for CommonJS (node cannot import './http/play' without its extension).
      supported: { 'dynamic-import': false },
      tsconfig: path.join(ROOT, 'tsconfig.json'),
      logLevel: 'silent',
    });
  } catch (error) {
    fs.rmSync(tmp, { recursive: true, force: true });
    const where = (error.errors ?? []).map(
      (e) => `${e.location ? `${e.location.file}:${e.location.line}:${e.location.column}: ` : ''}${e.text}`,
    );
    throw new Error(`build: compile failed\n${where.length ? where.join('\n') : error.message}`);
  }
  fs.writeFileSync(path.join(tmp, STAMP), `${hash}\n`);
  const old = `${OUT}.old-${process.pid}`;
  try {
    if (fs.existsSync(OUT)) fs.renameSync(OUT, old);
    fs.renameSync(tmp, OUT);
  } catch (error) {
    // Another build of the same checkout swapped its tree in at the same moment: keep it if it is this one.
    fs.rmSync(tmp, { recursive: true, force: true });
    if (builtHash() !== hash) throw error;
  }
  fs.rmSync(old, { recursive: true, force: true });
  return { hash, seconds: (Date.now() - started) / 1000 };
}

/** Builds when build/ is missing or stale; returns whether it did. */
function ensureBuilt(log = (line) => process.stderr.write(`${line}\n`)) {
  const wanted = sourcesHash();
  if (builtHash() === wanted && fs.existsSync(path.join(OUT, 'index.js'))) return false;
  log(fs.existsSync(OUT) ? 'build: sources changed since the last build, compiling…' : 'build: no build yet, compiling…');
  const { seconds } = build();
  log(`build: done in ${seconds.toFixed(1)} s`);
  return true;
}

module.exports = { build, ensureBuilt, sourcesHash, OUT };

if (require.main === module) {
  try {
    const { seconds } = build();
    console.log(`build: ${path.relative(process.cwd(), OUT) || OUT} in ${seconds.toFixed(1)} s`);
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
