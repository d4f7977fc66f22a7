import assert from 'node:assert/strict';
import { spawn, spawnSync, ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { matchMaker } from 'colyseus';
import { Client } from 'colyseus.js';
import { freePort } from '../../loadtest/lib/serverProcess';
import { CockroachState } from '../../server/schema/CockroachState';
import type { TestServer } from '../support/server';
import { Tracked } from '../support/server';
import { bootEdge, post, request, roomCount, ROOM_NAME, waitFor } from './support';

const NGINX = '/usr/sbin/nginx';
const EXAMPLE = path.resolve(__dirname, '..', '..', 'docs', 'nginx.conf');

function hasNginx(): boolean {
  const probe = spawnSync(NGINX, ['-v'], { stdio: 'ignore' });
  return probe.error === undefined && probe.status === 0;
}

/** docs/nginx.conf with its addresses, port and TLS swapped for the test's, in a whole nginx.conf. */
function testConfig(dir: string, listen: number, backend: number): string {
  const example = readFileSync(EXAMPLE, 'utf8')
    .replaceAll('10.0.0.5:2567', `127.0.0.1:${backend}`)
    .replaceAll('10.0.0.6:2567', `127.0.0.1:${backend}`)
    .replace('listen 443 ssl;', `listen 127.0.0.1:${listen};`)
    .split('\n')
    .filter((line) => !/^\s*ssl_certificate/.test(line))
    .join('\n');
  assert.ok(!example.includes('10.0.0.'), 'every address replaced');
  const temp = (name: string) => `${name}_temp_path ${path.join(dir, name)};`;
  return [
    `pid ${path.join(dir, 'nginx.pid')};`,
    `error_log ${path.join(dir, 'error.log')} warn;`,
    'worker_processes 1;',
    'events { worker_connections 256; }',
    'http {',
    '  access_log off;',
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((n) => `  ${temp(n)}`),
    example,
    '}',
  ].join('\n');
}

function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port }, () => (s.destroy(), resolve(true)));
    s.on('error', () => resolve(false));
  });
}

