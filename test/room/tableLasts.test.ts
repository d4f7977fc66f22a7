import assert from 'node:assert/strict';
import { activePlayer, randomLegalAction, seedRng } from '../../server/rules';
import type { Game } from '../../server/rules';
import type { Bot } from '../../server/bots';
import { CockroachState } from '../../server/schema/CockroachState';
import { fakeClock } from '../support/fakeClock';
import { create, joinById, TestServer, Tracked, useTestServer } from '../support/server';
import { openTable, startTable, syncAndCheck, Table } from '../support/table';

/** Plays the humans' moves at random until the game ends; bots and the clock play their own. */
async function playOut(table: Table, label: string) {
  const game = (): Game => table.room.table.match!.game;
  const rng = seedRng(label);
  for (let guard = 0; game().phase === 'playing'; guard++) {
    assert.ok(guard < 2000, 'the game must end');
    const id = activePlayer(game())!;
    const step = game().step;
    const human = table.players.find((p) => p.id === id);
    if (human) {
      const { type, ...payload } = randomLegalAction(game(), id, rng)!;
      human.room.send(type, { ...payload, step });
    }
    await table.spectator.until(() => game().step > step || game().phase !== 'playing', `step ${step} played`, 10000);
  }
  await syncAndCheck(table);
}

function seatedIn(c: Tracked) {
  return [...c.state.players.values()].map((p) => ({ id: p.id, nickname: p.nickname, bot: p.bot, score: p.score }));
}

