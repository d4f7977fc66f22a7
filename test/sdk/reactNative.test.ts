import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { gzipSync } from 'node:zlib';
import { useTestServer } from '../support/server';
import { reactNativeContext } from './reactNative';

const ROOT = path.resolve(__dirname, '../..');
/** Metro and its React Native config are CommonJS without declarations. */
const load = createRequire(__filename);

/**
 * An app's entry as a React Native app writes it: ES modules, the package by name, a token store
 * on AsyncStorage (the test's `host.storage` plays it), guest mode as the app runs. It plays one
 * whole game (the app's player and two bots), has its network cut once mid-game, checks the
 * record with verifyGame, and reports to the test through `__host`.
 */
const ENTRY = `import { CockroachClient, KINDS, SdkError, verifyGame } from '@cockroach-poker/client';

const host = globalThis.__host;
const pick = (list) => list[Math.floor(Math.random() * list.length)];
const FINE = ['STALE_ACTION', 'ACTION_PENDING', 'CONNECTION_LOST'];

async function act(session) {
  const s = session.snapshot;
  if (!s.myTurn) return;
  const claim = pick(KINDS);
  try {
    if (s.canDo.includes('offer')) await session.offer(pick(s.myHand).cardIds[0], pick(session.offerTargets().filter((t) => t.allowed)).id, claim, s.step);
    else if (s.canDo.includes('pass')) await session.pass(pick(session.passOptions().filter((t) => t.allowed)).id, claim, s.step);
    else if (session.peekAvailability().allowed && Math.random() < 0.3) await session.peek(s.step);
    else await session.call(Math.random() < 0.5, s.step);
  } catch (error) {
    if (!(error instanceof SdkError) || !FINE.includes(error.code)) host.fail(error);
  }
}

const storage = host.storage;
const store = {
  load: async () => JSON.parse((await storage.getItem('seat')) ?? 'null'),
  save: (seat) => storage.setItem('seat', JSON.stringify(seat)),
  clear: () => storage.removeItem('seat'),
  loadGuest: () => storage.getItem('guest'),
  saveGuest: (token) => storage.setItem('guest', token),
};

async function main() {
  const client = new CockroachClient(host.endpoint, { store, pingIntervalMs: 500, deadAfterMs: 2000 });
  const session = await client.create('앱');
  await session.addBot('easy');
  await session.addBot('smart');
  const seen = { lost: 0, back: 0, turns: 0 };
  session.on('connectionLost', () => seen.lost++);
  session.on('reconnected', () => seen.back++);
  session.on('myTurn', () => { seen.turns++; void act(session); });
  let cut = false;
  session.on('change', (s) => {
    if (!cut && s.step >= 4) {
      cut = true;
      host.cutNetwork();
    }
  });
  const over = new Promise((resolve) => session.once('gameOver', resolve));
  await session.start();
  const result = await over;
  if (session.snapshot.phase !== 'ended' || session.snapshot.gamesPlayed !== 1) throw new Error('the game did not end');
  const record = await (await fetch(host.httpEndpoint + '/api/games/' + result.gameId)).json();
  const verdict = verifyGame(record);
  const me = session.me;
  await session.leave();
  return { summary: result.summary, verified: verdict.ok, entropy: record.fairness.entropy[me], guest: await storage.getItem('guest'), ...seen };
}

main().then(host.done, host.fail);
`;

