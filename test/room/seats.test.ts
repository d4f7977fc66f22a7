import assert from 'node:assert/strict';
import { activePlayer, randomLegalAction, seedRng } from '../../server/rules';
import { CockroachState } from '../../server/schema/CockroachState';
import { reconnectRefusal } from '../../server/room/seats';
import { fakeClock } from '../support/fakeClock';
import { identity, joinAs, joinByIdAs } from '../support/identity';
import { Tracked, useTestServer } from '../support/server';
import { syncAndCheck, Table } from '../support/table';

const ann = identity('guest:ann-0001', '127.0.0.1', undefined);
const bob = identity('guest:bob-0002', '127.0.0.1', undefined);
const cat = identity('app:cat-0003', '127.0.0.1', '고양이');

/** Everything a client decoded or was told, as text: an identity key must never be in it. */
function seenText(c: Tracked): string {
  return JSON.stringify([c.state.toJSON(), c.messages]);
}

describe('room: a seat belongs to its identity (PROTOCOL v3)', function () {
  this.timeout(30000);
  const ts = useTestServer({ reconnectGraceSeconds: 90, lobbyGraceSeconds: 20 });

  async function tableOf(...who: (typeof ann)[]): Promise<Table> {
    const host = await ts.client().create<CockroachState>('cockroach-poker', { nickname: '민수' }, CockroachState);
    const first = new Tracked(host, 'host');
    const players = [first];
    for (const [i, w] of who.entries()) players.push(await joinAs(ts, host.roomId, { nickname: `친구${i}` }, w, `p${i + 1}`));
    const spectator = await joinAs(ts, host.roomId, { spectator: true }, identity(null), 'spectator');
    await first.until(() => first.state.players.size === players.length, 'seated');
    return { players, spectator, room: ts.serverRoom(host.roomId), byId: (id) => players.find((p) => p.id === id)! };
  }

  it('in the lobby: the same identity from a second device takes the seat, the first connection is told and closed', async () => {
    const table = await tableOf(ann, bob);
    const [host, annA] = table.players;
    const annB = await joinByIdAs(ts, host.room.roomId, { nickname: '아무개' }, ann, 'ann on device B');
    assert.equal(annB.id, annA.id, 'the same player id: the seat, not a new one');
    await annA.until(() => annA.leftWith !== null, 'the replaced connection closed');
    assert.equal(annA.messagesOf('error').at(-1)?.code, 'REPLACED');
    await host.until(() => host.state.players.get(annA.id)?.connected === true, 'connected again');
    await annB.until(() => annB.state.players.has(annB.id), 'the state');
    assert.equal(host.state.players.size, 3, 'no second seat');
    assert.equal(annB.state.players.get(annB.id)!.nickname, '친구0', 'the seat as it was');
    for (const c of [host, annB, table.spectator]) assert.doesNotMatch(seenText(c), /ann-0001|bob-0002/, `${c.label}: no identity key`);
  });

  it('in a game, dropped or still connected, the identity gets its seat back with its whole private view', async () => {
    const table = await tableOf(ann, bob);
    const clock = fakeClock(table.room);
    const [host, annA, bobA] = table.players;
    host.room.send('start', {});
    await host.until(() => host.state.phase === 'playing', 'started');
    await syncAndCheck(table);
    // Ann's phone loses its network; her tablet takes the seat back while it is held.
    annA.room.connection.close();
    await host.until(() => host.state.players.get(annA.id)?.connected === false, 'ann dropped');
    clock.advance(30_000);
    const annB = await joinByIdAs(ts, host.room.roomId, { nickname: '아무개' }, ann, 'ann tablet');
    assert.equal(annB.id, annA.id);
    await annB.until(() => annB.state.players.get(annB.id)?.hand?.size === table.room.table.match!.game.hands[annB.id].length, 'her hand');
    // Bob's phone is still connected when his other device takes the seat.
    const bobB = await joinByIdAs(ts, host.room.roomId, {}, bob, 'bob other device');
    assert.equal(bobB.id, bobA.id);
    await bobA.until(() => bobA.leftWith !== null, 'bob A closed');
    table.players[1] = annB;
    table.players[2] = bobB;
    await syncAndCheck(table);
    // The old phone's token is spent: it cannot come back in her place.
    await assert.rejects(ts.client().reconnect(annA.room.reconnectionToken, CockroachState));
    assert.equal(table.room.table.state.seats.get(annA.id)!.away, false);
  });

  it('on the results screen an away seat comes back with the result; another identity never can', async () => {
    const table = await tableOf(ann, bob);
    const clock = fakeClock(table.room);
    const [host, annA, bobA] = table.players;
    host.room.send('start', {});
    await host.until(() => host.state.phase === 'playing', 'started');
    // colyseus.js keeps "roomId:token"; the matchmaker's reconnect request carries the token.
    const token = annA.room.reconnectionToken.split(':')[1];
    annA.room.connection.close();
    await host.until(() => host.state.players.get(annA.id)?.connected === false, 'ann dropped');
    clock.advance(90_000);
    await host.until(() => host.state.players.get(annA.id)?.away === true, 'ann away');
    // The two others play it out; the clock plays ann's turns at once.
    const game = table.room.table.match!.game;
    const rng = seedRng('results-screen');
    while (game.phase === 'playing') {
      const actor = [host, bobA].find((p) => p.id === activePlayer(game))!;
      const step = game.step;
      const { type, ...payload } = randomLegalAction(game, actor.id, rng)!;
      actor.room.send(type, { ...payload, step });
      await actor.until(() => game.step > step, 'applied');
    }
    await host.until(() => host.messagesOf('result').length === 1, 'the result');
    assert.equal(await reconnectRefusal(table.room.roomId, token, bob), 'NOT_YOUR_SEAT');
    assert.equal(await reconnectRefusal(table.room.roomId, token, identity(null)), 'NOT_YOUR_SEAT');
    assert.equal(await reconnectRefusal(table.room.roomId, token, ann), null);
    const annB = await joinByIdAs(ts, host.room.roomId, { nickname: '아무개' }, ann, 'ann back');
    assert.equal(annB.id, annA.id);
    assert.deepEqual(await annB.nextMessage('result'), host.messagesOf('result')[0], 'the result again');
    await host.until(() => host.state.players.get(annA.id)?.away === false, 'not away any more');
    assert.equal(annB.state.players.get(annB.id)!.hand.size, game.hands[annB.id].length);
  });

  it('another identity joining a started game is a late player, and a nickname from an app token wins', async () => {
    const table = await tableOf(cat);
    const [host, catA] = table.players;
    assert.equal(host.state.players.get(catA.id)!.nickname, '고양이', 'the token’s nickname, not 친구0');
    await assert.rejects(joinAs(ts, host.room.roomId, { nickname: '또' }, cat, 'cat twice'), /ALREADY_SEATED: /);
    host.room.send('start', {});
    await host.until(() => host.state.phase === 'playing', 'started');
    await assert.rejects(joinByIdAs(ts, host.room.roomId, { nickname: '밥' }, bob, 'bob late'), /LATE_JOIN: /);
    const catB = await joinByIdAs(ts, host.room.roomId, { nickname: '딴이름' }, cat, 'cat again');
    assert.equal(catB.id, catA.id);
    assert.doesNotMatch(seenText(catB), /cat-0003/);
  });
});

