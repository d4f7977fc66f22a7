import assert from 'node:assert/strict';
import { matchMaker } from 'colyseus';
import { Client } from 'colyseus.js';
import { ROOM_MESSAGES } from '../../server/protocol';
import { MAX_LISTED } from '../../server/http/matchmake';
import { MAX_JSON_DEPTH, MAX_JSON_KEYS, parseBoundedJson } from '../../server/http/boundedJson';
import { CockroachState } from '../../server/schema/CockroachState';
import { Tracked } from '../support/server';
import { reservationsOf } from '../../server/colyseus/reservations';
import { post, request, roomCount, ROOM_NAME, timerCount, useEdge, waitFor } from './support';

const CREATE = `/matchmake/create/${ROOM_NAME}`;
const KOREAN = /[\uAC00-\uD7A3]/;

function assertRefusal(reply: { status: number; json: any }, status: number, code: string) {
  assert.equal(reply.status, status, JSON.stringify(reply.json));
  assert.equal(reply.json?.code, code);
  assert.match(reply.json.message, KOREAN);
  assert.equal(reply.json.error, `${code}: ${reply.json.message}${reply.json.field ? ` (${reply.json.field})` : ''}`);
}

describe('http: the matchmaking guard in front of Colyseus', function () {
  this.timeout(30000);
  const ts = useEdge();
  const port = () => ts.server.port;
  afterEach(async () => {
    await Promise.all(matchMaker.disconnectAll());
  });

  it('matches /matchmake/ by path exactly: a URL that merely contains it is not matchmaking', async () => {
    for (const path of [
      `/ready?x=${CREATE}`,
      `/p1${CREATE}`,
      `/health?${CREATE}`,
      CREATE.toUpperCase(),
      `/matchmakex/create/${ROOM_NAME}`,
    ]) {
      const reply = await post(port(), path, { nickname: '민수' });
      assert.equal(reply.status, 404, path);
      assert.doesNotMatch(reply.body, /roomId|sessionId/, path);
    }
    for (const path of [
      `${CREATE}/extra`,
      `/matchmake/create/`,
      `/matchmake/destroy/${ROOM_NAME}`,
      `/matchmake/create/other-room`,
      `/matchmake/reconnect/${'x'.repeat(65)}`,
    ]) {
      assertRefusal(await post(port(), path, { nickname: '민수' }), 404, 'BAD_REQUEST');
    }
    // A joinById names a room whatever it says: one that names none is ROOM_NOT_FOUND (PROTOCOL v3).
    for (const path of [
      `/matchmake/joinById/${'x'.repeat(65)}`,
      '/matchmake/joinById/',
      '/matchmake/joinById/%20',
      '/matchmake/joinById/12%2034',
    ])
      assertRefusal(await post(port(), path, { nickname: '민수' }), 404, 'ROOM_NOT_FOUND');
    assertRefusal(await request(port(), 'PUT', CREATE, '{}'), 405, 'BAD_REQUEST');
    assert.equal(await roomCount(), 0, 'no room was created by any of them');
    // CORS preflight and the listing still work as Colyseus's did.
    assert.equal((await request(port(), 'OPTIONS', CREATE)).status, 204);
    assert.deepEqual((await request(port(), 'GET', `/matchmake/${ROOM_NAME}`)).json, []);
  });

  it('refuses bodies past the limit by Content-Length and by the stream itself, with 413 and no room', async () => {
    const big = JSON.stringify({ nickname: '민수', pad: 'x'.repeat(5000) });
    const declared = await post(port(), CREATE, big);
    assertRefusal(declared, 413, 'PAYLOAD_TOO_LARGE');
    assert.equal(declared.headers.connection, 'close');
    // 12 MB streamed without a length: refused at the first chunk past 4 KB, the rest never read.
    const streamed = await request(port(), 'POST', CREATE, function* () {
      yield Buffer.from('{"nickname":"민수","k0":0');
      for (let i = 1; i < 1_000_000; i++) yield Buffer.from(`,"k${i}":${i}`.padEnd(12, ' '));
      yield Buffer.from('}');
    });
    assertRefusal(streamed, 413, 'PAYLOAD_TOO_LARGE');
    assert.ok(streamed.ms < 1000, `answered in ${streamed.ms.toFixed(0)} ms`);
    const health = await request(port(), 'GET', '/health');
    assert.equal(health.status, 200);
    assert.equal(await roomCount(), 0);
  });

  it('caps JSON nesting and key counts, and refuses bad JSON, before any option is looked at', async () => {
    let deep: unknown = 1;
    for (let i = 0; i <= MAX_JSON_DEPTH; i++) deep = { d: deep };
    assert.equal(parseBoundedJson(JSON.stringify(deep)).ok, false);
    const wide = Object.fromEntries(Array.from({ length: MAX_JSON_KEYS + 1 }, (_, i) => [`k${i}`, 0]));
    assert.equal(parseBoundedJson(JSON.stringify(wide)).ok, false);
    assert.equal(parseBoundedJson('{"nickname":"a","loseCount":3}').ok, true);
    assertRefusal(await post(port(), CREATE, { nickname: '민수', turnSeconds: deep }), 400, 'PAYLOAD_TOO_LARGE');
    assertRefusal(await post(port(), CREATE, { nickname: '민수', ...wide }), 400, 'PAYLOAD_TOO_LARGE');
    for (const body of ['{"nickname":', '[1,2]', 'null', '"x"', '{"nickname":"a"}{}']) {
      const reply = await post(port(), CREATE, body);
      assert.equal(reply.status, 400, body);
      assert.match(reply.json.code, /^BAD_OPTIONS$/, body);
    }
    assert.equal(await roomCount(), 0);
  });

  it('validates options before the matchmaker runs: no library internals, no room, no timer left behind', async () => {
    const timersBefore = timerCount();
    const cases: [unknown, string, string?][] = [
      [{ hasOwnProperty: 1 }, 'BAD_NICKNAME'],
      [{ nickname: '민수', hasOwnProperty: 1 }, 'UNKNOWN_OPTION', 'hasOwnProperty'],
      [{ nickname: '민수', constructor: 1 }, 'UNKNOWN_OPTION', 'constructor'],
      [{ nickname: '민수', ['k'.repeat(100)]: 1 }, 'UNKNOWN_OPTION'],
      [{ nickname: 12345, spectator: 'yes' }, 'BAD_OPTION', 'spectator'],
      [{ spectator: true }, 'SPECTATOR_CANNOT_CREATE'],
      [{ nickname: '\uDB40A\uDB40B' }, 'BAD_NICKNAME'],
      [{ nickname: '민수', entropy: 'xyz' }, 'BAD_OPTION', 'entropy'],
      [{}, 'BAD_NICKNAME'],
      // null is a value of the wrong type, never "not given" (issue 20).
      [{ nickname: '민수', spectator: null }, 'BAD_OPTION', 'spectator'],
      [{ nickname: '민수', private: null }, 'BAD_OPTION', 'private'],
      [{ nickname: '민수', entropy: null }, 'BAD_OPTION', 'entropy'],
      [{ nickname: '민수', turnSeconds: null }, 'BAD_OPTION', 'turnSeconds'],
      [{ nickname: '민수', loseCount: null }, 'BAD_OPTION', 'loseCount'],
      [{ nickname: '민수', nope: null }, 'UNKNOWN_OPTION', 'nope'],
      [{ nickname: null }, 'BAD_NICKNAME'],
    ];
    for (let round = 0; round < 30; round++) {
      for (const [body, code, field] of cases) {
        const reply = await post(port(), CREATE, body);
        assertRefusal(reply, 400, code);
        assert.equal(reply.json.field, field);
        assert.doesNotMatch(reply.body, /hasOwnProperty is not|TypeError|at \w+ \(|node_modules/);
      }
    }
    assert.equal(await roomCount(), 0);
    assert.ok(timerCount() <= timersBefore + 2, `timers ${timersBefore} -> ${timerCount()}`);
  });

  it('reserves no seat for joinById options that are not valid, so nobody can lock a lobby with them', async () => {
    const host = new Tracked(await ts.client().create<CockroachState>(ROOM_NAME, { nickname: '방장' }, CockroachState), 'host');
    const roomId = host.room.roomId;
    const room = matchMaker.getRoomById(roomId);
    for (let i = 0; i < 20; i++) {
      assertRefusal(await post(port(), `/matchmake/joinById/${roomId}`, {}), 400, 'BAD_NICKNAME');
      assertRefusal(await post(port(), `/matchmake/joinById/${roomId}`, { spectator: null }), 400, 'BAD_OPTION');
      assertRefusal(await post(port(), `/matchmake/joinById/${roomId}`, { nickname: 12345, spectator: 'yes' }), 400, 'BAD_OPTION');
    }
    assert.equal(reservationsOf(room).length, 0, 'no reservation was made');
    const friend = await ts.client().joinById(roomId, { nickname: '친구' });
    await host.until(() => host.state.players.size === 2, 'the friend is seated');
    await friend.leave();
  });

  it('answers Colyseus outcomes with fixed texts, and keeps the room refusals of the room', async () => {
    // A wrong room code is ours now (PROTOCOL v3): 404 ROOM_NOT_FOUND, "ROOM_NOT_FOUND: 한국어".
    assertRefusal(await post(port(), '/matchmake/joinById/nosuchroom', { nickname: '민수' }), 404, 'ROOM_NOT_FOUND');
    assertRefusal(await post(port(), '/matchmake/joinById/123456', { nickname: '민수' }), 404, 'ROOM_NOT_FOUND');
    await assert.rejects(new Client(ts.endpoint).joinById('654 321', { nickname: '민수' }), (e: Error) =>
      e.message.startsWith(`ROOM_NOT_FOUND: ${ROOM_MESSAGES.ROOM_NOT_FOUND}`),
    );
    const join = await post(port(), `/matchmake/join/${ROOM_NAME}`, { nickname: '민수' });
    assert.deepEqual(join.json, { code: 4211, error: 'no rooms found' });
    const reconnect = await post(port(), '/matchmake/reconnect/nosuchroom', { reconnectionToken: 'abc' });
    assert.deepEqual(reconnect.json, { code: 4212, error: 'room not found' });
    // A made-up token for a live room gets the very same answer: reconnect tells nobody which codes are rooms.
    const live = await new Client(ts.endpoint).create(ROOM_NAME, { nickname: '방장' });
    live.onMessage('*', () => undefined);
    const guessed = await post(port(), `/matchmake/reconnect/${live.roomId}`, { reconnectionToken: 'abc' });
    assert.equal(guessed.body, reconnect.body);
    // Tokens the room handed out are "expired" (4214): one whose drop the room has not seen yet
    // (try again), and one whose seat is gone (the SDK's SEAT_GONE).
    const friend = await new Client(ts.endpoint).joinById(live.roomId, { nickname: '친구' });
    friend.onMessage('*', () => undefined);
    const [, friendToken] = friend.reconnectionToken.split(':');
    const expired = { code: 4214, error: 'reconnection expired' };
    assert.deepEqual((await post(port(), `/matchmake/reconnect/${live.roomId}`, { reconnectionToken: friendToken })).json, expired);
    await friend.leave();
    assert.deepEqual((await post(port(), `/matchmake/reconnect/${live.roomId}`, { reconnectionToken: friendToken })).json, expired);
    await live.leave();
    assertRefusal(await post(port(), '/matchmake/reconnect/x', { reconnectionToken: 'abc', nickname: 'x' }), 400, 'BAD_REQUEST');
    // colyseus.js still turns them into its errors, the SDK's "CODE: 한국어" included.
    await assert.rejects(new Client(ts.endpoint).create(ROOM_NAME, { nickname: '' }), (e: Error) =>
      e.message.startsWith(`BAD_NICKNAME: ${ROOM_MESSAGES.BAD_NICKNAME}`),
    );
  });

  it('lists a lobby only once its creator has joined, and never more than MAX_LISTED rooms', async () => {
    const ghosts: string[] = [];
    for (let i = 0; i < MAX_LISTED + 5; i++) ghosts.push((await post(port(), CREATE, { nickname: `유령${i}` })).json.room.roomId);
    const listed = (await request(port(), 'GET', `/matchmake/${ROOM_NAME}`)).json as { roomId: string }[];
    assert.equal(listed.length, 0, 'lobbies whose creator never opened the socket are not listed');
    const host = new Tracked(await ts.client().create<CockroachState>(ROOM_NAME, { nickname: '진짜' }, CockroachState), 'host');
    await host.until(() => host.state.players.size === 1, 'seated');
    await waitFor(
      async () => ((await request(port(), 'GET', `/matchmake/${ROOM_NAME}`)).json as unknown[]).length === 1,
      'the real lobby listed',
    );
    const all = (await request(port(), 'GET', '/matchmake/')).json as { roomId: string; metadata: { seats: number } }[];
    assert.ok(all.length <= MAX_LISTED);
    assert.deepEqual(
      all.map((r) => r.roomId),
      [host.room.roomId],
    );
  });
});
