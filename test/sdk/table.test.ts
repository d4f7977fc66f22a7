import assert from 'node:assert/strict';
import { seedRng } from '../../server/rules';
import { CockroachClient, CockroachResult, GameSession, MemoryTokenStore, verifyGame } from '../../client-sdk/index';
import { playRandomly } from '../../client-sdk/bots';
import { useTestServer } from '../support/server';
import { dropSocket, holdReconnects, next, rejects, roomOf, until, leaveAfterEach } from './support';

const HANGUL = /[\uAC00-\uD7A3]/;

/** Starts (or lets go on, with `begin` doing nothing) and plays my turns at random until the game ends; resolves with the result. */
async function playToTheEnd(
  session: GameSession,
  seed: string,
  begin: () => Promise<void> = () => session.start(),
): Promise<CockroachResult> {
  const errors: unknown[] = [];
  const over = next(session, 'gameOver', 60000);
  const stop = playRandomly(session, seedRng(seed), (e) => errors.push(e));
  try {
    await begin();
    return await over;
  } finally {
    stop();
    assert.deepEqual(errors, []);
  }
}

describe('SDK: a table that lasts (bots, results, 한 판 더, seats that come back)', function () {
  this.timeout(60000);
  const ts = useTestServer({ botThinkMs: 5, reconnectGraceSeconds: 1 });
  leaveAfterEach();
  const client = (store = new MemoryTokenStore()) => new CockroachClient(ts.endpoint, { store });

  it('lets the host seat and remove practice bots in the lobby, and nobody else', async () => {
    const host = await client().create('민수');
    const friend = await client().join(host.roomId, '지우');
    await host.addBot('easy');
    await host.addBot();
    const bots = host.snapshot.seats.filter((s) => s.bot);
    assert.equal(bots.length, 2);
    for (const bot of bots) assert.match(bot.nickname, HANGUL);
    assert.ok(host.snapshot.seats.filter((s) => !s.bot).every((s) => s.score === 0));
    await rejects(friend.addBot(), 'NOT_HOST');
    await rejects(host.removeBot(friend.me!), 'NOT_A_BOT');
    await host.removeBot(bots[0].id);
    assert.deepEqual(
      host.snapshot.seats.filter((s) => s.bot).map((s) => s.id),
      [bots[1].id],
    );
    await host.addBot('smart');
    await host.addBot('easy');
    await host.addBot('easy');
    assert.equal(host.snapshot.seats.length, 6);
    await rejects(host.addBot(), 'ROOM_FULL');
  });

  it('plays a human and bots to the end, shows every final hand, then 한 판 더 with a running score', async () => {
    const host = await client().create('민수');
    await host.addBot('easy');
    await host.addBot('smart');
    const first = await playToTheEnd(host, 'table-1', async () => {
      await host.start();
      const others = host.snapshot.seats.filter((s) => !s.isMe);
      assert.ok(
        others.every((s) => s.hand === null),
        "others' hands are hidden during the game",
      );
      assert.deepEqual(host.snapshot.seats.find((s) => s.isMe)!.hand, host.snapshot.myHand);
    });
    const end = host.snapshot;
    assert.equal(end.phase, 'ended');
    assert.deepEqual(end.result, first);
    assert.match(first.gameId, /\S/);
    assert.ok(first.highlights.length > 0 && first.highlights.every((h) => HANGUL.test(h)));
    assert.deepEqual(Object.keys(first.stats).sort(), end.seats.map((s) => s.id).sort());
    for (const seat of end.seats) {
      assert.ok(seat.hand !== null, `${seat.nickname}'s final hand`);
      assert.equal(
        seat.hand.reduce((n, g) => n + g.count, 0),
        seat.handCount,
      );
      assert.equal(seat.score, first.scores[seat.id]);
    }
    assert.equal(end.gamesPlayed, 1);
    const entropy = roomOf(host).state.fairness.entropy;
    assert.match(entropy.get(host.me!)!, /^[0-9a-f]{32}$/, 'the SDK sent its share of the seed');

    const record = (await (await fetch(`http://127.0.0.1:${ts.server.port}/api/games/${first.gameId}`)).json()) as {
      result: CockroachResult;
    };
    assert.deepEqual(verifyGame(record), { ok: true });
    assert.equal(verifyGame({ ...record, result: { ...record.result, loser: end.seats.find((s) => s.id !== first.loser)!.id } }).ok, false);

    await host.rematch();
    assert.equal(host.snapshot.phase, 'lobby');
    assert.equal(host.snapshot.result, null);
    assert.equal(host.snapshot.seats.length, 3, 'the bots keep their seats');
    const second = await playToTheEnd(host, 'table-2');
    assert.notEqual(second.gameId, first.gameId);
    assert.equal(host.snapshot.gamesPlayed, 2);
    for (const seat of host.snapshot.seats) assert.equal(seat.score, first.scores[seat.id] + second.scores[seat.id], seat.nickname);
  });

  it('refuses 한 판 더 from a guest and before the end', async () => {
    const host = await client().create('민수');
    const friend = await client().join(host.roomId, '지우');
    await rejects(host.rematch(), 'GAME_NOT_OVER');
    await host.start();
    await rejects(friend.rematch(), 'NOT_HOST');
  });

  it('brings a player back after the grace, on the results screen, with the result; and resume() after an app restart there', async () => {
    const store = new MemoryTokenStore();
    const host = await client().create('민수');
    const friend = await client(store).join(host.roomId, '지우');
    await host.addBot('easy');
    const release = holdReconnects(friend);
    const result = await playToTheEnd(host, 'away-friend', async () => {
      await host.start();
      dropSocket(friend);
      await until(host, () => host.snapshot.seats.find((s) => s.id === friend.me)?.away === true, 'the grace ran out', 10000);
    });
    const news = next(friend, 'gameOver', 10000);
    const back = next(friend, 'reconnected', 10000);
    release();
    await back;
    assert.deepEqual(await news, result, 'the result reaches whoever comes back at the end');
    assert.equal(friend.snapshot.phase, 'ended');
    assert.deepEqual(friend.snapshot.result, result);
    await until(
      host,
      () => {
        const seat = host.snapshot.seats.find((s) => s.id === friend.me);
        return seat?.away === false && seat.connected;
      },
      'back at the table for the others',
    );

    // The app is killed on the results screen and opened again.
    (friend as unknown as { leaving: boolean }).leaving = true;
    dropSocket(friend);
    await until(host, () => host.snapshot.seats.find((s) => s.id === friend.me)?.connected === false, 'drop seen');
    const restarted = await client(store).resume();
    assert.equal(restarted.me, friend.me);
    await until(restarted, () => restarted.snapshot.result !== null, 'the result after resume()');
    assert.deepEqual(restarted.snapshot.result, result);
    assert.ok(store.load(), 'the seat stays saved on the results screen');
  });

  it('gives a spectator who comes after the end the result', async () => {
    const host = await client().create('민수');
    await host.addBot('easy');
    const result = await playToTheEnd(host, 'late-watcher');
    const watcher = await client().spectate(host.roomId);
    await until(watcher, () => watcher.snapshot.result !== null, 'the result');
    assert.deepEqual(watcher.snapshot.result, result);
    assert.ok(
      watcher.snapshot.seats.every((s) => s.hand !== null),
      'final hands are public',
    );
  });
});
