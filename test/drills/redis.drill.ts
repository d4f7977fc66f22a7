import assert from 'node:assert/strict';
import { Client } from 'colyseus.js';
import { CockroachState } from '../../server/schema/CockroachState';
import { Tracked } from '../support/server';
import { socketPort } from '../ops/support';
import {
  DrillProcess,
  DrillRedis,
  gauge,
  listing,
  matchmake,
  ROOM,
  seconds,
  startCrossProcessGame,
  startDrillCluster,
  within,
} from './support';
import { assertNoCredentials } from './credentials';
import { ROOM_CACHES_KEY, ROOM_COUNT_KEY } from '../../server/colyseus/redisKeys';

/**
 * Drill: Redis crashes (SIGKILL) under two processes and comes back EMPTY. The promises of
 * issue 23, each with its time:
 * - while it is away: matchmaking answers SERVER_BUSY at once (no 10 s hang, no 500), `/ready`
 *   says 503 and `cockroach_redis_up` 0, games go on, a dropped player comes back through the
 *   process that holds the room, and nobody is told ROOM_CLOSED;
 * - once it is back: listing and quick match work on every process within 10 s, the rooms from
 *   before are listed and joinable again, a player who dropped during the outage gets the seat
 *   back, each process is in `roomcount` again.
 */
