import assert from 'node:assert/strict';
import { matchMaker } from 'colyseus';
import { activePlayer, randomLegalAction, seedRng } from '../../server/rules';
import { useTestServer, create, joinById, ROOM_NAME, Tracked } from '../support/server';
import { openTable, startTable } from '../support/table';
import { identity, joinAs } from '../support/identity';

async function rejection(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (e) {
    return (e as Error).message;
  }
  assert.fail('expected the join to be refused');
}

async function roomCount(): Promise<number> {
  return (await matchMaker.query({ name: ROOM_NAME })).length;
}

describe('room: lobby, seats and listing', function () {
  this.timeout(20000);
  const ts = useTestServer();
  afterEach(async () => {
    await Promise.all(matchMaker.disconnectAll());
  });

  it('refuses a create with bad options or nickname, leaving no room behind', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ nickname: '민수', colour: 'red' }, 'UNKNOWN_OPTION'],
      [{ nickname: '민수', loseCount: 7 }, 'BAD_OPTION'],
      [{ nickname: '민수', turnSeconds: '30' }, 'BAD_OPTION'],
      [{ nickname: '민수', showSeenBy: false }, 'BAD_OPTION'],
      [{ nickname: '민수', private: 'yes' }, 'BAD_OPTION'],
      [{}, 'BAD_NICKNAME'],
      [{ nickname: '   ' }, 'BAD_NICKNAME'],
      [{ nickname: '가나다라마바사아자차카타파' }, 'BAD_NICKNAME'],
      [{ nickname: 'a\u0007b' }, 'BAD_NICKNAME'],
      [{ nickname: 'a\u200Bb' }, 'BAD_NICKNAME'],
      [{ nickname: 42 }, 'BAD_NICKNAME'],
      [{ spectator: true }, 'SPECTATOR_CANNOT_CREATE'],
    ];
    for (const [options, code] of cases) {
      const message = await rejection(ts.client().create(ROOM_NAME, options));
      assert.match(message, new RegExp(`^${code}: [\\s\\S]*[\\uAC00-\\uD7A3]`), JSON.stringify(options));
    }
    assert.equal(await roomCount(), 0);
  });

  it('accepts a 12-character nickname after trimming and keeps it trimmed', async () => {
    const host = await create(ts, { nickname: '  가나다라마바사아자차카타  ' });
    await host.until(() => host.state.players.size === 1, 'seated');
    assert.equal(host.state.players.get(host.id)!.nickname, '가나다라마바사아자차카타');
    assert.equal(host.state.hostId, host.id);
  });

  it('refuses a join with a bad nickname and keeps the room as it was', async () => {
    const host = await create(ts, { nickname: '민수' });
    const message = await rejection(ts.client().joinById(host.room.roomId, { nickname: '' }));
    assert.match(message, /^BAD_NICKNAME: /);
    assert.equal(ts.serverRoom(host.room.roomId).state.players.size, 1);
  });

  it('seats six players, refuses a seventh, and refuses late players once started', async () => {
    const table = await openTable(ts, 6);
    assert.match(await rejection(ts.client().joinById(table.room.roomId, { nickname: '일곱' })), /^ROOM_FULL: /);
    await startTable(table);
    // A started room is private (out of quick match) but spectators still get in by id.
    const watcher = await joinById(ts, table.room.roomId, { spectator: true }, 'late spectator');
    await watcher.until(() => watcher.state.phase === 'playing', 'state');
    assert.equal(watcher.state.players.size, 6);
    assert.equal(watcher.state.players.has(watcher.id), false, 'spectators are not players');
  });

  it('refuses a player joining after the start with LATE_JOIN', async () => {
    const table = await openTable(ts, 2);
    await startTable(table);
    assert.match(await rejection(ts.client().joinById(table.room.roomId, { nickname: '늦음' })), /^LATE_JOIN: /);
  });

  it('takes up to ten spectators, at most five from one address, and lists them for everyone', async () => {
    const host = await create(ts, { nickname: '민수' });
    const watchers: Tracked[] = [];
    for (let i = 0; i < 5; i++) watchers.push(await joinById(ts, host.room.roomId, { spectator: true }, `w${i}`));
    assert.match(await rejection(ts.client().joinById(host.room.roomId, { spectator: true })), /^SPECTATORS_FULL: /, 'one address');
    for (let i = 5; i < 10; i++)
      watchers.push(await joinAs(ts, host.room.roomId, { spectator: true }, identity(null, `127.0.0.${i}`), `w${i}`));
    await assert.rejects(joinAs(ts, host.room.roomId, { spectator: true }, identity(null, '127.0.0.20'), 'w10'), /SPECTATORS_FULL/);
    assert.equal(ts.serverRoom(host.room.roomId).state.players.size, 1);
    await host.until(() => host.state.watchers.size === 10, 'every watcher listed');
    assert.deepEqual(
      [...host.state.watchers.values()].map((w) => w.nickname).sort(),
      Array.from({ length: 10 }, (_, i) => `구경꾼 ${i + 1}`).sort(),
    );
  });

  it('passes the host on when the host leaves the lobby, and frees the seat', async () => {
    const table = await openTable(ts, 3);
    const [p0, p1, p2] = table.players;
    assert.equal(p1.state.hostId, p0.id);
    await p0.room.leave();
    await p1.until(() => p1.state.players.size === 2, 'seat freed');
    assert.equal(p1.state.hostId, p1.id);
    const reply = p2.nextMessage('error');
    p2.room.send('start', {});
    assert.equal((await reply).code, 'NOT_HOST');
    p1.room.send('start', {});
    await p2.until(() => p2.state.phase === 'playing', 'started by the new host');
  });

  it('will not start with one player', async () => {
    const host = await create(ts, { nickname: '혼자' });
    const reply = host.nextMessage('error');
    host.room.send('start', {});
    assert.equal((await reply).code, 'NOT_ENOUGH_PLAYERS');
    assert.equal(host.state.phase, 'lobby');
  });

  it('writes the listing when what it shows changes, not at every move', async () => {
    const table = await openTable(ts, 3);
    const listing = (table.room as unknown as { listing: { save(): Promise<unknown> } }).listing;
    const save = listing.save.bind(listing);
    let saves = 0;
    listing.save = () => (saves++, save());
    await startTable(table);
    assert.ok(saves >= 1, 'the phase changed: written');
    const afterStart = saves;
    const game = table.room.table.match!.game;
    const bot = seedRng('listing');
    for (let moves = 0; moves < 12 && game.phase === 'playing'; moves++) {
      const actor = table.byId(activePlayer(game)!);
      const { type, ...payload } = randomLegalAction(game, actor.id, bot)!;
      const before = game.step;
      actor.room.send(type, payload);
      await actor.until(() => game.step > before, `${type} applied`);
    }
    assert.equal(saves, afterStart, 'moves change nothing the listing shows');
    const watcher = await joinById(ts, table.room.roomId, { spectator: true }, 'watcher');
    await watcher.until(() => watcher.state.phase === 'playing', 'watching');
    await table.players[0].until(() => saves > afterStart, 'a spectator more: written');
    const listed = await matchMaker.query({ roomId: table.room.roomId });
    assert.equal((listed[0] as unknown as { metadata: { spectators: number } }).metadata.spectators, 2);
    // The move that ends the game is one of those moves: its `ended` event writes the new phase.
    const beforeEnd = saves;
    for (let moves = 0; moves < 500 && game.phase === 'playing'; moves++) {
      const actor = table.byId(activePlayer(game)!);
      const { type, ...payload } = randomLegalAction(game, actor.id, bot)!;
      const before = game.step;
      actor.room.send(type, payload);
      await actor.until(() => game.step > before || game.phase !== 'playing', `${type} applied`);
    }
    assert.equal(game.phase, 'ended');
    await table.players[0].until(() => saves > beforeEnd, 'the end: written');
    const ended = await matchMaker.query({ roomId: table.room.roomId });
    assert.equal((ended[0] as unknown as { metadata: { phase: string } }).metadata.phase, 'ended');
  });

  it('lists open lobbies with metadata, hides private and started rooms, and quick-matches into an open lobby', async () => {
    const open = await create(ts, { nickname: '공개', loseCount: 3 });
    const hidden = await create(ts, { nickname: '비밀', private: true });
    let listed = await ts.client().getAvailableRooms(ROOM_NAME);
    assert.deepEqual(
      listed.map((r) => r.roomId),
      [open.room.roomId],
    );
    assert.deepEqual(
      { ...listed[0].metadata, options: undefined },
      { phase: 'lobby', seats: 1, maxSeats: 6, spectators: 0, host: '공개', options: undefined },
    );
    assert.equal(listed[0].metadata.options.loseCount, 3);
    assert.equal(hidden.state.options.private, true);

    const quick = new Tracked(
      await ts.client().joinOrCreate(ROOM_NAME, { nickname: '빠른' }, (await import('../../server/schema/CockroachState')).CockroachState),
      'quick',
    );
    assert.equal(quick.room.roomId, open.room.roomId);
    open.room.send('start', {});
    await quick.until(() => quick.state.phase === 'playing', 'started');
    listed = await ts.client().getAvailableRooms(ROOM_NAME);
    assert.deepEqual(listed, []);
    const next = await ts.client().joinOrCreate(ROOM_NAME, { nickname: '다음' });
    assert.notEqual(next.roomId, open.room.roomId);
    assert.notEqual(next.roomId, hidden.room.roomId);
  });

  it('makes a player who leaves on purpose mid-game away at once', async () => {
    const table = await openTable(ts, 3);
    await startTable(table);
    const [p0, p1] = table.players;
    await p1.room.leave(true);
    await p0.until(() => p0.state.players.get(p1.id)!.away, 'away');
    assert.equal(p0.state.players.get(p1.id)!.connected, false);
  });
});
