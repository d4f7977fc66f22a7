import assert from 'node:assert/strict';
import { matchMaker } from 'colyseus';
import { Client } from 'colyseus.js';
import { ROOM_MESSAGES } from '../../server/protocol';
import { CockroachState } from '../../server/schema/CockroachState';
import { Tracked } from '../support/server';
import { post, request, ROOM_NAME, useEdge } from './support';

/**
 * The edge's side of "a seat belongs to its identity" and `kick` (PROTOCOL v3), over real HTTP with
 * guest tokens: the guard asks the room (server/room/seats.ts) before it reserves anything. Taking
 * a seat back is never refused for rate, even past the joins and wrong codes of the identity.
 */
describe('http: seats that follow the identity, and kick, through the matchmaking guard', function () {
  this.timeout(30000);
  // Tight per-identity limits: a seat taken back must pass them anyway.
  const ts = useEdge({ joinsPerMinute: 2, wrongCodesPerHour: 1 });
  const port = () => ts.server.port;
  afterEach(async () => {
    await Promise.all(matchMaker.disconnectAll());
  });

  async function guestClient(): Promise<{ client: Client; token: string }> {
    const token = (await request(port(), 'POST', '/api/guest', '')).json.token as string;
    const client = new Client(ts.endpoint);
    client.auth.token = token;
    return { client, token };
  }

  it('a second device of the same identity takes the seat back by the code, past its rate limits', async () => {
    const host = await guestClient();
    const table = new Tracked(await host.client.create<CockroachState>(ROOM_NAME, { nickname: '엄마' }, CockroachState), 'host');
    const kid = await guestClient();
    const first = new Tracked(await kid.client.joinById<CockroachState>(table.room.roomId, { nickname: '아이' }, CockroachState), 'kid');
    await table.until(() => table.state.players.size === 2, 'seated');
    table.room.send('start', {});
    await first.until(() => first.state.phase === 'playing', 'started');
    // The identity spends its joins and its one wrong code.
    const bearer = { authorization: `Bearer ${kid.token}` };
    assert.equal((await post(port(), '/matchmake/joinById/000000', { nickname: '아이' }, bearer)).json.code, 'ROOM_NOT_FOUND');
    assert.equal((await post(port(), '/matchmake/joinById/000001', { nickname: '아이' }, bearer)).json.code, 'TOO_MANY_GUESSES');
    // A new phone, the same identity: its seat, with its whole view; the old connection is replaced.
    const phone = new Client(ts.endpoint);
    phone.auth.token = kid.token;
    const again = new Tracked(
      await phone.joinById<CockroachState>(table.room.roomId.replace(/^(\d{3})/, '$1 '), { nickname: '아이' }, CockroachState),
      'kid2',
    );
    assert.equal(again.id, first.id, 'the same seat');
    await again.until(() => (again.state.players.get(again.id)?.hand.size ?? 0) > 0, 'its own hand');
    await first.until(() => first.leftWith !== null, 'the old connection closed');
    // Another identity never takes it: past the start it is a late player.
    const stranger = await guestClient();
    await assert.rejects(stranger.client.joinById(table.room.roomId, { nickname: '남' }), /LATE_JOIN/);
  });

  it('a seat taken back past the join limit is not counted, and gives back nothing that was not charged', async () => {
    const host = await guestClient();
    const table = new Tracked(await host.client.create<CockroachState>(ROOM_NAME, { nickname: '엄마' }, CockroachState), 'host');
    const other = new Tracked(await host.client.create<CockroachState>(ROOM_NAME, { nickname: '아빠' }, CockroachState), 'other');
    const kid = await guestClient();
    const bearer = { authorization: `Bearer ${kid.token}` };
    const first = new Tracked(await kid.client.joinById<CockroachState>(table.room.roomId, { nickname: '아이' }, CockroachState), 'kid');
    await table.until(() => table.state.players.size === 2, 'seated');
    // The second of its two joins a minute: watching the other table.
    const watching = new Tracked(
      await kid.client.joinById<CockroachState>(other.room.roomId, { spectator: true }, CockroachState),
      'watching',
    );
    await watching.until(() => watching.state.players.size === 1, 'watching');
    // Its own seat, three times over, past the limit: each is a seat back, never refused.
    for (let i = 0; i < 3; i++) {
      const back = await post(port(), `/matchmake/joinById/${table.room.roomId}`, { nickname: '아이' }, bearer);
      assert.equal(back.json.sessionId, first.id, `seat back ${i + 1}`);
    }
    // They were not charged, so they gave nothing back: a join elsewhere is still past the limit.
    const third = await post(port(), `/matchmake/joinById/${other.room.roomId}`, { nickname: '아이' }, bearer);
    assert.deepEqual([third.status, third.json.code], [429, 'TOO_MANY_REQUESTS']);
  });

  it('a kicked player is refused KICKED (403) by joinById and by reconnect', async () => {
    const host = await guestClient();
    const table = new Tracked(await host.client.create<CockroachState>(ROOM_NAME, { nickname: '엄마' }, CockroachState), 'host');
    const kid = await guestClient();
    const joined = new Tracked(await kid.client.joinById<CockroachState>(table.room.roomId, { nickname: '아이' }, CockroachState), 'kid');
    await table.until(() => table.state.players.size === 2, 'seated');
    const [roomId, token] = joined.room.reconnectionToken.split(':');
    table.room.send('kick', { id: joined.id });
    await joined.until(() => joined.leftWith !== null, 'closed');
    const bearer = { authorization: `Bearer ${kid.token}` };
    const byCode = await post(port(), `/matchmake/joinById/${roomId}`, { nickname: '아이' }, bearer);
    assert.equal(byCode.status, 403);
    assert.equal(byCode.json.error, `KICKED: ${ROOM_MESSAGES.KICKED}`);
    const byToken = await post(port(), `/matchmake/reconnect/${roomId}`, { reconnectionToken: token }, bearer);
    assert.equal(byToken.json.code, 'KICKED');
    // The kick locked the table: a new identity waits for the host; once unlocked, it joins.
    const friend = await guestClient();
    await assert.rejects(friend.client.joinById(roomId, { nickname: '친구' }), /LOCKED: /);
    table.room.send('unlock', {});
    await table.until(() => !table.state.locked, 'unlocked');
    await friend.client.joinById(roomId, { nickname: '친구' });
    await table.until(() => table.state.players.size === 2, 'the friend seated');
  });
});
