import assert from 'node:assert/strict';
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { useTestServer } from '../support/server';

const ROOT = path.resolve(__dirname, '../..');
const run = promisify(execFile);
const TSC = require.resolve('typescript/bin/tsc');

/** An app's own code: strict TypeScript, no decorators, only the package's public API. */
const APP = `import { CockroachClient, GameSession, KINDS, SdkError, verifyGame } from '@cockroach-poker/client';
import type { GameSnapshot, Kind, CockroachResult } from '@cockroach-poker/client';

const endpoint: string = ENDPOINT;
function pick<T>(list: readonly T[]): T {
  return list[Math.floor(Math.random() * list.length)];
}

async function act(session: GameSession): Promise<void> {
  const s: GameSnapshot = session.snapshot;
  const claim: Kind = pick(KINDS);
  try {
    if (s.canDo.includes('offer')) await session.offer(pick(s.myHand).cardIds[0], pick(session.offerTargets().filter((t) => t.allowed)).id, claim, s.step);
    else if (s.canDo.includes('pass')) await session.pass(pick(session.passOptions().filter((t) => t.allowed)).id, claim, s.step);
    else if (session.peekAvailability().allowed && Math.random() < 0.3) await session.peek(s.step);
    else await session.call(Math.random() < 0.5, s.step);
  } catch (error) {
    if (!(error instanceof SdkError) || error.code !== 'STALE_ACTION') throw error;
  }
}

async function main(): Promise<string> {
  const session = await new CockroachClient(endpoint).create('앱');
  await session.addBot('easy');
  await session.addBot('smart');
  const over = new Promise<CockroachResult>((resolve) => session.once('gameOver', resolve));
  session.on('myTurn', () => void act(session));
  await session.start();
  const result = await over;
  if (session.snapshot.phase !== 'ended' || session.snapshot.gamesPlayed !== 1) throw new Error('the game did not end');
  if (!session.snapshot.seats.every((seat) => seat.hand !== null)) throw new Error('final hands missing');
  const record: unknown = await (await fetch(endpoint.replace(/^ws/, 'http') + '/api/games/' + result.gameId)).json();
  const verdict = verifyGame(record);
  if (!verdict.ok) throw new Error('verify: ' + verdict.mismatch);
  await session.leave();
  return result.summary;
}

main().then((summary) => console.log('ok ' + summary));
`;

const TSCONFIG = {
  compilerOptions: {
    strict: true,
    module: 'nodenext',
    moduleResolution: 'nodenext',
    target: 'es2022',
    lib: ['es2022', 'dom'],
    types: [],
    outDir: 'out',
    noEmitOnError: true,
    // What app templates (Expo, Vite) set; the strict check of the package's own declarations is below.
    skipLibCheck: true,
  },
  files: ['app.mts', 'app.cts'],
};

describe('the packed SDK (@cockroach-poker/client) in an app of its own', function () {
  this.timeout(300000);
  const ts = useTestServer({ botThinkMs: 5 });
  let scratch = '';

  before(() => {
    const packed = execFileSync('npm', ['run', '--silent', 'sdk:pack'], { cwd: ROOT, encoding: 'utf8' });
    const tarball = packed.trim().split('\n').pop()!;
    assert.match(tarball, /cockroach-poker-client-[\d.]+\.tgz$/);
    scratch = mkdtempSync(path.join(os.tmpdir(), 'cockroach-app-'));
    writeFileSync(path.join(scratch, 'package.json'), JSON.stringify({ name: 'scratch-app', private: true }));
    execFileSync('npm', ['install', tarball, '--no-audit', '--no-fund', '--prefer-offline', '--loglevel', 'error'], {
      cwd: scratch,
      stdio: 'pipe',
    });
  });

  after(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('installs with its two dependencies only: no server package, nothing reaching into ../server', () => {
    const modules = path.join(scratch, 'node_modules');
    const installed = readdirSync(modules).flatMap((name) =>
      name.startsWith('@') ? readdirSync(path.join(modules, name)).map((n) => `${name}/${n}`) : [name],
    );
    for (const wanted of ['@cockroach-poker/client', 'colyseus.js', '@colyseus/schema']) assert.ok(installed.includes(wanted), wanted);
    for (const serverOnly of [
      'colyseus',
      '@colyseus/core',
      '@colyseus/ws-transport',
      'express',
      'tsx',
      'typescript',
      'prom-client',
      'better-sqlite3',
      'pg',
    ]) {
      assert.ok(!installed.includes(serverOnly), `${serverOnly} was installed`);
    }
    const pkg = path.join(modules, '@cockroach-poker/client');
    const manifest = JSON.parse(readFileSync(path.join(pkg, 'package.json'), 'utf8'));
    assert.deepEqual(manifest.dependencies, { '@colyseus/schema': '2.0.37', 'colyseus.js': '0.15.28' });
    for (const file of ['index.mjs', 'index.cjs']) {
      const code = readFileSync(path.join(pkg, 'dist', file), 'utf8');
      const imports = [...code.matchAll(/(?:from |require\()"([^"]+)"/g)].map((m) => m[1]).sort();
      assert.deepEqual([...new Set(imports)], ['@colyseus/schema', 'colyseus.js'], file);
      assert.doesNotMatch(code, /@type\(|experimentalDecorators/, 'decorators are compiled away');
    }
  });

  it('compiles a strict TypeScript consumer (module nodenext, no decorator support) and plays a whole game with bots, from ESM and from CommonJS', async () => {
    const app = APP.replace('ENDPOINT', JSON.stringify(ts.endpoint));
    writeFileSync(path.join(scratch, 'app.mts'), app);
    writeFileSync(path.join(scratch, 'app.cts'), app);
    writeFileSync(path.join(scratch, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
    const compiled = spawnSync(process.execPath, [TSC, '-p', scratch], { cwd: scratch, encoding: 'utf8' });
    assert.equal(compiled.status, 0, compiled.stdout + compiled.stderr);
    // Every declaration checked too: errors may only be in the dependencies' own declarations
    // (schema 2.0's ArraySchema under strict, httpie's Node typings without @types/node).
    const checked = spawnSync(process.execPath, [TSC, '-p', scratch, '--noEmit', '--skipLibCheck', 'false'], {
      cwd: scratch,
      encoding: 'utf8',
    });
    const ours = checked.stdout
      .split('\n')
      .filter((line) => /^\S.*error TS/.test(line) && !/^node_modules\/(@colyseus\/schema|httpie)\//.test(line));
    assert.deepEqual(ours, []);
    // Run without blocking: the server answering it lives in this process.
    for (const entry of ['app.mjs', 'app.cjs']) {
      const { stdout } = await run(process.execPath, [path.join(scratch, 'out', entry)], { cwd: scratch, timeout: 120000 });
      assert.match(stdout, /^ok .*패배/m, entry);
    }
  });

  it('bundles for a browser with esbuild from the app folder', async () => {
    const result = await build({
      entryPoints: [path.join(scratch, 'app.mts')],
      absWorkingDir: scratch,
      bundle: true,
      minify: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
      define: { ENDPOINT: '"ws://localhost:2567"' },
    });
    const code = result.outputFiles[0].contents;
    const gzipped = gzipSync(code).length;
    assert.ok(gzipped > 10_000 && gzipped < 80_000, `${code.length} bytes, ${gzipped} gzipped`);
  });
});
