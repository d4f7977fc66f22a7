/**
 * Issue 25 item 2: MAX_CONNECTIONS' default follows the process's open-file limit (soft
 * RLIMIT_NOFILE) less headroom, is logged at start with its source, and an explicit
 * MAX_CONNECTIONS still wins. The live cases run npm start's server under `prlimit`.
 */
import assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import {
  connectionCapacity,
  FALLBACK_MAX_CONNECTIONS,
  MAX_CONNECTIONS_CEILING,
  parseOpenFileLimit,
  processConnectionCapacity,
} from '../../server/base/fileLimit';
import { CONNECTION_CAPACITY, opsConfigFromEnv } from '../../server/base/config';
import { freePort } from '../../loadtest/lib/serverProcess';
import { tempDir } from '../support/tempDirs';

const ROOT = path.resolve(__dirname, '../..');
const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max processes             95846                95846                processes
Max open files            20000                524288               files
Max locked memory         8388608              8388608              bytes
`;

describe('capacity: MAX_CONNECTIONS from the open-file limit (issue 25)', function () {
  this.timeout(60000);

  it('reads the soft and hard open-file limit from /proc/<pid>/limits text', () => {
    assert.deepEqual(parseOpenFileLimit(LIMITS), { soft: 20000, hard: 524288 });
    assert.deepEqual(parseOpenFileLimit(LIMITS.replace('20000                524288', 'unlimited            unlimited')), {
      soft: Infinity,
      hard: Infinity,
    });
    assert.equal(parseOpenFileLimit('Max processes 10 10 processes\n'), null);
    assert.equal(parseOpenFileLimit(''), null);
  });

  it('leaves 256 files of headroom, half of a small limit, and stays within 1..1,000,000', () => {
    const cases: [number | null, number][] = [
      [20000, 19744],
      [1024, 768],
      [65536, 65280],
      [400, 200],
      [3, 2],
      [1, 1],
      [1_048_576, MAX_CONNECTIONS_CEILING],
      [Infinity, MAX_CONNECTIONS_CEILING],
      [null, FALLBACK_MAX_CONNECTIONS],
    ];
    for (const [soft, max] of cases) assert.equal(connectionCapacity(soft).maxConnections, max, String(soft));
    assert.equal(connectionCapacity(1024).source, 'open-file limit 1024 (soft RLIMIT_NOFILE) - 256 headroom');
    assert.match(connectionCapacity(null).source, /no open-file limit/);
    assert.equal(
      processConnectionCapacity(() => {
        throw new Error('ENOENT');
      }).maxConnections,
      FALLBACK_MAX_CONNECTIONS,
    );
    assert.equal(processConnectionCapacity(() => LIMITS).maxConnections, 19744);
  });

  it("is this process's default; an explicit MAX_CONNECTIONS wins, with a warning past the limit", () => {
    const soft = parseOpenFileLimit(fs.readFileSync('/proc/self/limits', 'utf8'))!.soft;
    assert.equal(CONNECTION_CAPACITY.maxConnections, connectionCapacity(soft).maxConnections);
    assert.equal(opsConfigFromEnv(2567, {}).edge.maxConnections, CONNECTION_CAPACITY.maxConnections);
    assert.equal(opsConfigFromEnv(2567, { MAX_CONNECTIONS: '50' }).edge.maxConnections, 50);
    assert.deepEqual(opsConfigFromEnv(2567, { MAX_CONNECTIONS: '50' }).warnings, []);
    if (Number.isFinite(soft) && soft < MAX_CONNECTIONS_CEILING) {
      const over = opsConfigFromEnv(2567, { MAX_CONNECTIONS: String(MAX_CONNECTIONS_CEILING) });
      assert.equal(over.edge.maxConnections, MAX_CONNECTIONS_CEILING);
      assert.match(over.warnings.join('\n'), /MAX_CONNECTIONS 1000000 is more than the open-file limit leaves room for/);
    }
  });

  describe('npm start under a file limit of 400 (prlimit)', () => {
    const children: ChildProcess[] = [];
    const sockets: net.Socket[] = [];
    after(async () => {
      for (const s of sockets) s.destroy();
      for (const child of children) {
        if (child.exitCode !== null) continue;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
    });

    async function start(env: Record<string, string>): Promise<{ port: number; lines: () => any[] }> {
      const port = await freePort();
      const child = spawn('prlimit', ['--nofile=400:400', process.execPath, 'scripts/start.js'], {
        cwd: ROOT,
        env: { ...process.env, PORT: String(port), RATE_LIMITS: 'off', DATA_DIR: tempDir('cockroach-fd-'), ...env },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      children.push(child);
      let out = '';
      child.stdout!.on('data', (d) => (out += d));
      const lines = () =>
        out
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l));
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', () => lines().some((l) => l.event === 'listening') && resolve());
        child.once('exit', (code) => reject(new Error(`server exited (${code}): ${out}`)));
        child.once('error', (error) => reject(new Error(`prlimit (util-linux) runs the server here: ${error.message}`)));
      });
      return { port, lines };
    }

    const connect = (port: number) =>
      new Promise<net.Socket>((resolve, reject) => {
        const s = net.connect(port, '127.0.0.1', () => resolve(s));
        s.once('error', reject);
        sockets.push(s);
      });

    it('logs 200 from the limit; the 201st connection gets SERVER_BUSY while the server keeps its files', async () => {
      const { port, lines } = await start({});
      const listening = lines().find((l) => l.event === 'listening');
      assert.equal(listening.maxConnections, 200);
      assert.equal(listening.maxConnectionsFrom, 'open-file limit 400 (soft RLIMIT_NOFILE) - 200 headroom');
      const held: net.Socket[] = [];
      for (let i = 0; i < 200; i++) held.push(await connect(port));
      const extra = await connect(port);
      const reply = await new Promise<string>((resolve) => {
        let text = '';
        extra.on('data', (d) => (text += d));
        extra.on('close', () => resolve(text));
      });
      assert.match(reply, /^HTTP\/1.1 503/);
      assert.match(reply, /SERVER_BUSY/);
      // Room is made again as soon as connections go: the server still answers.
      for (const s of held.splice(0, 20)) s.destroy();
      let health = 0;
      while (health !== 200) {
        health = await fetch(`http://127.0.0.1:${port}/health`).then(
          (r) => r.status,
          () => 0,
        );
      }
    });

    it('an explicit MAX_CONNECTIONS wins, and past the limit it is logged as a warning', async () => {
      const { lines } = await start({ MAX_CONNECTIONS: '1000' });
      const listening = lines().find((l) => l.event === 'listening');
      assert.equal(listening.maxConnections, 1000);
      assert.equal(listening.maxConnectionsFrom, 'MAX_CONNECTIONS');
      const warning = lines().find((l) => l.event === 'config.warning');
      assert.match(warning.msg, /MAX_CONNECTIONS 1000 is more than the open-file limit leaves room for \(200\)/);
    });
  });
});
