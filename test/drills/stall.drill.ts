import assert from 'node:assert/strict';
import { Client } from 'colyseus.js';
import { CockroachState } from '../../server/schema/CockroachState';
import { Tracked } from '../support/server';
import {
  Answer,
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

const ROOM_NOT_FOUND = 4212;

/**
 * Drill: slow is not dead. A process that stalls (SIGSTOP) for 4 s, and a Redis that stops
 * answering for 8 s without closing its connections (longer than the 6 s alive TTL: every alive
 * key expires meanwhile), must not make anyone dead: a player who tries to come back meanwhile is
 * told SERVER_BUSY (retry), never ROOM_CLOSED; nothing is buried; afterwards every room is
 * listed and joinable and the seats are kept.
 */
describe('drill: a stalled process and a stalled Redis are slow, not dead', function () {
  this.timeout(240_000);
  let redis: DrillRedis;
  let a: DrillProcess;
  let b: DrillProcess;
  const clients: Tracked[] = [];
  let host: Tracked;
  let lobby: Tracked;
  let owner: DrillProcess;
  let other: DrillProcess;
  /** The guest's seat: dropped, and never taken back over a socket (a reconnect only reserves it). */
  let guestToken = '';

  before(async function () {
    ({ redis, a, b } = await startDrillCluster(this));
    ({ host, owner, other } = await startCrossProcessGame(a, b, track));
    lobby = track(
      new Tracked(await new Client(owner.endpoint).joinOrCreate<CockroachState>(ROOM, { nickname: 'lobby' }, CockroachState), 'lobby'),
    );
    await within(5000, 'the lobby listed', async () => (await listing(other.http)).rooms.some((r) => r.roomId === lobby.room.roomId));
  });

  after(async () => {
    for (const c of clients) c.room.connection.close();
    if (owner) owner.proc.child.kill('SIGCONT');
    await Promise.all([a, b].filter(Boolean).map((p) => p.proc.stop()));
    await redis?.kill();
  });

  function track(c: Tracked): Tracked {
    clients.push(c);
    return c;
  }

  /** A dropped player retrying through `via` every 300 ms until it gets its seat back; every answer kept. */
  async function comeBack(via: DrillProcess, token: string, until: number): Promise<Answer[]> {
    const [roomId, secret] = token.split(':');
    const answers: Answer[] = [];
    for (;;) {
      const answer = await matchmake(via.http, 'reconnect', roomId, { reconnectionToken: secret });
      answers.push(answer);
      if ((answer.status === 200 && answer.body.room) || Date.now() > until) return answers;
      await new Promise((resolve) => setTimeout(resolve, 300)); // the client's retry delay
    }
  }

  it('a process stalled for 4 s: its players are told to retry, never ROOM_CLOSED; afterwards nothing is lost', async () => {
    const guest = clients[1];
    const token = guest.room.reconnectionToken;
    guestToken = token;
    guest.room.connection.close();
    await host.until(() => host.state.players.get(guest.id)?.connected === false, 'dropped');

    owner.proc.child.kill('SIGSTOP');
    const stalledAt = Date.now();
    const during = await comeBack(other, token, stalledAt + 4000);
    owner.proc.child.kill('SIGCONT');
    const after = await comeBack(other, token, Date.now() + 10_000);
    const answers = [...during, ...after];
    console.log(
      `      stalled 4 s: ${during.length} tries during the stall (${[...new Set(during.map((x) => x.status))].join('/')}), ` +
        `seat back ${seconds(Date.now() - stalledAt)} after it began`,
    );
    assert.ok(during.length >= 1, 'tried during the stall');
    assert.deepEqual(
      answers.filter((x) => x.body.code === ROOM_NOT_FOUND || (x.status >= 500 && x.status !== 503)),
      [],
      'never ROOM_CLOSED, never a server error',
    );
    assert.ok(
      during.every((x) => x.status === 503 && x.body.code === 'SERVER_BUSY'),
      'SERVER_BUSY while it stalls',
    );
    const last = after[after.length - 1];
    assert.ok(last.status === 200 && last.body.sessionId === guest.id, 'the seat back once it runs again');
    assert.ok(
      (await listing(other.http)).rooms.some((r) => r.roomId === lobby.room.roomId),
      'its lobby still listed',
    );
    assert.equal(await gauge(other.http, 'cockroach_processes_buried_total'), 0, 'nobody buried');
  });

  it('Redis stalled for 8 s (every alive key expires meanwhile): nobody is buried or told ROOM_CLOSED, all back within 10 s', async () => {
    const pid = redis.pid();
    process.kill(pid, 'SIGSTOP');
    const pausedAt = Date.now();
    const trying = comeBack(other, guestToken, pausedAt + 25_000);
    await within(5000, 'both processes notice', async () => {
      const ready = await Promise.all([a, b].map((p) => fetch(`${p.http}/ready`).then((r) => r.status)));
      return ready.every((s) => s === 503);
    });
    const noticed = Date.now() - pausedAt;
    const create = await matchmake(other.http, 'create', ROOM, { nickname: 'paused' });
    assert.deepEqual([create.status, create.body.code], [503, 'SERVER_BUSY']);
    assert.ok(create.ms < 1000, `at once (${create.ms} ms)`);
    await within(10_000, 'eight seconds of a stalled Redis', () => Date.now() - pausedAt >= 8000, 250);
    process.kill(pid, 'SIGCONT');
    const resumedAt = Date.now();

    await within(10_000, 'both ready and listing the lobby again', async () => {
      const ready = await Promise.all([a, b].map((p) => fetch(`${p.http}/ready`).then((r) => r.status)));
      return ready.every((s) => s === 200) && (await listing(other.http)).rooms.some((r) => r.roomId === lobby.room.roomId);
    });
    const backAfter = Date.now() - resumedAt;
    const answers = await trying;
    const last = answers[answers.length - 1];
    console.log(
      `      Redis stalled 8 s: SERVER_BUSY ${seconds(noticed)} after it stalled; ready and listing again ${seconds(backAfter)} ` +
        `after it resumed; the dropped player's ${answers.length} tries: ${[...new Set(answers.map((x) => x.status))].join('/')}, ` +
        `seat back ${seconds(Date.now() - resumedAt)} after`,
    );
    assert.deepEqual(
      answers.filter((x) => x.body.code === ROOM_NOT_FOUND || (x.status >= 500 && x.status !== 503)),
      [],
      'never ROOM_CLOSED, never a server error',
    );
    assert.ok(last.status === 200 && last.body.room, 'the seat back');
    for (const p of [a, b]) assert.equal(await gauge(p.http, 'cockroach_processes_buried_total'), 0, `${p.label} buried nobody`);
    const joined = await matchmake(other.http, 'joinById', lobby.room.roomId, { nickname: 'after' });
    assert.ok(joined.status === 200 && joined.body.room, 'the lobby joinable');
  });
});
