import assert from 'node:assert/strict';
import { CockroachClient, MemoryTokenStore } from '../../client-sdk/index';
import { request } from '../http/support';
import { useTestServer } from '../support/server';
import { leaveAfterEach, next, rejects, until } from './support';

const KICKED = '방장이 이 방에서 내보냈어요. 다른 방에서 놀아요.';

describe('SDK: the host removes a player (kick, issue 22)', function () {
  this.timeout(30000);
  const ts = useTestServer({ botThinkMs: 5 });
  leaveAfterEach();

  it('kick(id) resolves once the seat is gone; the removed player is told KICKED, no reconnection, and cannot come back', async () => {
    const host = await new CockroachClient(ts.endpoint).create('민수');
    const store = new MemoryTokenStore();
    const friendClient = new CockroachClient(ts.endpoint, { store });
    const friend = await friendClient.join(host.roomId, '지우');
    const saved = store.load()!;
    await until(host, () => host.snapshot.seats.length === 2, 'seated');
    const lost: unknown[] = [];
    friend.on('connectionLost', (e) => lost.push(e));
    const told = next(friend, 'error');
    const left = next(friend, 'left');
    await host.kick(friend.me!);
    assert.deepEqual(
      host.snapshot.seats.map((s) => s.id),
      [host.me],
    );
    const error = await told;
    assert.deepEqual([error.code, error.message], ['KICKED', KICKED]);
    assert.equal((await left).reason.code, 'KICKED');
    assert.deepEqual(lost, []);
    assert.equal(store.load(), null, 'the seat is forgotten');
    await rejects(friend.chat('nice'), 'KICKED');
    // Coming back: by the saved token, and by joining again.
    const restarted = new MemoryTokenStore();
    restarted.save(saved);
    // The kicked connection's token: the edge's reconnect guard asks the room, which answers KICKED
    // (whoever presents it: this restarted app has a fresh guest identity), on the first try.
    const [roomId, token] = saved.token.split(':');
    const raw = await request(ts.server.port, 'POST', `/matchmake/reconnect/${roomId}`, JSON.stringify({ reconnectionToken: token }));
    assert.deepEqual([raw.status, raw.json], [403, { code: 'KICKED', message: KICKED, error: `KICKED: ${KICKED}` }]);
    await rejects(new CockroachClient(ts.endpoint, { store: restarted }).resume(), 'KICKED');
    assert.equal(restarted.load(), null, 'the refused seat is forgotten');
    await rejects(friendClient.join(host.snapshot.code, '지우'), 'KICKED');
  });

  it('refuses what the contract refuses: NOT_HOST, CANNOT_TARGET_SELF, UNKNOWN_PLAYER, NOT_IN_LOBBY during a game', async () => {
    const host = await new CockroachClient(ts.endpoint).create('민수');
    const friend = await new CockroachClient(ts.endpoint).join(host.roomId, '지우');
    await until(host, () => host.snapshot.seats.length === 2, 'seated');
    await rejects(friend.kick(host.me!), 'NOT_HOST');
    await rejects(host.kick(host.me!), 'CANNOT_TARGET_SELF');
    await rejects(host.kick('nobody'), 'UNKNOWN_PLAYER');
    await host.start();
    await rejects(host.kick(friend.me!), 'NOT_IN_LOBBY');
    assert.equal(host.snapshot.seats.length, 2);
  });

  it('watchers, lock and unlock (issue 32): the host sees who watches, removes a watcher, and the table stays locked to newcomers until unlocked', async () => {
    const host = await new CockroachClient(ts.endpoint).create('엄마');
    const friend = await new CockroachClient(ts.endpoint).join(host.roomId, '아이');
    const grandma = await new CockroachClient(ts.endpoint).spectate(host.roomId, '할머니');
    await until(host, () => host.snapshot.watchers.length === 1, 'grandma listed');
    assert.deepEqual(host.snapshot.watchers, [{ id: grandma.snapshot.watchers[0].id, nickname: '할머니', isMe: false }]);
    assert.deepEqual(
      grandma.snapshot.watchers.map((w) => w.isMe),
      [true],
    );
    assert.equal(host.snapshot.isCreator, true);
    assert.equal(host.snapshot.creatorId, host.me);
    assert.equal(friend.snapshot.isCreator, false);
    await rejects(friend.lock(), 'NOT_HOST');
    const gone = next(grandma, 'left');
    await host.kick(grandma.snapshot.watchers[0].id);
    assert.equal((await gone).reason.code, 'KICKED');
    assert.equal(host.snapshot.locked, true);
    await rejects(new CockroachClient(ts.endpoint).join(host.roomId, '손님'), 'LOCKED');
    await rejects(friend.unlock(), 'NOT_HOST');
    await host.unlock();
    assert.equal(host.snapshot.locked, false);
    await host.lock();
    await host.lock(); // already locked: nothing to do
    await until(friend, () => friend.snapshot.locked, 'everyone sees the lock');
  });
});