describe('room: the same token on two devices, over real sockets (the guard, then the room)', function () {
  this.timeout(30000);
  const ts = useTestServer({ reconnectGraceSeconds: 90, lobbyGraceSeconds: 20 });
  const guest = async (): Promise<string> => {
    const reply = await fetch(`http://127.0.0.1:${ts.server.port}/api/guest`, { method: 'POST' });
    return ((await reply.json()) as { token: string }).token;
  };
  const device = (token: string) => {
    const client = ts.client();
    client.auth.token = token; // colyseus.js 0.15 sends it as Authorization: Bearer on every matchmaking request
    return client;
  };
  const join = async (client: ReturnType<typeof device>, roomId: string, options: Record<string, unknown>, label: string) =>
    new Tracked(await client.joinById<CockroachState>(roomId, options, CockroachState), label);

  it('a second device with the same token takes the seat (same id, whole view), the first is closed; another token never can', async () => {
    const [hostToken, annToken, bobToken] = await Promise.all([guest(), guest(), guest()]);
    const host = new Tracked(
      await device(hostToken).create<CockroachState>('cockroach-poker', { nickname: '엄마' }, CockroachState),
      'host',
    );
    const phone = await join(device(annToken), host.room.roomId, { nickname: '안나' }, 'ann phone');
    const bob = await join(device(bobToken), host.room.roomId, { nickname: '밥' }, 'bob');
    await host.until(() => host.state.players.size === 3, 'seated');
    host.room.send('start', {});
    await host.until(() => host.state.phase === 'playing', 'started');
    const room = ts.serverRoom(host.room.roomId);
    const game = room.table.match!.game;
    // The same identity on a tablet, by the code typed with a space: the same seat, its hand.
    const code = `${host.room.roomId.slice(0, 3)} ${host.room.roomId.slice(3)}`;
    const tablet = await join(device(annToken), code, { nickname: '다른이름' }, 'ann tablet');
    assert.equal(tablet.id, phone.id);
    await phone.until(() => phone.leftWith !== null, 'the phone closed');
    assert.ok(phone.messagesOf('error').some((e) => e.code === 'REPLACED'));
    await tablet.until(() => tablet.state.players.get(tablet.id)?.hand?.size === game.hands[tablet.id].length, 'her hand');
    assert.equal(tablet.state.players.get(tablet.id)!.nickname, '안나');
    // Bob, with ann's old reconnection token: not his seat.
    await assert.rejects(device(bobToken).reconnect(phone.room.reconnectionToken, CockroachState));
    assert.equal(room.table.state.seats.size, 3);
    for (const c of [host, tablet, bob]) assert.doesNotMatch(JSON.stringify([c.state.toJSON(), c.messages]), /guest:/);
    for (const c of [host, tablet, bob]) await c.leave();
  });

  it('a kicked player is refused KICKED by joinById with the same token and by reconnect', async () => {
    const [hostToken, annToken] = await Promise.all([guest(), guest()]);
    const host = new Tracked(
      await device(hostToken).create<CockroachState>('cockroach-poker', { nickname: '엄마' }, CockroachState),
      'host',
    );
    const ann = await join(device(annToken), host.room.roomId, { nickname: '안나' }, 'ann');
    await host.until(() => host.state.players.size === 2, 'seated');
    host.room.send('kick', { id: ann.id });
    await ann.until(() => ann.leftWith !== null, 'closed');
    await assert.rejects(join(device(annToken), host.room.roomId, { nickname: '안나' }, 'again'), /KICKED: /);
    await assert.rejects(device(annToken).reconnect(ann.room.reconnectionToken, CockroachState), /KICKED: /);
    await host.leave();
  });
});
