/**
 * Issue 25: `npm start` runs the compiled server with plain node. Here: the build swaps a fresh
 * tree in only when its sources changed (scripts/build.js, on a scratch checkout), and the server
 * that `npm start` runs (node scripts/start.js, no TypeScript loader) serves /health, /play and a
 * game: two players seated, the game started, a move played and seen by both.
 */
import assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'colyseus.js';
import { ROOM_NAME } from '../../server/protocol';
import { CockroachState } from '../../server/schema/CockroachState';
import { seedRng } from '../../server/rules';
import { chooseMove } from '../../loadtest/clientBot';
import { freePort, STATS_AGENT } from '../../loadtest/lib/serverProcess';
import { Tracked } from '../support/server';
import { tempDir } from '../support/tempDirs';

const ROOT = path.resolve(__dirname, '../..');

/** Resolves once `test()` holds (checked every 20 ms; the server's output arrives on its own). */
function until(test: () => boolean, ms = 10000): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const check = () => (test() ? resolve() : Date.now() - started > ms ? reject(new Error('timed out')) : setTimeout(check, 20));
    check();
  });
}

interface Builder {
  build(): { hash: string; seconds: number };
  ensureBuilt(log?: (line: string) => void): boolean;
  sourcesHash(): string;
  OUT: string;
}

/** A scratch checkout: the build script, tsconfig and a two-file server; node_modules linked. */
function scratchCheckout(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'build-test-'));
  fs.mkdirSync(path.join(dir, 'scripts'));
  fs.mkdirSync(path.join(dir, 'server', 'schema'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'scripts', 'build.js'), path.join(dir, 'scripts', 'build.js'));
  fs.copyFileSync(path.join(ROOT, 'tsconfig.json'), path.join(dir, 'tsconfig.json'));
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  // A schema class: the decorators must compile as @colyseus/schema needs them (field order, no define semantics).
  fs.writeFileSync(
    path.join(dir, 'server', 'schema', 'Thing.ts'),
    "import { Schema, type } from '@colyseus/schema';\nexport class Thing extends Schema {\n  @type('string') name = 'a';\n  @type('uint8') count = 1;\n}\n",
  );
  fs.writeFileSync(
    path.join(dir, 'server', 'index.ts'),
    "import { Encoder } from '@colyseus/schema';\nimport { Thing } from './schema/Thing';\nconst t = new Thing();\nt.count = 7;\nconsole.log(JSON.stringify({ fields: Object.keys((Thing as any)._definition.schema), bytes: t.encodeAll().length, json: t.toJSON() }));\nvoid Encoder;\n",
  );
  return dir;
}