describe('the SDK in React Native: bundled by Metro, run without Node or a working URL', function () {
  this.timeout(300000);
  const ts = useTestServer({ botThinkMs: 5 });
  let scratch = '';
  let bundle = '';

  before(async () => {
    const packed = execFileSync('npm', ['run', '--silent', 'sdk:pack'], { cwd: ROOT, encoding: 'utf8' });
    const tarball = packed.trim().split('\n').pop()!;
    scratch = mkdtempSync(path.join(os.tmpdir(), 'cockroach-rn-app-'));
    writeFileSync(path.join(scratch, 'package.json'), JSON.stringify({ name: 'rn-app', private: true }));
    writeFileSync(path.join(scratch, 'index.js'), ENTRY);
    // A React Native app has @babel/runtime (its Babel preset's helpers import it): the version this repository's Metro brings.
    const runtime = (JSON.parse(readFileSync(load.resolve('@babel/runtime/package.json'), 'utf8')) as { version: string }).version;
    execFileSync(
      'npm',
      ['install', tarball, `@babel/runtime@${runtime}`, '--no-audit', '--no-fund', '--prefer-offline', '--loglevel', 'error'],
      {
        cwd: scratch,
        stdio: 'pipe',
      },
    );
    bundle = await metroBundle(scratch);
  });

  after(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('bundles with Metro under the settings docs/client-sdk.md gives: no Node module, nothing from the server', () => {
    const modules = [...bundle.matchAll(/__d\(/g)].length;
    const gzipped = gzipSync(bundle, { level: 9 }).length;
    console.log(
      `      Metro bundle (android, minified): ${(bundle.length / 1024).toFixed(1)} KB, ${(gzipped / 1024).toFixed(1)} KB gzipped, ${modules} modules`,
    );
    assert.ok(modules > 10 && modules < 120, `${modules} modules`);
    assert.doesNotMatch(bundle, /require\("(ws|http|https|net|tls|zlib|stream|crypto)"\)/);
  });

  for (const crypto of [false, true]) {
    it(`plays a whole game against a live server, through a cut network, with crypto ${crypto ? 'present' : 'absent'}`, async () => {
      const unhandled: unknown[] = [];
      const spy = (reason: unknown) => unhandled.push(reason);
      process.on('unhandledRejection', spy);
      let rn: ReturnType<typeof reactNativeContext> | undefined;
      try {
        const saved = new Map<string, string>();
        const report = await new Promise<Record<string, unknown>>((resolve, reject) => {
          const host = {
            storage: {
              getItem: async (key: string) => saved.get(key) ?? null,
              setItem: async (key: string, value: string) => void saved.set(key, String(value)),
              removeItem: async (key: string) => void saved.delete(key),
            },
            endpoint: ts.endpoint,
            httpEndpoint: ts.endpoint.replace(/^ws/, 'http'),
            done: resolve,
            fail: (error: unknown) => reject(error instanceof Error ? error : new Error(String(error))),
            cutNetwork: () => assert.equal(rn!.cutSockets(), 1),
          };
          rn = reactNativeContext({ crypto, host });
          for (const name of ['Buffer', 'process', 'require', 'global', 'module', 'TextDecoder'])
            assert.equal(vm.runInContext(`typeof ${name}`, rn.context), 'undefined', `${name} before the bundle`);
          assert.equal(vm.runInContext('typeof crypto', rn.context), crypto ? 'object' : 'undefined');
          vm.runInContext(bundle, rn.context, { filename: 'index.android.bundle' });
        });
        assert.match(String(report.summary), /패배/);
        assert.equal(report.verified, true, 'verifyGame in the app');
        assert.match(String(report.entropy), /^[0-9a-f]{32}$/, "the app's share of the seed");
        assert.deepEqual([report.lost, report.back], [1, 1], 'the cut network came back by itself');
        assert.ok(Number(report.turns) > 0);
        assert.deepEqual(rn!.urlReads, [], 'URL never read');
        // Guest mode: one identity fetched, kept in the app's storage, and carried by every matchmaking request.
        const guest = String(report.guest);
        assert.match(guest, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
        assert.deepEqual(
          rn!.requests.filter((r) => r.path === '/api/guest').map((r) => r.method),
          ['POST'],
        );
        const matchmaking = rn!.requests.filter((r) => r.path.startsWith('/matchmake/'));
        assert.equal(matchmaking[0]?.path.split('/')[2], 'create');
        assert.ok(
          matchmaking.some((r) => r.path.startsWith('/matchmake/reconnect/')),
          'the cut network came back through matchmaking',
        );
        assert.deepEqual(
          matchmaking.filter((r) => r.authorization !== `Bearer ${guest}`),
          [],
          'every request with the guest identity',
        );
        if (crypto) assert.ok(rn!.randomCalls > 0, 'crypto.getRandomValues used when there');
        assert.deepEqual(unhandled, []);
      } finally {
        process.off('unhandledRejection', spy);
        rn?.dispose();
      }
    });
  }
});

/** Metro itself, configured as docs/client-sdk.md tells an app team (React Native's defaults plus two settings). */
async function metroBundle(projectRoot: string): Promise<string> {
  const { getDefaultConfig, mergeConfig } = load('@react-native/metro-config');
  const Metro = load('metro');
  const fromRepo = (pkg: string) => path.dirname(load.resolve(`${pkg}/package.json`));
  const config = mergeConfig(getDefaultConfig(projectRoot), {
    resolver: {
      unstable_enablePackageExports: true,
      unstable_conditionNames: ['browser', 'require', 'react-native'],
    },
    // Differences from an app, all outside the SDK: react-native itself is not installed, so its
    // InitializeCore (which sets up the globals) is played by the test's context; Metro's
    // runtime polyfills come from this repository's node_modules; no cache, one worker.
    serializer: { getModulesRunBeforeMainModule: () => [] },
    projectRoot,
    watchFolders: [projectRoot, fromRepo('metro-runtime'), fromRepo('@react-native/js-polyfills')],
    cacheStores: [],
    maxWorkers: 1,
    reporter: { update: () => undefined },
  });
  const result = await Metro.runBuild(config, { entry: path.join(projectRoot, 'index.js'), platform: 'android', dev: false, minify: true });
  return result.code as string;
}