describe('room: a table that lasts (PROTOCOL v2)', function () {
  this.timeout(60000);
  const ts = useTestServer({ botThinkMs: 30, lobbyGraceSeconds: 20 });

  it('plays two games in a row in one room with a running score; rematch is the host’s, at the end only', async () => {
    const table = await openTable(ts, 3);
    const [host, guest] = table.players;
    await startTable(table);
    guest.room.send('rematch', {});
    assert.equal((await guest.nextMessage('error')).code, 'NOT_HOST');
    host.room.send('rematch', {});
    assert.equal((await host.nextMessage('error')).code, 'GAME_NOT_OVER');

    await playOut(table, 'first');
    const first = await host.nextMessage('result').catch(() => host.messagesOf('result')[0]);
    assert.ok(first.gameId);
    for (const c of [...table.players, table.spectator]) await c.until(() => c.state.gamesPlayed === 1, 'one game played');
    for (const p of table.players) assert.equal(host.state.players.get(p.id)!.score, first.scores[p.id]);

    host.room.send('rematch', {});
    for (const c of [...table.players, table.spectator]) await c.until(() => c.state.phase === 'lobby', 'back in the lobby');
    for (const c of [...table.players, table.spectator]) {
      assert.equal(c.state.order.length, 0);
      assert.equal(c.state.loser, '');
      assert.equal(c.state.removed.length, 0);
      assert.equal(c.state.lastReveal, undefined);
      for (const p of c.state.players.values()) {
        assert.equal(p.front.length, 0);
        assert.equal(p.hand?.size ?? 0, 0, `${c.label} sees no hand of the last game`);
      }
      assert.equal(c.state.fairness.serverSeed, '');
      // What reached each client on the way back: the last game's hands cleared, nothing added.
      for (const change of c.changes.splice(0).flat()) {
        if (typeof change.dynamicIndex === 'string' && /^\d+$/.test(change.dynamicIndex))
          assert.equal(change.value, undefined, `${c.label}: only removals of old cards`);
      }
    }
    assert.notEqual(host.state.fairness.commitment, '');
    const listed = await ts.client().getAvailableRooms('cockroach-poker');
    assert.ok(
      listed.some((r) => r.roomId === host.room.roomId),
      'a public lobby with a free seat is listed again',
    );

    host.room.send('start', {});
    await host.until(() => host.state.phase === 'playing', 'the second game');
    await syncAndCheck(table);
    await playOut(table, 'second');
    await host.until(() => host.messagesOf('result').length === 2, 'the second result');
    const second = host.messagesOf('result')[1];
    assert.notEqual(second.gameId, first.gameId);
    for (const c of [...table.players, table.spectator]) await c.until(() => c.state.gamesPlayed === 2, 'two games played');
    for (const p of table.players)
      assert.equal(host.state.players.get(p.id)!.score, first.scores[p.id] + second.scores[p.id], 'scores add up');
  });

  it('seats bots from the host in the lobby; one human and bots play to the end with no refusal', async () => {
    const host = await create(ts, { nickname: '지우' }, 'host');
    const spectator = await joinById(ts, host.room.roomId, { spectator: true }, 'spectator');
    const room = ts.serverRoom(host.room.roomId);
    // The level of every bot the room makes, as the bot itself reports it.
    const made: string[] = [];
    const newBot = room.newBot.bind(room);
    room.newBot = (level) => {
      const bot = newBot(level);
      made.push((bot.decider as Bot).level);
      return bot;
    };
    host.room.send('addBot', { level: 'easy' });
    host.room.send('addBot', {});
    host.room.send('addBot', { level: 'smart' });
    await host.until(() => host.state.players.size === 4, 'three bots');
    assert.deepEqual(made, ['easy', 'gentle', 'smart'], 'addBot without a level seats a gentle bot; the older names still work');
    const unknown = host.nextMessage('error');
    host.room.send('addBot', { level: 'expert' });
    assert.equal((await unknown).code, 'BAD_PAYLOAD');
    const bots = [...host.state.players.values()].filter((p) => p.bot);
    assert.equal(bots.length, 3);
    assert.equal(new Set(bots.map((b) => b.nickname)).size, 3, 'distinct Korean nicknames');
    for (const b of bots) {
      assert.match(b.nickname, /[가-힣]/);
      assert.equal(b.connected, true);
    }
    spectator.room.send('addBot', {});
    assert.equal((await spectator.nextMessage('error')).code, 'SPECTATOR');
    host.room.send('removeBot', { id: host.room.sessionId });
    assert.equal((await host.nextMessage('error')).code, 'NOT_A_BOT');
    host.room.send('removeBot', { id: bots[0].id });
    await host.until(() => host.state.players.size === 3, 'a bot removed');
    for (const level of ['sharp', 'normal', 'gentle']) host.room.send('addBot', { level });
    await host.until(() => host.state.players.size === 6, 'a full table');
    assert.deepEqual(made.slice(3), ['sharp', 'normal', 'gentle']);
    const full = host.nextMessage('error');
    host.room.send('addBot', {});
    assert.equal((await full).code, 'ROOM_FULL');
    const before = host.messagesOf('error').length;

    const table: Table = { players: [host], spectator, room, byId: (id) => (id === host.id ? host : (undefined as never)) };
    host.room.send('start', {});
    await host.until(() => host.state.phase === 'playing', 'start');
    host.room.send('addBot', {});
    assert.equal((await host.nextMessage('error')).code, 'NOT_IN_LOBBY');
    await playOut(table, 'bots');
    assert.equal(host.messagesOf('error').length, before + 1, 'no refusal during the game');
    const log = room.table.match!.record.log;
    assert.ok(
      log.some((e) => room.table.isBot(e.player) && !e.auto),
      'bots moved through the player path',
    );
    await host.until(() => host.messagesOf('result').length === 1, 'the result');
  });

  it('holds a lobby seat through a blip; frees it after the lobby grace', async () => {
    const table = await openTable(ts, 3);
    const clock = fakeClock(table.room);
    const [host, blip, gone] = table.players;
    const blipToken = blip.room.reconnectionToken;
    const goneToken = gone.room.reconnectionToken;
    blip.room.connection.close();
    gone.room.connection.close();
    await host.until(
      () => !host.state.players.get(blip.id)!.connected && !host.state.players.get(gone.id)!.connected,
      'both dropped, seats kept',
    );
    clock.advance(10000);
    const back = new Tracked(await ts.client().reconnect<CockroachState>(blipToken, CockroachState), 'blip-back');
    assert.equal(back.id, blip.id);
    await host.until(() => host.state.players.get(blip.id)!.connected, 'back in the seat');
    clock.advance(10000);
    await host.until(() => !host.state.players.has(gone.id), 'the seat freed after 20 s');
    await assert.rejects(ts.client().reconnect(goneToken, CockroachState));
    assert.ok(host.state.players.has(blip.id));
  });

  it('gives the result to a player who comes back at the end and to a spectator who joins after it; a new host when the host is gone', async () => {
    const table = await openTable(ts, 3);
    const clock = fakeClock(table.room);
    await startTable(table);
    const [host, p1] = table.players;
    const token = host.room.reconnectionToken;
    host.room.connection.close();
    await p1.until(() => !p1.state.players.get(host.id)!.connected, 'host dropped');
    clock.advance(90000);
    await p1.until(() => p1.state.players.get(host.id)!.away, 'host away');
    const rest = { ...table, players: table.players.slice(1) };
    await playOut(rest, 'comeback');
    await p1.until(() => p1.state.hostId === p1.id, 'the first present human is host at the end');
    const late = await joinById(ts, host.room.roomId, { spectator: true }, 'late');
    const lateResult = await late.nextMessage('result');
    assert.equal(late.state.phase, 'ended');
    const back = new Tracked(await ts.client().reconnect<CockroachState>(token, CockroachState), 'back');
    const backResult = await back.nextMessage('result');
    assert.deepEqual(backResult, p1.messagesOf('result')[0]);
    assert.deepEqual(lateResult, backResult);
    await p1.until(() => p1.state.players.get(host.id)!.connected && !p1.state.players.get(host.id)!.away, 'back, not away');
    // The creator came back: host again (issue 32), and keeps the seat at the rematch.
    await p1.until(() => p1.state.hostId === host.id, 'the creator takes the role back');
    back.room.send('rematch', {});
    await p1.until(() => p1.state.phase === 'lobby', 'lobby');
    assert.ok(p1.state.players.has(host.id));
  });

  it('removes away players at a rematch and keeps everyone else, bots and spectators included', async () => {
    const host = await create(ts, { nickname: '엄마' }, 'host');
    const kid = await joinById(ts, host.room.roomId, { nickname: '아이' }, 'kid');
    const spectator = await joinById(ts, host.room.roomId, { spectator: true }, 'spectator');
    host.room.send('addBot', { level: 'easy' });
    await host.until(() => host.state.players.size === 3, 'a bot');
    host.room.send('start', {});
    await host.until(() => host.state.phase === 'playing', 'start');
    await kid.room.leave(true);
    await host.until(() => host.state.players.get(kid.id)!.away, 'the kid left: away');
    const room = ts.serverRoom(host.room.roomId);
    const table: Table = { players: [host], spectator, room, byId: () => host };
    await playOut(table, 'away-rematch');
    host.room.send('rematch', {});
    await host.until(() => host.state.phase === 'lobby', 'lobby');
    assert.deepEqual(
      seatedIn(host).map((p) => [p.nickname, p.bot]),
      [
        ['엄마', false],
        [host.state.players.get([...host.state.players.keys()][1])!.nickname, true],
      ],
    );
    assert.ok(spectator.room.connection.isOpen, 'the spectator stays');
  });

  it('answers ping with pong at once, outside the rate limit', async () => {
    const host = await create(ts, { nickname: '핑' }, 'host');
    host.room.send('ping', { t: 42 });
    assert.deepEqual(await host.nextMessage('pong'), { t: 42 });
    host.room.send('ping', {});
    assert.deepEqual(await host.nextMessage('pong'), {});
    const now = Date.now(); // past 2^32: colyseus.js sends it as a 64-bit integer
    host.room.send('ping', { t: now });
    assert.deepEqual(await host.nextMessage('pong'), { t: now });
    host.room.send('ping', { t: 'x' });
    assert.equal((await host.nextMessage('error')).code, 'BAD_PAYLOAD');
  });
});

export type { TestServer };
