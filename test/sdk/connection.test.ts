import assert from 'node:assert/strict';
import { ClientOptions, CockroachClient, GameSession, MemoryTokenStore, SdkError } from '../../client-sdk/index';
import { CLOSE_CODES } from '../../server/protocol';
import { useTestServer } from '../support/server';
import { dropSocket, holdReconnects, loseNetwork, next, rejects, roomOf, silenceSocket, until, leaveAfterEach } from './support';

/** Two players in a started game; `byTurn()` names whose turn it is and the other. */
async function startedPair(endpoint: string, options: ClientOptions = {}) {
  const a = await new CockroachClient(endpoint, { store: new MemoryTokenStore(), ...options }).create('민수');
  const b = await new CockroachClient(endpoint, { store: new MemoryTokenStore(), ...options }).join(a.roomId, '지우');
  await until(a, () => a.snapshot.seats.length === 2, 'seated');
  await a.start();
  await until(b, () => b.snapshot.phase === 'playing', 'b sees the start');
  const byTurn = () => (a.snapshot.myTurn ? { mover: a, other: b } : { mover: b, other: a });
  await until(a, () => a.snapshot.activePlayer !== null, 'a first turn');
  return { a, b, byTurn };
}

const firstCard = (s: GameSession) => s.snapshot.myHand[0].cardIds[0];