describe('build: npm run build / npm start (issue 25)', function () {
  this.timeout(60000);

  describe('scripts/build.js', () => {
    let dir: string;
    let builder: Builder;
    before(() => {
      dir = scratchCheckout();
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the scratch checkout's own copy
      builder = require(path.join(dir, 'scripts', 'build.js')) as Builder;
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    const run = () =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, [path.join(dir, 'build', 'index.js')], { cwd: dir, env: { PATH: process.env.PATH } });
        let out = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (out += d));
        child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}: ${out}`))));
      });

    it('builds when build/ is missing, not again while the sources are the same', async () => {
      assert.equal(
        builder.ensureBuilt(() => undefined),
        true,
      );
      const out = JSON.parse(await run());
      assert.deepEqual(out.fields, ['name', 'count'], 'decorated fields registered in declaration order');
      assert.deepEqual(out.json, { name: 'a', count: 7 }, 'field initialisers run as assignments (useDefineForClassFields false)');
      assert.ok(out.bytes > 0);
      assert.equal(
        builder.ensureBuilt(() => undefined),
        false,
      );
    });

    it('rebuilds after a source changes, even with an older mtime, and drops output of deleted sources', async () => {
      const thing = path.join(dir, 'server', 'schema', 'Thing.ts');
      const extra = path.join(dir, 'server', 'extra.ts');
      fs.writeFileSync(extra, 'export const x = 1;\n');
      assert.equal(
        builder.ensureBuilt(() => undefined),
        true,
      );
      assert.ok(fs.existsSync(path.join(dir, 'build', 'extra.js')));
      const past = new Date(Date.now() - 86_400_000);
      fs.writeFileSync(thing, fs.readFileSync(thing, 'utf8').replace("name = 'a'", "name = 'b'"));
      fs.utimesSync(thing, past, past);
      fs.rmSync(extra);
      assert.equal(
        builder.ensureBuilt(() => undefined),
        true,
        'content changed: rebuilt whatever the mtime',
      );
      assert.equal(JSON.parse(await run()).json.name, 'b');
      assert.equal(fs.existsSync(path.join(dir, 'build', 'extra.js')), false, 'no output of a deleted source');
    });

    it('keeps the last good build when a source does not compile', () => {
      const before = fs.readFileSync(path.join(dir, 'build', '.sources'), 'utf8');
      const broken = path.join(dir, 'server', 'broken.ts');
      fs.writeFileSync(broken, 'export const = ;\n');
      assert.throws(() => builder.ensureBuilt(() => undefined), /build: compile failed/);
      assert.equal(fs.readFileSync(path.join(dir, 'build', '.sources'), 'utf8'), before);
      assert.deepEqual(
        fs.readdirSync(dir).filter((f) => f.startsWith('build')),
        ['build'],
        'no temporary tree left behind',
      );
      fs.rmSync(broken);
    });
  });

  describe('npm start (node scripts/start.js)', () => {
    let child: ChildProcess;
    let port: number;
    let output = '';
    const clients: Tracked[] = [];

    before(async () => {
      port = await freePort();
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        PORT: String(port),
        DATA_DIR: tempDir('cockroach-compiled-'),
        // Only the load tool's agent (plain JavaScript), which answers `stats` on stdin: nothing may bring a TypeScript loader in.
        NODE_OPTIONS: `--import ${STATS_AGENT}`,
      };
      child = spawn(process.execPath, ['scripts/start.js'], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
      child.stdout!.on('data', (d) => (output += d));
      child.stderr!.on('data', (d) => (output += d));
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', () => output.includes('"event":"listening"') && resolve());
        child.once('exit', (code) => reject(new Error(`server exited (${code}): ${output}`)));
      });
    });
    after(async () => {
      for (const c of clients) await c.leave().catch(() => undefined);
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
    });

    it('runs build/index.js with plain node: no TypeScript module loaded', async () => {
      const cmdline = fs.readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      assert.deepEqual(cmdline.slice(1), ['scripts/start.js']);
      output = '';
      child.stdin!.write('stats\n');
      await until(() => output.includes('{"loadtestStats"'));
      const stats = JSON.parse(output.slice(output.indexOf('{"loadtestStats"')).split('\n')[0]).loadtestStats;
      assert.equal(stats.tsModules, 0, 'the same figure is the count of server/*.ts files under tsx');
    });

    it('answers /health and serves /play', async () => {
      const health = await fetch(`http://127.0.0.1:${port}/health`);
      assert.equal(health.status, 200);
      assert.equal(((await health.json()) as { ok: boolean }).ok, true);
      const page = await fetch(`http://127.0.0.1:${port}/play/`);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /<html/i);
      const script = await fetch(`http://127.0.0.1:${port}/play/play.js`);
      assert.equal(script.status, 200);
      assert.ok((await script.arrayBuffer()).byteLength > 10_000, 'the bundle');
    });

    it('plays: a room created, joined, started, and a move seen by both players', async () => {
      const endpoint = `ws://127.0.0.1:${port}`;
      const host = new Tracked(await new Client(endpoint).create<CockroachState>(ROOM_NAME, { nickname: 'host' }, CockroachState), 'host');
      clients.push(host);
      const guest = new Tracked(
        await new Client(endpoint).joinById<CockroachState>(host.room.roomId, { nickname: 'guest' }, CockroachState),
        'guest',
      );
      clients.push(guest);
      await host.until(() => host.state.players.size === 2, 'two seated');
      host.room.send('start', {});
      await Promise.all([host, guest].map((c) => c.until(() => c.state.phase === 'playing', 'playing')));
      const step = host.state.step;
      const rng = seedRng('compiled');
      const mover = [host, guest].find((c) => chooseMove(c.state, c.id, rng) !== null)!;
      const move = chooseMove(mover.state, mover.id, rng)!;
      mover.room.send(move.type, move.payload);
      await Promise.all([host, guest].map((c) => c.until(() => c.state.step > step, 'the move')));
      assert.equal(host.state.round.hasCard, true, 'an offer is in flight');
      assert.equal(host.messagesOf('error').length + guest.messagesOf('error').length, 0);
    });
  });
});
