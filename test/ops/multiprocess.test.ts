import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Redis from 'ioredis';
import { decodeJwt } from 'jose';
import { FLEET_REVOKED_KEY, FLEET_SIGNING_KEY } from '../../server/identity/guestFleet';
import { freshDataDir, request } from '../http/support';
import { Client, RoomAvailable } from 'colyseus.js';
import { CockroachState } from '../../server/schema/CockroachState';
import { startServerProcess, ServerProcess } from '../../loadtest/lib/serverProcess';
import { Tracked } from '../support/server';
import { ROOM_COUNT_KEY } from '../../server/colyseus/redisKeys';
import {
  createAt,
  exitCode,
  httpGet,
  joinAt,
  metric,
  playToEnd,
  ROOM,
  scrape,
  socketPort,
  requireTestRedis,
  startTestRedis,
  TestRedis,
  waitFor,
} from './support';

/** A listing entry as Colyseus 0.15 serves it (colyseus.js types leave these two out). */
type Listed = RoomAvailable & { processId: string; publicAddress?: string };

/**
 * Two `npm start` processes on one Redis (a private redis-server when the binary exists): to a
 * client they must behave as one server. Skipped without Redis, except in CI, where it fails.
 */
describe('ops: two processes on one Redis behave as one server', function () {
  this.timeout(90000);
  let redis: TestRedis | null = null;
  const procs: ServerProcess[] = [];
  let a: ServerProcess;
  let b: ServerProcess;
  const ids: Record<number, string> = {};
  const clients: Tracked[] = [];

  before(async function () {
    redis = await requireTestRedis(this, 'the multi-process test');
    const env = {
      REDIS_URL: redis.url,
      PUBLIC_ADDRESS: '',
      MESSAGE_BURST: '1000000',
      MESSAGES_PER_SECOND: '1000000',
      LOG_LEVEL: 'warn',
      OPS_ON_PUBLIC_PORT: '1',
      RATE_LIMITS: 'off',
      ALLOW_PER_PROCESS_RECORDS: '1', // no PostgreSQL here; this test reads no record
    };
    procs.push(...(await Promise.all([startServerProcess(env), startServerProcess(env)])));
    [a, b] = procs;
    for (const p of procs) ids[p.port] = JSON.parse((await httpGet(`http://127.0.0.1:${p.port}/ready`)).body).processId;
    assert.notEqual(ids[a.port], ids[b.port]);
  });

  after(async () => {
    for (const c of clients) if (c.leftWith === null) await c.room.leave().catch(() => undefined);
    await Promise.all(procs.map((p) => p.stop()));
    await redis?.stop();
  });

  const track = (c: Tracked) => (clients.push(c), c);
  /** The room count placement reads for a process (Colyseus's `roomcount`: "rooms,clients"). */
  const roomCountInRedis = async (processId: string) => {
    const check = new Redis(redis!.url, { maxRetriesPerRequest: 1 });
    try {
      return Number(((await check.hget(ROOM_COUNT_KEY, processId)) ?? '-1').split(',')[0]);
    } finally {
      check.disconnect();
    }
  };
  const other = (port: number) => (port === a.port ? b : a);

  it('creates through one process, joins by id through the other, plays a whole game split across both, reconnects through either', async () => {
    const host = track(await createAt(a.endpoint, { nickname: 'host', turnSeconds: 60 }, 'p0'));
    const roomId = host.room.roomId;
    const owner = socketPort(host.room);
    assert.ok(owner === a.port || owner === b.port, 'the room lives on one of the two');
    const p1 = track(await joinAt(b.endpoint, roomId, { nickname: 'bee' }, 'p1'));
    const p2 = track(await joinAt(b.endpoint, roomId, { nickname: 'cee' }, 'p2'));
    const watcher = track(await joinAt(a.endpoint, roomId, { spectator: true }, 'spectator'));
    for (const c of [p1, p2, watcher]) assert.equal(socketPort(c.room), owner, `${c.label}: its socket goes to the room's process`);
    await host.until(() => host.state.players.size === 3, 'three seated');

    host.room.send('start', {});
    await host.until(() => host.state.phase === 'playing', 'started');

    const players = [host, p1, p2];
    let reconnected = false;
    const moves = await playToEnd(
      () => [...players, watcher],
      'multiprocess',
      async (played) => {
        if (played !== 6 || reconnected) return;
        // p1 matchmade through b; it comes back through a (and the other way round for p0).
        for (const [i, via] of [
          [1, a],
          [0, b],
        ] as const) {
          const before = players[i];
          const token = before.room.reconnectionToken;
          before.room.connection.close();
          await watcher.until(() => watcher.state.players.get(before.id)?.connected === false, `${before.label} dropped`);
          const back = track(
            new Tracked(await new Client(via.endpoint).reconnect<CockroachState>(token, CockroachState), `${before.label}'`),
          );
          assert.equal(back.id, before.id, 'the same seat');
          assert.equal(socketPort(back.room), owner);
          await watcher.until(() => watcher.state.players.get(back.id)?.connected === true, `${back.label} back`);
          await back.until(
            () => (back.state.players.get(back.id)?.hand.size ?? -1) === back.state.players.get(back.id)?.handCount,
            'its own hand again',
          );
          assert.ok(back.state.players.get(back.id)!.hand.size > 0);
          players[i] = back;
        }
        reconnected = true;
      },
    );
    assert.ok(reconnected, 'the game lasted long enough to reconnect');
    assert.ok(moves > 6);
    for (const c of [...players, watcher]) await c.until(() => c.messagesOf('result').length === 1, `${c.label}: result`);
    for (const c of players) assert.deepEqual(c.messagesOf('result'), watcher.messagesOf('result'), `${c.label}: the same result`);
    const owning = await scrape(owner);
    assert.ok(metric(owning, 'cockroach_games_total', { event: 'ended' }) >= 1, 'the game ended on the owning process');
    assert.equal(metric(owning, 'cockroach_reconnections_total', { outcome: 'reconnected' }), 2);
    const idle = await scrape(other(owner).port);
    assert.equal(metric(idle, 'cockroach_actions_total'), 0, 'the other process only matchmade');
    for (const c of [...players, watcher]) await c.leave();
  });

  it("lists the open rooms of both processes from either one, each with its process's address", async () => {
    const lobbies: Tracked[] = [];
    const owners = new Set<number>();
    for (let i = 0; i < 8 && owners.size < 2; i++) {
      const via = i % 2 === 0 ? a : b;
      const lobby = track(await createAt(via.endpoint, { nickname: `lobby${i}` }, `lobby${i}`));
      lobbies.push(lobby);
      const owner = socketPort(lobby.room);
      owners.add(owner);
      // Placement reads each process's room count from Redis: wait until it counts this lobby.
      await waitFor(
        async () => (await roomCountInRedis(ids[owner])) === metric(await scrape(owner), 'cockroach_rooms'),
        'room count in Redis',
      );
    }
    assert.equal(owners.size, 2, 'new rooms are spread over both processes');

    for (const via of [a, b]) {
      const listed = (await new Client(via.endpoint).getAvailableRooms(ROOM)) as Listed[];
      const mine = listed.filter((r) => lobbies.some((l) => l.room.roomId === r.roomId));
      assert.equal(mine.length, lobbies.length, `every lobby listed through :${via.port}`);
      const processIds = new Set(mine.map((r) => r.processId));
      assert.deepEqual([...processIds].sort(), [ids[a.port], ids[b.port]].sort(), 'rooms of both processes');
      for (const r of mine) {
        const lobby = lobbies.find((l) => l.room.roomId === r.roomId)!;
        const port = socketPort(lobby.room);
        assert.equal(r.processId, ids[port]);
        assert.equal(r.publicAddress, `127.0.0.1:${port}`);
      }
    }
    for (const l of lobbies) await l.room.leave();
  });

  it('gives every room of both processes its own 6-digit code, claimed in Redis by the process that holds the room', async () => {
    const rooms: Tracked[] = [];
    for (let i = 0; i < 12; i++) rooms.push(track(await createAt((i % 2 === 0 ? a : b).endpoint, { nickname: `u${i}` }, `u${i}`)));
    const roomIds = rooms.map((r) => r.room.roomId);
    assert.equal(new Set(roomIds).size, roomIds.length, 'no id twice');
    assert.equal(new Set(rooms.map((r) => socketPort(r.room))).size, 2, 'rooms on both processes');
    const check = new Redis(redis!.url, { maxRetriesPerRequest: 1 });
    try {
      for (const room of rooms) {
        assert.match(room.room.roomId, /^[0-9]{6}$/, 'a room id is its 6-digit code');
        const owner = await check.get(`cockroach:code:${room.room.roomId}`);
        assert.equal(owner, ids[socketPort(room.room)], 'the code is claimed by the process that holds the room');
      }
    } finally {
      check.disconnect();
    }
    for (const r of rooms) await r.room.leave();
  });

  it('drains one process: it stops taking rooms (creates through it land on the other), its game finishes, then it exits', async () => {
    const host = track(await createAt(a.endpoint, { nickname: 'dh', turnSeconds: 60 }, 'dh'));
    const draining = socketPort(host.room) === a.port ? a : b;
    const staying = other(draining.port);
    const guest = track(await joinAt(staying.endpoint, host.room.roomId, { nickname: 'dg' }, 'dg'));
    await host.until(() => host.state.players.size === 2, 'two seated');
    host.room.send('start', {});
    await host.until(() => host.state.phase === 'playing', 'started');

    const exited = exitCode(draining);
    draining.child.kill('SIGTERM');
    await waitFor(async () => (await httpGet(`http://127.0.0.1:${draining.port}/ready`)).status === 503, 'not ready while draining');
    const elsewhere = track(await createAt(draining.endpoint, { nickname: 'late' }, 'late'));
    assert.equal(socketPort(elsewhere.room), staying.port, 'a create through the draining process is placed on the other');
    await elsewhere.room.leave();

    await playToEnd(() => [host, guest], 'drain-multi');
    for (const c of [host, guest]) {
      await c.until(() => c.messagesOf('result').length === 1, `${c.label}: result`);
      assert.equal(c.messagesOf('error').length, 0, 'nobody was cut');
    }
    assert.equal(await exited, 0, 'the drained process exits cleanly once its game is over');
    await host.until(() => host.leftWith !== null, 'closed at shutdown');

    const listed = (await new Client(staying.endpoint).getAvailableRooms(ROOM)) as Listed[];
    assert.ok(
      listed.every((r) => r.processId !== ids[draining.port]),
      'nothing of the drained process stays listed',
    );
    const after = track(await createAt(staying.endpoint, { nickname: 'after' }, 'after'));
    assert.equal(socketPort(after.room), staying.port);
    await after.room.leave();
  });
});