describe('SDK: connections a phone survives', function () {
  this.timeout(30000);
  const ts = useTestServer();
  leaveAfterEach();

  it('announces my turn again after a reconnect, even when the step did not change', async () => {
    const { byTurn } = await startedPair(ts.endpoint);
    const { mover } = byTurn();
    const step = mover.snapshot.step;
    const lost = next(mover, 'connectionLost');
    dropSocket(mover);
    await lost;
    const turn = next(mover, 'myTurn', 10000);
    await next(mover, 'reconnected', 10000);
    assert.deepEqual((await turn).canDo, ['offer']);
    assert.equal(mover.snapshot.step, step, 'nothing happened meanwhile');
  });

  it('settles a move whose socket dropped right after sending it: applied → resolved', async () => {
    const { byTurn } = await startedPair(ts.endpoint);
    const { mover, other } = byTurn();
    const move = mover.offer(firstCard(mover), other.me!, 'rat');
    dropSocket(mover); // the move's frame left before the close
    await move;
    const game = ts.serverRoom(mover.roomId).table.match!.game;
    assert.equal(game.step, 1);
    assert.equal(game.round.holder, other.me);
    assert.equal(mover.snapshot.step, 1);
  });

  it('sends a move again after the reconnect when the state shows it never arrived', async () => {
    const { byTurn } = await startedPair(ts.endpoint);
    const { mover, other } = byTurn();
    const room = roomOf(mover);
    const send = room.send.bind(room);
    room.send = ((type: string, message: unknown) => (type === 'offer' ? undefined : send(type, message))) as typeof room.send;
    const move = mover.offer(firstCard(mover), other.me!, 'rat');
    dropSocket(mover);
    await move;
    assert.equal(ts.serverRoom(mover.roomId).table.match!.game.round.holder, other.me);
  });

  it('sends the step of the screen the player tapped on: a late second tap is refused, never applied to a later turn', async () => {
    const { byTurn } = await startedPair(ts.endpoint);
    const { mover, other } = byTurn();
    const shown = mover.snapshot.step;
    await mover.offer(firstCard(mover), other.me!, 'rat', shown);
    await until(other, () => other.snapshot.myTurn, 'the other judges');
    const judging = other.snapshot.step;
    await other.call(true, judging);
    await rejects(other.call(false, judging), 'STALE_ACTION'); // the same screen tapped twice
    const game = ts.serverRoom(mover.roomId).table.match!.game;
    assert.equal(game.step, 2);
  });

  it('never turns a promise the app ignores into an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const spy = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', spy);
    try {
      const { byTurn } = await startedPair(ts.endpoint);
      const { mover, other } = byTurn();
      void other.offer(firstCard(other), mover.me!, 'rat'); // NOT_YOUR_TURN from the server
      void mover.peek(); // MUST_OFFER
      void mover.call(true); // ACTION_PENDING, locally
      void mover.offer(firstCard(mover), other.me!, 'rat', -1); // STALE_ACTION, locally
      await other.chat('nice'); // a round trip after the refusals
      await mover.chat('oops');
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('unhandledRejection', spy);
    }
    assert.deepEqual(unhandled, []);
  });

  it('notices a silently lost network within a few seconds, closes the dead socket and takes the seat back', async () => {
    const { byTurn } = await startedPair(ts.endpoint, { pingIntervalMs: 200, deadAfterMs: 1000 });
    const { mover, other } = byTurn();
    const me = mover.me;
    const silencedAt = Date.now();
    const lost = next(mover, 'connectionLost');
    silenceSocket(mover);
    await lost;
    const noticedMs = Date.now() - silencedAt;
    assert.ok(noticedMs >= 900 && noticedMs < 2500, `noticed after ${noticedMs} ms`);
    const turn = next(mover, 'myTurn', 20000);
    await next(mover, 'reconnected', 20000);
    await turn;
    assert.equal(mover.me, me);
    await until(other, () => other.snapshot.seats.find((s) => s.id === me)?.connected === true, 'back for the others');
    await mover.offer(firstCard(mover), other.me!, 'bat');
  });

  it('keeps trying while the server has not noticed the drop yet (a refused token is not final then), and gets the seat back once it has', async function () {
    this.timeout(40000);
    const { byTurn } = await startedPair(ts.endpoint, { pingIntervalMs: 200, deadAfterMs: 1000 });
    const { mover, other } = byTurn();
    const me = mover.me;
    const free = loseNetwork(mover);
    try {
      await next(mover, 'connectionLost');
      const failed: unknown[] = [];
      mover.on('reconnectFailed', (e) => failed.push(e));
      await next(mover, 'reconnected', 30000);
      assert.deepEqual(failed, []);
      assert.equal(mover.me, me);
      await mover.offer(firstCard(mover), other.me!, 'bat');
    } finally {
      free();
    }
  });

  it('leave() while reconnecting tells the server: the others see the seat left at once, not after the grace', async () => {
    const { a, b } = await startedPair(ts.endpoint);
    const release = holdReconnects(a);
    const lost = next(a, 'connectionLost');
    dropSocket(a);
    await lost;
    await until(b, () => b.snapshot.seats.find((s) => s.id === a.me)?.connected === false, 'b sees the drop');
    const left = next(a, 'left');
    const leaving = a.leave();
    release();
    await leaving;
    await left;
    await until(b, () => b.snapshot.seats.find((s) => s.id === a.me)?.away === true, 'b sees a leave', 5000);
    const seat = ts.serverRoom(b.roomId).state.players.get(a.me!)!;
    assert.equal(seat.away, true);
    await rejects(a.offer(firstCard(a), b.me!, 'rat'), 'NOT_IN_ROOM');
  });

  it('leave() gives up within a few seconds when the server cannot be reached, and from a silent socket', async () => {
    const { a, b } = await startedPair(ts.endpoint);
    holdReconnects(a); // never answered
    const lost = next(a, 'connectionLost');
    dropSocket(a);
    await lost;
    const aLeft = next(a, 'left');
    let startedAt = Date.now();
    await a.leave();
    await aLeft;
    assert.ok(Date.now() - startedAt < 4000, `${Date.now() - startedAt} ms`);
    silenceSocket(b);
    const bLeft = next(b, 'left');
    startedAt = Date.now();
    await b.leave();
    await bLeft;
    assert.ok(Date.now() - startedAt < 4000);
  });

  it('stops at the first answer that the room is gone: reconnectFailed ROOM_CLOSED, the saved seat forgotten', async () => {
    const store = new MemoryTokenStore();
    const { a, b } = await startedPair(ts.endpoint);
    const host = await new CockroachClient(ts.endpoint, { store }).create('혼자');
    const friend = await new CockroachClient(ts.endpoint).join(host.roomId, '친구');
    await host.start();
    const release = holdReconnects(friend);
    const lost = next(friend, 'connectionLost');
    dropSocket(friend);
    await lost;
    await until(host, () => host.snapshot.seats.find((s) => s.id === friend.me)?.connected === false, 'drop seen');
    await ts.serverRoom(host.roomId).disconnect();
    const failed = next(friend, 'reconnectFailed');
    const left = next(friend, 'left');
    const releasedAt = Date.now();
    release();
    const error = await failed;
    await left;
    assert.equal(error.code, 'ROOM_CLOSED');
    assert.match(error.message, /[\uAC00-\uD7A3]/);
    assert.ok(Date.now() - releasedAt < 3000, 'no retrying for a closed room');
    assert.equal(store.load(), null, 'the host saw the room close: its seat is forgotten too');
    // After the end a move says why, never "reconnecting".
    for (const session of [friend, host]) {
      const refused = await session.chat('nice').catch((e: SdkError) => e);
      assert.ok(refused instanceof SdkError && refused.code === 'ROOM_CLOSED', String(refused));
      assert.doesNotMatch(refused.message, /연결하는 중/);
    }
    await Promise.all([a.leave(), b.leave()]);
  });

  it("ends a removed player's session with KICKED (told, then closed): no reconnection, the seat forgotten, calls say why", async () => {
    const store = new MemoryTokenStore();
    const host = await new CockroachClient(ts.endpoint).create('민수');
    const friend = await new CockroachClient(ts.endpoint, { store }).join(host.roomId, '지우');
    const lost: unknown[] = [];
    friend.on('connectionLost', (e) => lost.push(e));
    const told = next(friend, 'error');
    const left = next(friend, 'left');
    // What the room does on `kick` (PROTOCOL v3): the refusal's code and sentence to the player, then its connection closed.
    const client = ts.serverRoom(host.roomId).clients.find((c) => c.sessionId === friend.me)!;
    client.send('error', { code: 'KICKED', message: '방장이 이 방에서 내보냈어요.', action: 'kick' });
    client.leave(CLOSE_CODES.CONSENTED);
    assert.equal((await told).code, 'KICKED');
    const { reason } = await left;
    assert.equal(reason.code, 'KICKED');
    assert.deepEqual(lost, [], 'no reconnection for a removed player');
    assert.equal(store.load(), null);
    await rejects(friend.chat('nice'), 'KICKED');
  });

  it('tells a room that closed from a mistyped one when resuming, and keeps the seat when only the network failed', async () => {
    const store = new MemoryTokenStore();
    const host = await new CockroachClient(ts.endpoint, { store }).create('민수');
    const saved = store.load()!;
    const offline = new MemoryTokenStore();
    offline.save(saved);
    await rejects(new CockroachClient('ws://127.0.0.1:9', { store: offline }).resume(), 'CONNECTION_FAILED');
    assert.deepEqual(offline.load(), saved, 'kept for a later try');
    await ts.serverRoom(host.roomId).disconnect();
    const closed = new MemoryTokenStore();
    closed.save(saved);
    await rejects(new CockroachClient(ts.endpoint, { store: closed }).resume(), 'ROOM_CLOSED');
    assert.equal(closed.load(), null);
  });
});

