import assert from 'node:assert/strict';
import Redis from 'ioredis';
import {
  allocateRoomCode,
  drawCode,
  MemoryRoomCodes,
  releaseRoomCode,
  ROOM_CODE,
  RoomCodeBusyError,
  RoomCodeStore,
} from '../../server/room/roomCode';
import { buryRoomCodes, CODE_PREFIX, EPOCH_KEY, ensureEpoch, RedisRoomCodes, SETTLE_KEY } from '../../server/ops/redisRoomCodes';
import { setLogSink } from '../../server/base/log';
import { requireTestRedis, TestRedis, waitFor } from './support';

describe('room codes: allocation', () => {
  it('draws 6-digit codes, leading zeros kept, spread over the whole space', () => {
    const seen = new Set<string>();
    let leadingZero = 0;
    for (let i = 0; i < 5000; i++) {
      const code = drawCode();
      assert.match(code, ROOM_CODE);
      seen.add(code);
      if (code.startsWith('0')) leadingZero++;
    }
    // 5000 draws from 10^6 codes repeat about 12.5 times (n²/2N, Poisson, sd 3.5): 40 repeats is a
    // broken draw, not chance (a 4980 bound failed once in CI with 24).
    assert.ok(seen.size > 4960, `mostly distinct: ${seen.size}`);
    // 10 % of codes start with 0; 5000 draws: far outside 300–700 only with a broken draw.
    assert.ok(leadingZero > 300 && leadingZero < 700, `leading zeros: ${leadingZero}`);
  });

  it('never hands out a live code twice, and refuses with SERVER_BUSY once the space is used up', async () => {
    const store = new MemoryRoomCodes(60_000, Date.now, 50);
    const codes = new Set<string>();
    // Random draws find most of a small space; the last few free codes may take more draws than allowed.
    for (;;) {
      let code: string;
      try {
        code = await allocateRoomCode(store);
      } catch (error) {
        assert.ok(error instanceof RoomCodeBusyError);
        break;
      }
      assert.match(code, ROOM_CODE);
      assert.ok(Number(code) < 50, code);
      assert.ok(!codes.has(code), `${code} twice`);
      codes.add(code);
    }
    assert.ok(codes.size >= 40, `most of the space handed out: ${codes.size}`);
    for (let i = 0; i < 50; i++) await store.claim([String(i).padStart(6, '0')]);
    assert.deepEqual(store.counts(), { live: 50, quarantined: 0 });
    // Every code live: refused at once, with the code the edge and the SDK know.
    await assert.rejects(allocateRoomCode(store), (error: Error) => {
      assert.ok(error instanceof RoomCodeBusyError);
      assert.match(error.message, /^SERVER_BUSY: /);
      return true;
    });
  });

  it('keeps a released code out of circulation for the quarantine, then hands it out again', async () => {
    let now = 1_000_000;
    const store = new MemoryRoomCodes(6 * 3600_000, () => now, 3);
    const a = await allocateRoomCode(store);
    const b = await allocateRoomCode(store);
    const c = await allocateRoomCode(store);
    await releaseRoomCode(b, store);
    assert.deepEqual(store.counts(), { live: 2, quarantined: 1 });
    now += 6 * 3600_000 - 1;
    await assert.rejects(allocateRoomCode(store), RoomCodeBusyError, 'the released code is still quarantined');
    now += 1;
    assert.equal(await allocateRoomCode(store), b, 'free again once the quarantine is over');
    assert.deepEqual(new Set([a, b, c]).size, 3);
    await releaseRoomCode('12345', store); // not a code: ignored
    await releaseRoomCode('999999', store); // not held: ignored
    assert.deepEqual(store.counts(), { live: 3, quarantined: 0 });
  });

  it('turns a store that cannot answer into SERVER_BUSY', async () => {
    const broken: RoomCodeStore = {
      space: 1_000_000,
      claim: () => Promise.reject(new Error('connection lost')),
      release: () => Promise.reject(new Error('connection lost')),
    };
    await assert.rejects(allocateRoomCode(broken), RoomCodeBusyError);
    await releaseRoomCode('123456', broken); // never throws
  });
});

