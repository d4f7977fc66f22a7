import assert from 'node:assert/strict';
import type { Client } from 'colyseus.js';
import { CockroachClient, MemoryTokenStore } from '../../client-sdk/index';
import { backoffMs, NETWORK_BACKOFF, ReconnectAttempt, SERVER_BACKOFF } from '../../client-sdk/reconnect';
import { useTestServer } from '../support/server';
import { fakeMatchmaker, FakeMatchmaker, pointAt, refusal, Reply } from './fakeMatchmaker';
import { dropSocket, leaveAfterEach, next, rejects } from './support';

describe('SDK reconnection: dead rooms, failing servers, storms (issue 23)', function () {
  this.timeout(30000);
  const ts = useTestServer();
  leaveAfterEach();
  let fake: FakeMatchmaker | null = null;
  afterEach(async () => {
    await fake?.close();
    fake = null;
  });

  /** A seated player whose reconnections will go to the fake matchmaker. */
  async function seatedThenCutOff(answer: () => Reply, options = {}) {
    const store = new MemoryTokenStore();
    const host = await new CockroachClient(ts.endpoint, { guest: false }).create('민수');
    const player = await new CockroachClient(ts.endpoint, { store, guest: false, ...options }).join(host.roomId, '지우');
    fake = await fakeMatchmaker(answer);
    pointAt(player, fake);
    return { host, player, store };
  }

  for (const [label, answer] of [
    ['ROOM_CLOSED stated with HTTP 200', () => refusal(200, 'ROOM_CLOSED')],
    ['ROOM_NOT_FOUND stated with HTTP 404', () => refusal(404, 'ROOM_NOT_FOUND')],
    ["Colyseus's own 4212", () => ({ status: 200, body: { code: 4212, error: 'room not found' } })],
  ] as const) {
    it(`stops at the first answer that the room is dead (${label}): reconnectFailed ROOM_CLOSED, the seat freed`, async () => {
      const { player, store } = await seatedThenCutOff(answer);
      const failed = next(player, 'reconnectFailed', 5000);
      const left = next(player, 'left', 5000);
      const droppedAt = Date.now();
      dropSocket(player);
      const error = await failed;
      await left;
      assert.equal(error.code, 'ROOM_CLOSED');
      assert.equal(error.message, '방이 닫혔어요. 새 방에서 다시 모여요.');
      assert.equal(fake!.seen.filter((r) => r.path.startsWith('/matchmake/reconnect/')).length, 1, 'one question, one answer');
      assert.ok(Date.now() - droppedAt < 2500, `${Date.now() - droppedAt} ms`);
      assert.equal(store.load(), null, 'the seat is forgotten');
      // A move now says what happened, not "reconnecting".
      await rejects(player.chat('nice'), 'ROOM_CLOSED');
    });
  }

  it("stops at KICKED (the host removed me while I was away): reconnectFailed KICKED with the server's sentence, the seat freed", async () => {
    const { player, store } = await seatedThenCutOff(() => refusal(403, 'KICKED', '방장이 이 방에서 내보냈어요.'));
    const failed = next(player, 'reconnectFailed', 5000);
    const left = next(player, 'left', 5000);
    dropSocket(player);
    const error = await failed;
    assert.deepEqual([error.code, error.message], ['KICKED', '방장이 이 방에서 내보냈어요.']);
    assert.equal((await left).reason.code, 'KICKED');
    assert.equal(fake!.seen.length, 1);
    assert.equal(store.load(), null);
  });

  it('resume() of a seat in a dead room answers ROOM_CLOSED and forgets it', async () => {
    const { player, store } = await seatedThenCutOff(() => refusal(200, 'ROOM_CLOSED'));
    const saved = store.load()!;
    const restarted = new MemoryTokenStore();
    restarted.save(saved);
    const client = new CockroachClient(`ws://127.0.0.1:${fake!.port}`, { store: restarted, guest: false });
    await rejects(client.resume(), 'ROOM_CLOSED');
    assert.equal(restarted.load(), null);
    await player.leave();
  });

  it('treats 5xx as a failing server, not as no network: spaced tries, then SERVER_ERROR, the seat kept for resume()', async function () {
    this.timeout(40000);
    const { player, store } = await seatedThenCutOff(() => refusal(500, 'SERVER_ERROR'), { serverErrorSeconds: 4 });
    const saved = store.load();
    const failed = next(player, 'reconnectFailed', 30000);
    const droppedAt = Date.now();
    dropSocket(player);
    const error = await failed;
    const took = Date.now() - droppedAt;
    assert.equal(error.code, 'SERVER_ERROR');
    assert.match(error.message, /[\uAC00-\uD7A3]/);
    const tries = fake!.seen.map((r) => r.at);
    // 4 s of a failing server: a handful of tries spaced 0.5–1 s, 1–2 s, 2–4 s, … (not every 2 s for 300 s).
    assert.ok(took >= 4000 && took < 4000 + SERVER_BACKOFF.capMs, `${took} ms`);
    assert.ok(tries.length >= 3 && tries.length <= 6, `${tries.length} tries`);
    const gaps = tries.slice(1).map((t, i) => t - tries[i]);
    assert.ok(
      gaps.every((gap, i) => gap >= (SERVER_BACKOFF.baseMs * 2 ** i) / 2 - 50),
      `gaps ${gaps.join(', ')} ms`,
    );
    assert.deepEqual(store.load(), saved, 'kept: the server may heal');
    await rejects(player.offer(1, 'x', 'rat'), 'SERVER_ERROR');
  });

  it('spreads the first tries of 80 phones cut off at once over more than a second (jitter)', async () => {
    const tries: number[] = [];
    const client = {
      reconnect: () => {
        tries.push(Date.now());
        return Promise.reject(new Error('offline'));
      },
    } as unknown as Client;
    const start = Date.now();
    const attempts = Array.from(
      { length: 80 },
      () =>
        new ReconnectAttempt(client, 'room:token', {
          firstDelayMs: 250,
          spreadMs: 1500,
          giveUpAt: start, // one try each
          serverErrorUntil: start,
          goneAfter: start,
        }),
    );
    const outcomes = await Promise.all(attempts.map((a) => a.run()));
    assert.ok(outcomes.every((o) => 'error' in o && o.error.code === 'CONNECTION_FAILED'));
    tries.sort((a, b) => a - b);
    const busiest = Math.max(...tries.map((t) => tries.filter((u) => u >= t && u < t + 240).length));
    assert.ok(tries[0] - start >= 240, 'the first waits for the server to see the drop');
    assert.ok(tries[79] - tries[0] > 1000, `spread over ${tries[79] - tries[0]} ms`);
    assert.ok(busiest <= 30, `${busiest} of 80 within 240 ms`);
  });

  it('backs off in jittered, doubling, capped steps', () => {
    const low = () => 0;
    const high = () => 0.999999;
    assert.deepEqual(
      [0, 1, 2, 3, 4].map((n) => backoffMs(n, NETWORK_BACKOFF, low)),
      [125, 250, 500, 1000, 1000],
    );
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5].map((n) => Math.round(backoffMs(n, SERVER_BACKOFF, high))),
      [1000, 2000, 4000, 8000, 15000, 15000],
    );
  });
});
