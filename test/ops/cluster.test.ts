import assert from 'node:assert/strict';
import Redis from 'ioredis';
import { RedisDriver } from 'colyseus';
import { buryProcess } from '../../server/ops/burial';
import { healDriver } from '../../server/ops/healingDriver';
import { ClusterBusyError, isUnavailable, MatchmakeBudget } from '../../server/http/matchmakeGate';
import type { Cluster } from '../../server/ops/cluster';
import { requireTestRedis, TestRedis } from './support';
import { NODES_KEY, ROOM_CACHES_KEY, ROOM_COUNT_KEY } from '../../server/colyseus/redisKeys';

const listing = (roomId: string, processId: string, name = 'cockroach-poker') =>
  JSON.stringify({ roomId, processId, name, clients: 1, maxClients: 16, locked: false, private: false, metadata: {} });

describe('cluster: matchmaking gate pieces', () => {
  it('reconnects have a budget of their own: stranded players cannot fill the one creates use', () => {
    const budget = new MatchmakeBudget(2);
    const held = [budget.take('reconnect'), budget.take('reconnect')];
    assert.equal(budget.full('reconnect'), true);
    assert.equal(budget.full('create'), false, 'creates still have their pool');
    const create = budget.take('create');
    budget.take('joinById');
    assert.equal(budget.full('joinOrCreate'), true);
    create();
    create(); // idempotent
    assert.equal(budget.full('join'), false);
    for (const release of held) release();
    assert.deepEqual(budget.inFlight(), { reconnects: 0, others: 1 });
  });

  it('takes "nobody answered" for SERVER_BUSY, and nothing else', () => {
    for (const message of [
      'remote room (AbC) timed out, requesting "checkReconnectionToken with args ["x"]". (2000ms exceeded)',
      'process Xy_z is not available.',
      'ipc_timeout',
      "Stream isn't writeable and enableOfflineQueue options is false",
      'Reached the max retries per request limit (which is 2). Refer to "maxRetriesPerRequest" option for details.',
      'Connection is closed.',
      'connect ECONNREFUSED 127.0.0.1:6379',
      'SERVER_BUSY: 지금 서버가 너무 바빠요.',
    ])
      assert.ok(isUnavailable(new Error(message)), message);
    assert.ok(isUnavailable(new ClusterBusyError('test')));
    for (const message of ['boom', 'ROOM_FULL: 자리가 가득 찼어요.', 'room "x" not found', 'TypeError: x is undefined'])
      assert.ok(!isUnavailable(new Error(message)), message);
    assert.ok(!isUnavailable(undefined));
    assert.ok(!isUnavailable('ipc_timeout'), 'a bare string is not an error we know');
  });
});