describe('room codes in Redis', function () {
  this.timeout(20000);
  let redis: TestRedis | null = null;
  let client: Redis;
  let other: Redis;

  before(async function () {
    redis = await requireTestRedis(this);
    client = new Redis(redis.url, { enableOfflineQueue: true, maxRetriesPerRequest: 1 });
    other = new Redis(redis.url, { enableOfflineQueue: true, maxRetriesPerRequest: 1 });
  });
  beforeEach(async () => {
    await client.flushall();
    await ensureEpoch(client);
  });
  after(async () => {
    client?.disconnect();
    other?.disconnect();
    await redis?.stop();
  });

  it('claims atomically: two stores racing over 40 codes get 40 distinct ones, then SERVER_BUSY', async () => {
    const a = new RedisRoomCodes(client, () => 'procA', { space: 40 });
    const b = new RedisRoomCodes(other, () => 'procB', { space: 40 });
    const got: string[] = [];
    const busy: unknown[] = [];
    await Promise.all(
      Array.from({ length: 48 }, async (_, i) => {
        try {
          got.push(await allocateRoomCode(i % 2 === 0 ? a : b));
        } catch (error) {
          busy.push(error);
        }
      }),
    );
    assert.equal(new Set(got).size, got.length, 'no code twice');
    assert.ok(got.length >= 36, `nearly the whole space handed out: ${got.length}`);
    assert.ok(busy.every((e) => e instanceof RoomCodeBusyError));
    for (const code of got) assert.ok(['procA', 'procB'].includes((await client.get(CODE_PREFIX + code))!));
  });

  it('quarantines a released code with a TTL, and a release never takes another process’s code', async () => {
    const a = new RedisRoomCodes(client, () => 'procA', { quarantineMs: 60_000 });
    const code = (await a.claim(['123456']))!;
    assert.equal(code, '123456');
    assert.equal(await a.claim(['123456']), null, 'taken');
    await a.release(code);
    assert.equal(await client.get(CODE_PREFIX + code), 'q');
    const ttl = await client.pttl(CODE_PREFIX + code);
    assert.ok(ttl > 55_000 && ttl <= 60_000, `ttl ${ttl}`);
    assert.equal(await a.claim(['123456']), null, 'quarantined codes are not handed out');
    assert.deepEqual(await client.smembers('cockroach:codes:procA'), []);

    await client.set(CODE_PREFIX + '222222', 'procB');
    await a.release('222222');
    assert.equal(await client.get(CODE_PREFIX + '222222'), 'procB', 'left alone');
  });

  it('survivors quarantine a dead process’s codes', async () => {
    const dead = new RedisRoomCodes(client, () => 'dead1');
    await dead.claim(['111111']);
    await dead.claim(['111112']);
    await client.set(CODE_PREFIX + '111113', 'other'); // listed under dead1 by mistake: not its own
    await client.sadd('cockroach:codes:dead1', '111113');
    assert.equal(await buryRoomCodes(other, 'dead1', 30_000), 3);
    for (const code of ['111111', '111112']) {
      assert.equal(await client.get(CODE_PREFIX + code), 'q');
      assert.ok((await client.pttl(CODE_PREFIX + code)) > 25_000);
    }
    assert.equal(await client.get(CODE_PREFIX + '111113'), 'other');
    assert.equal(await client.exists('cockroach:codes:dead1'), 0);
  });

  it('after Redis lost its data: claims wait for the settle window while live codes are claimed again', async () => {
    const a = new RedisRoomCodes(client, () => 'procA', { settleMs: 1500, settleWaitMs: 4000 });
    const b = new RedisRoomCodes(other, () => 'procB', { settleMs: 1500, settleWaitMs: 4000 });
    await a.claim(['424242']);
    await b.claim(['414141']);
    await b.release('414141');
    await client.flushall(); // Redis restarted empty

    const started = Date.now();
    const claiming = b.claim(['424242', '434343']);
    // The first claim after the loss opens the settle window (and waits it out).
    await waitFor(async () => (await client.exists(SETTLE_KEY)) === 1, 'the settle window');
    assert.ok(await client.exists(EPOCH_KEY));
    assert.deepEqual(await a.resync(), { reclaimed: 1, conflicts: [] });
    assert.equal(await claiming, '434343', 'the live code was claimed back before anyone could take it');
    assert.ok(Date.now() - started >= 1200, 'it waited for the window');
    assert.equal(await client.get(CODE_PREFIX + '424242'), 'procA');
    assert.deepEqual(await client.smembers('cockroach:codes:procA'), ['424242']);
  });

  it('a fresh Redis (no epoch yet) hands out codes at once to a process that never knew another', async () => {
    await client.flushall();
    const fresh = new RedisRoomCodes(client, () => 'procF', { settleMs: 5000, settleWaitMs: 100 });
    assert.equal(await fresh.claim(['777777']), '777777');
    assert.equal(await client.exists(SETTLE_KEY), 0);
    assert.equal(await client.exists(EPOCH_KEY), 1);
  });

  it('fails fast while Redis is away (no offline queue): SERVER_BUSY, and the release is sent later', async () => {
    const offline = new Redis(redis!.url, { enableOfflineQueue: false, maxRetriesPerRequest: 0, lazyConnect: true });
    try {
      const store = new RedisRoomCodes(offline, () => 'procC');
      const started = Date.now();
      const lines: string[] = [];
      setLogSink((line) => lines.push(line));
      try {
        await assert.rejects(allocateRoomCode(store), RoomCodeBusyError); // not connected yet
        await releaseRoomCode('555555', store);
      } finally {
        setLogSink(null);
      }
      assert.ok(Date.now() - started < 1000, 'at once');
      assert.deepEqual(
        lines.map((l) => JSON.parse(l).event),
        ['roomcode.release_failed'],
      );
      if (offline.status !== 'ready') await new Promise((resolve) => offline.once('ready', resolve));
      await client.set(CODE_PREFIX + '555555', 'procC');
      await store.resync();
      assert.equal(await client.get(CODE_PREFIX + '555555'), 'q', 'the missed release went through');
    } finally {
      offline.disconnect();
    }
  });
});
