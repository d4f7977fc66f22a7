import assert from 'node:assert/strict';
import { matchMaker } from 'colyseus';
import { activePlayer, randomLegalAction, seedRng } from '../../server/rules';
import { CockroachState } from '../../server/schema/CockroachState';
import { ROOM_CODE_PATTERN } from '../../server/protocol';
import { MemoryRoomCodes, roomCodeStore } from '../../server/room/roomCode';
import { reconnectRefusal, seatBack } from '../../server/room/seats';
import { buildSnapshot } from '../../client-sdk/snapshot';
import { identity, joinAs, joinByIdAs } from '../support/identity';
import { Tracked, useTestServer } from '../support/server';
import type { Table } from '../support/table';

const ann = identity('guest:ann-0001');
const bob = identity('guest:bob-0002');

async function playToTheEnd(table: Table, seed: string) {
  const game = table.room.table.match!.game;
  const rng = seedRng(seed);
  while (game.phase === 'playing') {
    const actor = table.byId(activePlayer(game)!);
    const step = game.step;
    const { type, ...payload } = randomLegalAction(game, actor.id, rng)!;
    actor.room.send(type, { ...payload, step });
    await actor.until(() => game.step > step, 'applied');
  }
}

describe('room: codes, and a host who can say no (PROTOCOL v3 "Family tables")', function () {
  this.timeout(30000);
  const ts = useTestServer({ lobbyGraceSeconds: 20 });

  async function lobby(...who: (typeof ann)[]): Promise<Table> {
    const host = new Tracked(await ts.client().create<CockroachState>('cockroach-poker', { nickname: '엄마' }, CockroachState), 'host');
    const players = [host];
    for (const [i, w] of who.entries()) players.push(await joinAs(ts, host.room.roomId, { nickname: `아이${i}` }, w, `kid${i}`));
    const spectator = await joinAs(ts, host.room.roomId, { spectator: true }, identity(null, '127.0.0.9'), 'spectator');
    await host.until(() => host.state.players.size === players.length, 'seated');
    return { players, spectator, room: ts.serverRoom(host.room.roomId), byId: (id) => players.find((p) => p.id === id)! };
  }

  it('names every room by a 6-digit code, and quarantines the code when the room closes', async () => {
    const codes = roomCodeStore() as MemoryRoomCodes;
    const before = codes.counts();
    const host = await ts.client().create('cockroach-poker', { nickname: '엄마' });
    assert.match(host.roomId, ROOM_CODE_PATTERN);
    assert.equal(ts.serverRoom(host.roomId).roomId, host.roomId);
    assert.equal(codes.counts().live, before.live + 1);
    await host.leave();
    await new Promise<void>((resolve) => {
      const poll = () => (codes.counts().quarantined > before.quarantined ? resolve() : setImmediate(poll));
      poll();
    });
    assert.equal(codes.counts().live, before.live);
  });

  it('refuses kick from anyone but the host, during a game, of oneself, of nobody or a bot', async () => {
    const table = await lobby(ann, bob);
    const [host, annA, bobA] = table.players;
    const refused = async (from: Tracked, payload: unknown) => {
      const reply = from.nextMessage('error');
      from.room.send('kick', payload);
      return (await reply).code;
    };
    assert.equal(await refused(annA, { id: bobA.id }), 'NOT_HOST');
    assert.equal(await refused(table.spectator, { id: bobA.id }), 'SPECTATOR');
    assert.equal(await refused(host, { id: host.id }), 'CANNOT_TARGET_SELF');
    assert.equal(await refused(host, { id: 'nobody' }), 'UNKNOWN_PLAYER');
    assert.equal(await refused(host, { id: '__proto__' }), 'UNKNOWN_PLAYER');
    assert.equal(await refused(host, { id: 7 }), 'BAD_PAYLOAD');
    assert.equal(await refused(host, { id: bobA.id, extra: 1 }), 'BAD_PAYLOAD');
    host.room.send('addBot', {});
    await host.until(() => host.state.players.size === 4, 'a bot');
    const botId = [...host.state.players.values()].find((p) => p.bot)!.id;
    assert.equal(await refused(host, { id: botId }), 'UNKNOWN_PLAYER', 'a bot goes with removeBot');
    host.room.send('start', {});
    await host.until(() => host.state.phase === 'playing', 'started');
    assert.equal(await refused(host, { id: bobA.id }), 'NOT_IN_LOBBY');
    assert.equal(host.state.players.size, 4, 'nobody removed');
    const message = host.messagesOf('error').find((e) => e.code === 'CANNOT_TARGET_SELF')!.message;
    assert.match(message, /[가-힣]/);
  });

  it('in the lobby: the kicked player is told KICKED and closed, and cannot come back by identity, by token or anonymously from there', async () => {
    const table = await lobby(ann, bob);
    const [host, annA, bobA] = table.players;
    const annToken = annA.room.reconnectionToken.split(':')[1];
    host.room.send('kick', { id: annA.id });
    await annA.until(() => annA.leftWith !== null, 'closed');
    assert.deepEqual(
      annA.messagesOf('error').map((e) => e.code),
      ['KICKED'],
    );
    assert.equal(annA.leftWith, 4000, 'a final close: no reconnection');
    await host.until(() => !host.state.players.has(annA.id), 'the seat freed');
    for (const c of [host, bobA, table.spectator]) {
      await c.until(
        () => c.messagesOf('events').some((m) => m.events.some((e: any) => e.type === 'left' && e.reason === 'kicked')),
        'told',
      );
    }
    const roomId = host.room.roomId;
    assert.deepEqual(await seatBack(roomId, { nickname: '다시' }, ann), { kind: 'refused', code: 'KICKED' });
    await assert.rejects(joinAs(ts, roomId, { nickname: '다시' }, ann, 'ann again'), /KICKED: /);
    await assert.rejects(joinAs(ts, roomId, { spectator: true }, ann, 'ann watching'), /KICKED: /);
    assert.equal(await reconnectRefusal(roomId, annToken, ann), 'KICKED');
    assert.equal(await reconnectRefusal(roomId, annToken, identity(null)), 'KICKED', 'the kicked token, whoever holds it');
    await assert.rejects(ts.client().reconnect(annA.room.reconnectionToken, CockroachState));
    // The kick locked the table: a newcomer is refused until the host unlocks it.
    await assert.rejects(joinAs(ts, roomId, { nickname: '동생' }, identity('guest:sib-0004'), 'too early'), /LOCKED: /);
    host.room.send('unlock', {});
    await host.until(() => !host.state.locked, 'unlocked');
    // Someone else from the same address (a sibling with an identity of their own) is welcome.
    const sib = await joinAs(ts, roomId, { nickname: '동생' }, identity('guest:sib-0004'), 'sibling');
    await host.until(() => host.state.players.has(sib.id), 'the sibling seated');
  });

  it('an anonymous player kicked is barred by address, and only anonymous joins from it', async () => {
    const host = new Tracked(await ts.client().create<CockroachState>('cockroach-poker', { nickname: '엄마' }, CockroachState), 'host');
    const anon = await joinAs(ts, host.room.roomId, { nickname: '익명' }, identity(null, '127.0.0.2'), 'anonymous');
    // A sibling on the same Wi-Fi, anonymous too, seated before the kick.
    const sibling = await joinAs(ts, host.room.roomId, { nickname: '동생' }, identity(null, '127.0.0.2'), 'sibling');
    await host.until(() => host.state.players.size === 3, 'seated');
    host.room.send('kick', { id: anon.id });
    await anon.until(() => anon.leftWith !== null, 'closed');
    await assert.rejects(joinAs(ts, host.room.roomId, { nickname: '또' }, identity(null, '127.0.0.2'), 'again'), /KICKED: /);
    // The sibling's phone changes networks: its own seat back, not KICKED.
    const siblingToken = sibling.room.reconnectionToken;
    sibling.room.connection.close();
    await host.until(() => host.state.players.get(sibling.id)?.connected === false, 'the sibling dropped');
    assert.equal(await reconnectRefusal(host.room.roomId, siblingToken.split(':')[1], identity(null, '127.0.0.2')), null);
    const back = new Tracked(await ts.client().reconnect<CockroachState>(siblingToken, CockroachState), 'sibling back');
    await host.until(() => host.state.players.get(sibling.id)?.connected === true, 'the sibling back');
    assert.equal(back.room.sessionId, sibling.id);
    host.room.send('unlock', {});
    await host.until(() => !host.state.locked, 'unlocked');
    await joinAs(ts, host.room.roomId, { nickname: '이웃' }, identity(null, '127.0.0.1'), 'other address');
    await joinAs(ts, host.room.roomId, { nickname: '가족' }, identity('guest:fam-0005', '127.0.0.2'), 'identity from that address');
    await host.until(() => host.state.players.size === 4, 'both seated');
  });

  it('at the results screen: a dropped player can be kicked too; the others’ screens stay whole', async () => {
    const table = await lobby(ann, bob);
    const [host, annA, bobA] = table.players;
    host.room.send('start', {});
    await host.until(() => host.state.phase === 'playing', 'started');
    await playToTheEnd(table, 'kick-at-end');
    await host.until(() => host.messagesOf('result').length === 1, 'the result');
    bobA.room.connection.close();
    await host.until(() => host.state.players.get(bobA.id)?.connected === false, 'bob dropped');
    const bobToken = bobA.room.reconnectionToken.split(':')[1];
    host.room.send('kick', { id: bobA.id });
    for (const c of [host, annA, table.spectator]) {
      await c.until(() => !c.state.players.has(bobA.id), 'bob gone');
      assert.ok(![...c.state.order].includes(bobA.id), `${c.label}: no seat points at him`);
      const snapshot = buildSnapshot(c.state, c === table.spectator ? null : c.id, host.room.roomId, null);
      assert.equal(snapshot.seats.length, 2);
    }
    assert.equal(await reconnectRefusal(host.room.roomId, bobToken, bob), 'KICKED');
    await assert.rejects(ts.client().reconnect(bobA.room.reconnectionToken, CockroachState));
    await assert.rejects(joinByIdAs(ts, host.room.roomId, {}, bob, 'bob back'), /KICKED/);
  });

  it(`bounds the games one room plays: a rematch past the bound is refused with TOO_MANY_GAMES`, async () => {
    const { CockroachRoom } = await import('../../server/room/CockroachRoom');
    CockroachRoom.settings.maxGames = 1;
    try {
      const table = await lobby(ann);
      const [host] = table.players;
      host.room.send('start', {});
      await host.until(() => host.state.phase === 'playing', 'started');
      await playToTheEnd(table, 'bound');
      await host.until(() => host.messagesOf('result').length === 1, 'the result');
      const reply = host.nextMessage('error');
      host.room.send('rematch', {});
      const error = await reply;
      assert.equal(error.code, 'TOO_MANY_GAMES');
      assert.match(error.message, /[가-힣]/);
      assert.equal(host.state.phase, 'ended');
    } finally {
      delete CockroachRoom.settings.maxGames;
    }
  });

  after(async () => {
    await Promise.all(matchMaker.disconnectAll());
  });
});