describe('cluster: burial and the driver, on a real Redis', function () {
  this.timeout(20000);
  let redis: TestRedis | null = null;
  let client: Redis;

  before(async function () {
    redis = await requireTestRedis(this);
    client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
  });
  beforeEach(() => client.flushall());
  after(async () => {
    client?.disconnect();
    await redis?.stop();
  });

  it('buries a dead process: its listings, count, flags and registry entry go, its codes into quarantine; the living keep theirs', async () => {
    await client.hset(ROOM_CACHES_KEY, 'r1', listing('r1', 'dead'), 'r2', listing('r2', 'live'), 'r3', listing('r3', 'dead'));
    await client.hset(ROOM_COUNT_KEY, 'dead', '2,4', 'live', '1,2');
    await client.sadd('cockroach:draining', 'dead', 'live');
    await client.sadd('cockroach:procs', 'dead', 'live');
    await client.sadd(NODES_KEY, 'dead/undefined:2567', 'live/undefined:2568', 'deadish/undefined:1');
    await client.set('cockroach:code:111111', 'dead');
    await client.set('cockroach:code:222222', 'live');
    await client.sadd('cockroach:codes:dead', '111111');
    await client.set('cockroach:alive:live', '1', 'PX', 6000);

    assert.equal(await buryProcess(client, 'live', 'me'), null, 'a process whose alive key is there is not buried');
    assert.equal(await buryProcess(client, 'me', 'me'), null, 'never ourselves');
    assert.deepEqual(await buryProcess(client, 'dead', 'me', 60_000), { rooms: 2, codes: 1 });

    assert.deepEqual(Object.keys(await client.hgetall(ROOM_CACHES_KEY)), ['r2']);
    assert.deepEqual(Object.keys(await client.hgetall(ROOM_COUNT_KEY)), ['live']);
    assert.deepEqual(await client.smembers('cockroach:draining'), ['live']);
    assert.deepEqual(await client.smembers('cockroach:procs'), ['live']);
    assert.deepEqual((await client.smembers(NODES_KEY)).sort(), ['deadish/undefined:1', 'live/undefined:2568']);
    assert.equal(await client.get('cockroach:code:111111'), 'q');
    assert.ok((await client.pttl('cockroach:code:111111')) > 55_000);
    assert.equal(await client.get('cockroach:code:222222'), 'live');
    assert.equal(await client.exists('cockroach:codes:dead'), 0);
    assert.deepEqual(await buryProcess(client, 'dead', 'me'), { rooms: 0, codes: 0 }, 'twice is harmless');
  });

  it("the driver's listing read recovers after a failed read (redis-driver 0.15.6 kept the rejected read forever)", async () => {
    const driver = new RedisDriver({ lazyConnect: true });
    const inner = driver as unknown as {
      _client: { hgetall(key: string): Promise<Record<string, string>> };
      getRooms(): Promise<unknown[]>;
    };
    let calls = 0;
    inner._client = {
      hgetall: async () => {
        calls++;
        if (calls === 1) throw new Error('Connection is closed.');
        return { r1: listing('r1', 'p1'), r2: listing('r2', 'p2', 'other-room') };
      },
    };
    // The library as shipped: once one read failed, every later one gets the same failure.
    await assert.rejects(inner.getRooms(), /Connection is closed/);
    await assert.rejects(inner.getRooms(), /Connection is closed/, 'the stuck read this replaces');

    calls = 0;
    healDriver(
      driver,
      () => null,
      () => null,
    );
    await assert.rejects(driver.find({}), /Connection is closed/);
    const rooms = await driver.find({ name: 'cockroach-poker' } as never);
    assert.deepEqual(
      rooms.map((r) => r.roomId),
      ['r1'],
    );
    assert.equal(calls, 2, 'a fresh read after the failure');
  });

  it('leaves rooms of dead processes out of the listing and quick match', async () => {
    const driver = new RedisDriver({ lazyConnect: true });
    (driver as unknown as { _client: unknown })._client = {
      hgetall: async () => ({ r1: listing('r1', 'alive'), r2: listing('r2', 'dead'), r3: listing('r3', 'unknown') }),
    };
    const noticed: string[] = [];
    const view = {
      isDead: (pid: string) => pid === 'dead',
      notice: (pid: string) => noticed.push(pid),
    } as unknown as Cluster;
    healDriver(
      driver,
      () => view,
      () => null,
    );
    assert.deepEqual(
      (await driver.find({})).map((r) => r.roomId),
      ['r1', 'r3'],
    );
    const quick = await driver.findOne({ name: 'cockroach-poker', locked: false } as never);
    assert.equal(quick?.roomId, 'r1');
    assert.deepEqual(noticed.sort(), ['alive', 'alive', 'dead', 'dead', 'unknown', 'unknown']);
  });

  it('answers a join by id for a dead owner "not found", a slow one SERVER_BUSY, an unlisted but served room SERVER_BUSY', async () => {
    const driver = new RedisDriver(redis!.url);
    const link = new Redis(redis!.url, { maxRetriesPerRequest: 1 });
    const verdicts: Record<string, string> = { pLive: 'alive', pDead: 'dead', pSlow: 'suspect' };
    const view = {
      judgeOwner: async (pid: string) => verdicts[pid] ?? 'unknown',
      isDead: () => false,
      notice: () => undefined,
    } as unknown as Cluster;
    healDriver(
      driver,
      () => view,
      () => link,
    );
    const subscriber = new Redis(redis!.url);
    try {
      await client.hset(
        ROOM_CACHES_KEY,
        'live1',
        listing('live1', 'pLive'),
        'dead1',
        listing('dead1', 'pDead'),
        'slow1',
        listing('slow1', 'pSlow'),
      );
      assert.equal((await driver.findOne({ roomId: 'live1' }))?.processId, 'pLive');
      assert.equal(await driver.findOne({ roomId: 'dead1' }), undefined, 'Colyseus then answers 4212: the SDK stops (ROOM_CLOSED)');
      await assert.rejects(Promise.resolve(driver.findOne({ roomId: 'slow1' })), ClusterBusyError);
      assert.equal(await driver.findOne({ roomId: 'nowhere' }), undefined);
      assert.equal(await driver.findOne({ roomId: '__proto__' }), undefined, 'a prototype name is just an unknown id');

      // Not listed (yet), but some process still serves it (its room channel): retry, never "closed".
      await subscriber.subscribe('$unlisted1');
      await assert.rejects(Promise.resolve(driver.findOne({ roomId: 'unlisted1' })), ClusterBusyError);
      // Nor while Redis is being refilled.
      await client.set('cockroach:settle', '1', 'PX', 5000);
      await assert.rejects(Promise.resolve(driver.findOne({ roomId: 'nowhere' })), ClusterBusyError);
    } finally {
      subscriber.disconnect();
      link.disconnect();
      await driver.shutdown();
    }
  });
});