describe('SDK: lobby seats and their grace', function () {
  this.timeout(30000);
  const ts = useTestServer({ lobbyGraceSeconds: 1 });
  leaveAfterEach();

  it('keeps a lobby seat through a short blip', async () => {
    const host = await new CockroachClient(ts.endpoint).create('민수');
    const friend = await new CockroachClient(ts.endpoint).join(host.roomId, '지우');
    const me = friend.me;
    dropSocket(friend);
    await next(friend, 'reconnected');
    assert.equal(friend.me, me);
    await until(host, () => host.snapshot.seats.some((s) => s.id === me && s.connected), 'still seated');
  });

  it('stops at the first refusal once the server has freed the seat, instead of retrying for minutes', async () => {
    const store = new MemoryTokenStore();
    const host = await new CockroachClient(ts.endpoint).create('민수');
    const friend = await new CockroachClient(ts.endpoint, { store, serverNoticeMs: 300 }).join(host.roomId, '지우');
    const release = holdReconnects(friend);
    dropSocket(friend);
    await until(host, () => !host.snapshot.seats.some((s) => s.id === friend.me), 'the lobby grace ran out', 10000);
    const failed = next(friend, 'reconnectFailed');
    const releasedAt = Date.now();
    release();
    // A server that tells nobody which codes are rooms answers a freed seat as a missing room
    // (4212: ROOM_CLOSED); one that does say "expired" gets SEAT_GONE once it must have noticed.
    const { code } = await failed;
    assert.ok(code === 'SEAT_GONE' || code === 'ROOM_CLOSED', code);
    assert.ok(Date.now() - releasedAt < 3000);
    assert.equal(store.load(), null);
  });
});

describe('SDK: ping, outside the rate limit', function () {
  this.timeout(30000);
  // The server's default message rate (20 at once, then 10 per second).
  const ts = useTestServer({ messageBurst: 20, messagesPerSecond: 10 });
  leaveAfterEach();

  it('pings a quiet connection, is answered with pong, and is never rate-limited for it', async () => {
    const host = await new CockroachClient(ts.endpoint, { pingIntervalMs: 50, deadAfterMs: 3000 }).create('민수');
    const errors: unknown[] = [];
    host.on('error', (e) => errors.push(e));
    host.on('connectionLost', (e) => errors.push(e));
    let pongs = 0;
    roomOf(host).onMessage('pong', () => pongs++);
    let pings = 0;
    const room = roomOf(host);
    const send = room.send.bind(room);
    room.send = ((type: string, message: unknown) => (type === 'ping' && pings++, send(type, message))) as typeof room.send;
    const friend = await new CockroachClient(ts.endpoint).join(host.roomId, '지우');
    await until(host, () => host.snapshot.seats.length === 2, 'seated');
    // Past the burst and the per-second rate of the message bucket in pings alone.
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${pings} pings, ${pongs} pongs`)), 15000);
      const check = setInterval(() => {
        if (pings >= 40 && pongs >= 5) {
          clearTimeout(timer);
          clearInterval(check);
          resolve();
        }
      }, 50);
    });
    await host.start();
    assert.deepEqual(errors, []);
    assert.equal(host.snapshot.phase, 'playing');
    await friend.leave();
  });
});