describe('http: the nginx example (docs/nginx.conf) with Debian nginx in front of a real server', function () {
  this.timeout(30000);
  let nginx: ChildProcess | null = null;
  let dir = '';
  let ts: TestServer;
  let port = 0;
  let stderr = '';

  before(async function () {
    if (!hasNginx()) {
      if (process.env.CI === 'true' || process.env.CI === '1')
        throw new Error(`CI must run the nginx test, but ${NGINX} is missing (apt-get install -y nginx)`);
      console.log(`      SKIPPED (no nginx): ${NGINX} not found; apt-get install -y nginx`);
      this.skip();
    }
    port = await freePort();
    // The backend even serves /metrics publicly here: nginx must be what keeps it in.
    ts = await bootEdge(
      { trustedProxies: ['127.0.0.1'], opsOnPublicPort: true, addressCreatesPerMinute: 4 },
      { publicAddress: `127.0.0.1:${port}/p1` },
    );
    dir = mkdtempSync(path.join(os.tmpdir(), 'cockroach-nginx-'));
    writeFileSync(path.join(dir, 'nginx.conf'), testConfig(dir, port, ts.server.port));
    nginx = spawn(NGINX, ['-p', dir, '-e', path.join(dir, 'error.log'), '-c', path.join(dir, 'nginx.conf'), '-g', 'daemon off;'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    nginx.stderr!.on('data', (d) => (stderr += d));
    let exited: number | null = null;
    nginx.once('exit', (code) => (exited = code ?? -1));
    await waitFor(async () => exited !== null || (await accepting(port)), 'nginx listening', 10_000);
    if (exited !== null) throw new Error(`nginx exited (${exited}): ${stderr}`);
  });

  after(async () => {
    if (nginx && nginx.exitCode === null) {
      const gone = new Promise((r) => nginx!.once('exit', r));
      nginx.kill('SIGTERM');
      await gone;
    }
    if (ts) {
      await Promise.all(matchMaker.disconnectAll());
      await ts.server.close();
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('answers 404 for the ops routes and anything that is not game traffic', async () => {
    assert.equal((await request(ts.server.port, 'GET', '/metrics')).status, 200, 'the backend itself would answer');
    for (const p of [
      '/metrics',
      '/METRICS',
      '/p1/metrics',
      '/p2/metrics',
      '/colyseus/',
      '/p1/colyseus/api',
      '/ready',
      '/health',
      '/p1/ready',
      '/matchmake/cockroach-poker/x',
      '/favicon.ico',
      '/p1/../metrics',
      '/%6Detrics',
    ]) {
      assert.equal((await request(port, 'GET', p)).status, 404, p);
    }
    // A WebSocket path without the upgrade is not served either.
    assert.equal((await request(port, 'GET', '/p1/abc/def')).status, 404);
  });

  it('creates no room for matchmaking hidden under another path, and refuses big bodies itself', async () => {
    for (const p of [`/p1/matchmake/create/${ROOM_NAME}`, `/ready?x=/matchmake/create/${ROOM_NAME}`, `/MATCHMAKE/create/${ROOM_NAME}`]) {
      assert.equal((await post(port, p, { nickname: '민수' })).status, 404, p);
    }
    assert.equal((await request(port, 'GET', `/matchmake/create/${ROOM_NAME}`)).status, 403, 'matchmaking is POST only');
    assert.equal((await post(port, `/matchmake/create/${ROOM_NAME}`, { nickname: '민수', pad: 'x'.repeat(10_000) })).status, 413);
    assert.equal(await roomCount(), 0);
  });

  it('carries a whole join through: matchmaking, the WebSocket upgrade to /p1/{processId}/{roomId}, a spectator', async () => {
    const client = new Client(`ws://127.0.0.1:${port}`);
    const host = new Tracked(await client.create<CockroachState>(ROOM_NAME, { nickname: '방장' }, CockroachState), 'host');
    await host.until(() => host.state.players.size === 1, 'host seated through nginx');
    const friend = new Tracked(await client.joinById<CockroachState>(host.room.roomId, { nickname: '친구' }, CockroachState), 'friend');
    const watcher = await client.joinById(host.room.roomId, { spectator: true });
    await host.until(() => host.state.players.size === 2, 'friend seated');
    assert.equal(friend.state.players.size, 2);
    const pong = new Promise((resolve) => host.room.onMessage('pong', resolve));
    host.room.send('ping', { t: 1 });
    await pong;
    await Promise.all([host.room.leave(), friend.room.leave(), watcher.leave()]);
  });

  it('overwrites X-Forwarded-For: a client cannot pick the address the limits count', async () => {
    // One create went through above (the host); the limit is 4 a minute for the one real address.
    const spoofed = [];
    for (let i = 0; i < 4; i++)
      spoofed.push(await post(port, `/matchmake/create/${ROOM_NAME}`, { nickname: `속임${i}` }, { 'x-forwarded-for': `198.51.100.${i}` }));
    assert.deepEqual(
      spoofed.map((r) => r.json?.code ?? 'created'),
      ['created', 'created', 'created', 'TOO_MANY_REQUESTS'],
    );
  });

  it('passes guest tokens (POST only), room codes as typed, and reconnections', async () => {
    const guest = await request(port, 'POST', '/api/guest', '');
    assert.equal(guest.status, 200);
    assert.ok(typeof guest.json.token === 'string');
    assert.equal((await request(port, 'GET', '/api/guest')).status, 403);
    for (const code of ['123%20456', '123-456']) {
      const reply = await post(port, `/matchmake/joinById/${code}`, { nickname: '민수' });
      assert.equal(reply.json?.code, 'ROOM_NOT_FOUND', `${code}: answered by the server`);
    }
    const reconnect = await post(port, '/matchmake/reconnect/abc', { reconnectionToken: 'x' });
    assert.equal(reconnect.json?.code, 4212, 'answered by the server');
    const renewed = await request(port, 'POST', '/api/guest/renew', '{}', { authorization: `Bearer ${guest.json.token}` });
    assert.equal(renewed.status, 200, renewed.body);
    assert.equal((await request(port, 'GET', '/api/guest/renew')).status, 403);
  });

  it("tells the processes the browser's origin: a page of the site is served, a foreign one refused (issue 32)", async () => {
    const own = `http://127.0.0.1:${port}`;
    const same = await request(port, 'POST', '/api/guest', '{}', { origin: own });
    assert.equal(same.status, 200, same.body);
    assert.equal(same.headers['access-control-allow-origin'], own);
    const foreign = await request(port, 'POST', '/api/guest', '{}', { origin: 'https://evil.example' });
    assert.equal(foreign.json?.code, 'FORBIDDEN_ORIGIN');
    assert.equal(foreign.headers['access-control-allow-origin'], undefined);
  });

  it('passes /play and /api/games/ (GET only) to the server', async () => {
    const play = await request(port, 'GET', '/play');
    assert.equal(play.status, 301);
    const games = await request(port, 'GET', '/api/games/nosuchgame');
    assert.doesNotMatch(games.body, /<center>nginx/, 'answered by the server, not nginx');
    assert.equal((await request(port, 'POST', '/api/games/nosuchgame', '{}')).status, 403);
  });
});