describe('drill: Redis crashes and comes back empty', function () {
  this.timeout(240_000);
  let redis: DrillRedis;
  let a: DrillProcess;
  let b: DrillProcess;
  const clients: Tracked[] = [];
  const tokens: string[] = [];
  let game: Tracked[] = [];
  let lobby: Tracked;
  let gameOwner: DrillProcess;
  let other: DrillProcess;
  let downAt = 0;
  let upAt = 0;
  /** A player who dropped while Redis was away and comes back only once it is back. */
  let droppedToken = '';

  before(async function () {
    ({ redis, a, b } = await startDrillCluster(this));
  });

  after(async () => {
    for (const c of clients) c.room.connection.close();
    await Promise.all([a, b].filter(Boolean).map((p) => p.proc.stop()));
    await redis?.kill();
  });

  const track = (c: Tracked) => (clients.push(c), c);
  const remember = (c: Tracked) => tokens.push(c.room.reconnectionToken.split(':')[1]);

  it('sets up: a game on one process, a listed lobby on the other', async () => {
    const started = await startCrossProcessGame(a, b, track);
    ({ owner: gameOwner, other } = started);
    game = [started.host, started.guest];
    for (let i = 0; ; i++) {
      assert.ok(i < 10, 'a lobby lands on the other process');
      const candidate = track(
        new Tracked(await new Client(other.endpoint).create<CockroachState>(ROOM, { nickname: `l${i}` }, CockroachState), `l${i}`),
      );
      if (socketPort(candidate.room) === other.proc.port) {
        lobby = candidate;
        break;
      }
      candidate.room.connection.close();
    }
    await within(5000, 'the lobby listed', async () => (await listing(gameOwner.http)).rooms.some((r) => r.roomId === lobby.room.roomId));
    for (const c of clients) remember(c);
  });

  it('while Redis is away: SERVER_BUSY at once, /ready 503, cockroach_redis_up 0, games go on, nobody told ROOM_CLOSED', async () => {
    downAt = Date.now();
    await redis.kill();
    const noticed = await within(3000, 'both processes notice', async () => {
      const ready = await Promise.all([a, b].map((p) => fetch(`${p.http}/ready`).then((r) => r.status)));
      return ready.every((s) => s === 503);
    });
    for (const p of [a, b]) {
      const ready = (await (await fetch(`${p.http}/ready`)).json()) as { ready: boolean; redis: string };
      assert.deepEqual([ready.ready, ready.redis], [false, 'down']);
      assert.equal(await gauge(p.http, 'cockroach_redis_up'), 0);
      const created = await matchmake(p.http, 'create', ROOM, { nickname: 'during' });
      const joined = await matchmake(p.http, 'joinById', lobby.room.roomId, { nickname: 'during' });
      const quick = await matchmake(p.http, 'joinOrCreate', ROOM, { nickname: 'during' });
      const listed = await listing(p.http);
      for (const [what, answer] of [
        ['create', created],
        ['joinById', joined],
        ['joinOrCreate', quick],
      ] as const) {
        assert.deepEqual([answer.status, answer.body.code], [503, 'SERVER_BUSY'], `${p.label} ${what}`);
        assert.ok(answer.ms < 1000, `${p.label} ${what} answered at once (${answer.ms} ms)`);
      }
      assert.equal(listed.status, 503, `${p.label} listing`);
    }
    console.log(`      Redis down: both processes answer SERVER_BUSY ${seconds(noticed)} after the crash`);

    // The game goes on: its sockets go straight to the process that holds it.
    const [host, guest] = game;
    host.room.send('chat', { phrase: 'nice' });
    await guest.until(() => guest.messagesOf('chat').length > 0, 'chat delivered during the outage');

    // A player who drops comes back through the process that holds the room, Redis or not.
    const token = guest.room.reconnectionToken;
    guest.room.connection.close();
    await host.until(() => host.state.players.get(guest.id)?.connected === false, 'dropped');
    const throughOther = await matchmake(other.http, 'reconnect', host.room.roomId, { reconnectionToken: token.split(':')[1] });
    assert.deepEqual([throughOther.status, throughOther.body.code], [503, 'SERVER_BUSY'], 'retry later, never ROOM_CLOSED');
    const back = track(new Tracked(await new Client(gameOwner.endpoint).reconnect<CockroachState>(token, CockroachState), 'guest2'));
    assert.equal(back.id, guest.id);
    await host.until(() => host.state.players.get(guest.id)?.connected === true, 'back during the outage');
    remember(back);
    game = [host, back];

    // Another drop, to come back only once Redis is back.
    const later = back.room.reconnectionToken;
    back.room.connection.close();
    await host.until(() => host.state.players.get(back.id)?.connected === false, 'dropped again');
    droppedToken = later;
  });

  it('Redis back empty: listing and quick match on every process within 10 s, the rooms from before joinable again, the seat kept', async () => {
    upAt = Date.now();
    await redis.up();
    /** Each promise, as the time since Redis answered again. */
    const times: Record<string, number> = {};
    const promise = async (what: string, test: () => Promise<boolean>) => {
      await within(10_000, what, test);
      times[what] = Date.now() - upAt;
    };
    await Promise.all(
      [a, b].map(async (p) => {
        await promise(`${p.label} ready`, async () => (await fetch(`${p.http}/ready`)).status === 200);
        await promise(`${p.label} lists the lobby from before`, async () => {
          const listed = await listing(p.http);
          return listed.status === 200 && listed.rooms.some((r) => r.roomId === lobby.room.roomId);
        });
        await promise(`${p.label} quick match`, async () => {
          const quick = await matchmake(p.http, 'joinOrCreate', ROOM, { nickname: 'after' });
          return quick.status === 200 && quick.body.room !== undefined;
        });
      }),
    );
    // The lobby from before, by id through the process that does not hold it.
    await promise('the lobby from before joinable', async () => {
      const probe = await matchmake(gameOwner.http, 'joinById', lobby.room.roomId, { spectator: true });
      return probe.status === 200 && probe.body.room !== undefined;
    });
    console.log(
      `      Redis back (empty), after: ${Object.entries(times)
        .map(([k, v]) => `${k} ${seconds(v)}`)
        .join(', ')} (promise: 10 s)`,
    );
    for (const [what, ms] of Object.entries(times)) assert.ok(ms <= 10_000, `${what} within 10 s of Redis returning (${ms} ms)`);

    const joiner = track(
      new Tracked(
        await new Client(gameOwner.endpoint).joinById<CockroachState>(lobby.room.roomId, { nickname: 'joiner' }, CockroachState),
        'joiner',
      ),
    );
    await lobby.until(() => lobby.state.players.size === 2, 'the lobby from before is joinable');
    remember(joiner);
    // The player who dropped during the outage takes the seat back, through the other process.
    const [host] = game;
    const back = track(new Tracked(await new Client(other.endpoint).reconnect<CockroachState>(droppedToken, CockroachState), 'guest3'));
    await host.until(() => host.state.players.get(back.id)?.connected === true, 'the seat kept');
    remember(back);
    // The running game is joinable again (a spectator, through the other process).
    const watcher = track(
      new Tracked(
        await new Client(other.endpoint).joinById<CockroachState>(host.room.roomId, { spectator: true }, CockroachState),
        'watcher',
      ),
    );
    await watcher.until(() => watcher.state.phase === 'playing', 'watching');

    const check = redis.client();
    try {
      const counted = await check.hkeys(ROOM_COUNT_KEY);
      assert.deepEqual(counted.sort(), [a.processId, b.processId].sort(), 'both processes in roomcount again');
      for (const [room, holder] of [
        [host.room.roomId, gameOwner],
        [lobby.room.roomId, other],
      ] as const) {
        assert.ok(await check.hexists(ROOM_CACHES_KEY, room), `${room} listed in Redis again`);
        assert.equal(await check.get(`cockroach:code:${room}`), holder.processId, `${room}: its code claimed again by its process`);
      }
    } finally {
      check.disconnect();
    }
    for (const p of [a, b]) assert.equal(await gauge(p.http, 'cockroach_redis_up'), 1);
    assert.ok(downAt < upAt);
  });

  it('writes no reconnection token into any log line', () => {
    assertNoCredentials([...a.lines, ...b.lines], tokens);
  });
});