/**
 * Issue 32: guest identities across processes. Each process has its own DATA_DIR (its own
 * guest-token.key) and nothing is copied: Redis carries the fleet's keys and revocations
 * (server/identity/guestFleet.ts), and puts them back after it restarted empty.
 */
describe('ops: guest identities on every process of one Redis, with no key file copied (issue 32)', function () {
  this.timeout(120000);
  let redis: TestRedis | null = null;
  const procs: ServerProcess[] = [];
  const dirs = [freshDataDir(), freshDataDir(), freshDataDir()];
  const clients: Tracked[] = [];
  let a: ServerProcess;
  let b: ServerProcess;
  /** A guest token from before the fleet: minted by b's data directory when it ran alone. */
  let beforeFleet = '';
  let fromA = '';
  let fromB = '';
  let revokedSub = '';
  const env = (dataDir: string): Record<string, string> => ({
    REDIS_URL: redis!.url,
    PUBLIC_ADDRESS: '',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    OPS_ON_PUBLIC_PORT: '1', // /guests/revoke on the game port, as /metrics in the test above
    RATE_LIMITS: 'off',
    ALLOW_PER_PROCESS_RECORDS: '1',
  });
  const guest = async (p: ServerProcess) => (await request(p.port, 'POST', '/api/guest', '{}')).json.token as string;
  /** Does this process accept the token? A renewal checks it exactly as matchmaking does, and creates no room. */
  const accepts = async (p: ServerProcess, token: string) => {
    const reply = await request(p.port, 'POST', '/api/guest/renew', '{}', { authorization: `Bearer ${token}` });
    if (reply.status !== 200 && reply.json?.code !== 'AUTH_INVALID') throw new Error(`unexpected answer: ${reply.body}`);
    return reply.status === 200;
  };
  const track = (c: Tracked) => (clients.push(c), c);
  const createWith = (p: ServerProcess, token: string) =>
    request(p.port, 'POST', `/matchmake/create/${ROOM}`, '{"nickname":"손님"}', { authorization: `Bearer ${token}` });

  before(async function () {
    redis = await requireTestRedis(this, 'the guest fleet test');
    // b's data directory first serves alone, without Redis: its guests hold tokens of its own key.
    const alone = await startServerProcess({ DATA_DIR: dirs[1], LOG_LEVEL: 'warn', RATE_LIMITS: 'off' });
    beforeFleet = await guest(alone);
    await alone.stop();
    // Then a starts (its fresh key becomes the fleet's), then b joins with its old key.
    a = await startServerProcess(env(dirs[0]));
    procs.push(a);
    b = await startServerProcess(env(dirs[1]));
    procs.push(b);
  });

  after(async () => {
    for (const c of clients) await c.leave().catch(() => undefined);
    await Promise.all(procs.map((p) => p.stop()));
    await redis?.stop();
  });

  it('accepts a guest token minted by one process on the other, and a token from before the fleet on both', async () => {
    const keyOf = (dir: string) => readFileSync(path.join(dir, 'guest-token.key'), 'utf8');
    assert.notEqual(keyOf(dirs[0]), keyOf(dirs[1]), 'two processes, two key files, none copied');
    [fromA, fromB] = [await guest(a), await guest(b)];
    for (const [p, token] of [
      [b, fromA],
      [a, fromB],
    ] as const) {
      const created = await createWith(p, token);
      assert.ok(created.json.room, created.body);
    }
    // b published its old key when it joined; a learns it at its next sync.
    await waitFor(() => accepts(a, beforeFleet), 'a accepting the token from before the fleet');
    assert.ok(await accepts(b, beforeFleet));
    assert.ok((await createWith(a, beforeFleet)).json.room);
  });

  it('revokes an identity through one process: every process refuses it within seconds and closes its connections; the others play on', async () => {
    const victim = await guest(b);
    revokedSub = decodeJwt(victim).sub!;
    const host = new Client(b.endpoint);
    host.auth.token = fromB;
    const room = track(new Tracked(await host.create<CockroachState>(ROOM, { nickname: '언니' }, CockroachState), 'host'));
    const mine = new Client(a.endpoint);
    mine.auth.token = victim;
    const me = track(new Tracked(await mine.joinById<CockroachState>(room.room.roomId, { nickname: '나' }, CockroachState), 'me'));
    await room.until(() => room.state.players.size === 2, 'both seated');
    const revoked = await request(a.port, 'POST', '/guests/revoke', JSON.stringify({ sub: revokedSub }));
    assert.deepEqual(revoked.json, { revoked: true, already: false, fleet: 'shared' });
    for (const p of [a, b]) await waitFor(async () => !(await accepts(p, victim)), `:${p.port} refusing the revoked identity`, 5000);
    for (const p of [a, b]) assert.equal((await createWith(p, victim)).json.code, 'AUTH_INVALID');
    await me.until(() => me.leftWith !== null, 'the revoked connection closed, on whichever process holds the room');
    assert.equal(room.leftWith, null);
    for (const p of [a, b]) for (const token of [fromA, fromB, beforeFleet]) assert.ok(await accepts(p, token), 'nobody else logged out');
  });

  it('after Redis restarts empty: every token still passes on both, the revocation holds, and a process that joins then knows it all', async function () {
    if (redis!.source !== 'spawned') this.skip(); // a Redis the test did not start is not the test's to restart
    const port = Number(new URL(redis!.url).port);
    await redis!.stop();
    const again = await startTestRedis(port);
    if ('reason' in again) throw new Error(again.reason);
    redis = again;
    for (const p of [a, b])
      await waitFor(async () => (await httpGet(`http://127.0.0.1:${p.port}/ready`)).status === 200, 'ready again', 20000);
    const check = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    try {
      await waitFor(async () => (await check.zscore(FLEET_REVOKED_KEY, revokedSub)) !== null, 'the revocation put back into Redis');
      assert.ok(await check.get(FLEET_SIGNING_KEY), 'the signing key put back');
    } finally {
      check.disconnect();
    }
    const afterRestart = await guest(b);
    for (const p of [a, b]) {
      for (const token of [fromA, fromB, beforeFleet, afterRestart]) assert.ok(await accepts(p, token), `:${p.port} accepts every token`);
      assert.equal((await createWith(p, await guest(p === a ? b : a))).status, 200);
    }
    // A process that joins now has only Redis to learn from: the keys and the revocation are there.
    const c = await startServerProcess(env(dirs[2]));
    procs.push(c);
    for (const token of [fromA, fromB, beforeFleet, afterRestart]) assert.ok(await accepts(c, token), 'the newcomer accepts every token');
    const victim = await request(c.port, 'POST', '/guests/revoke', JSON.stringify({ sub: revokedSub }));
    assert.equal(victim.json.already, true, 'the newcomer knows the revocation');
  });
});
