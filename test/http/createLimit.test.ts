import assert from 'node:assert/strict';
import Redis from 'ioredis';
import { CreateTicket, EdgeLimits } from '../../server/http/limits';
import type { Identity } from '../../server/identity/types';
import { DEFAULT_EDGE } from '../../server/base/config';
import { requireTestRedis, TestRedis } from '../ops/support';
import { ROOM_CACHES_KEY } from '../../server/colyseus/redisKeys';

const lobby = (roomId: string) => JSON.stringify({ roomId, processId: 'another-process', metadata: { phase: 'lobby' } });

/**
 * Redis mode: a lobby of this identity on another process is read from the shared listing (a real
 * Redis round trip), so creates of one identity that arrive together all wait on Redis at once.
 * Their check and charge must be one step, or every one of them passes the same check.
 */
describe('http: the create limit is checked and charged in one step (a real Redis)', function () {
  this.timeout(20000);
  let redis: TestRedis | null = null;
  let client: Redis;
  let lookups = 0;
  let now = 0;
  const listing = async (roomId: string) => {
    lookups++;
    const json = await client.hget(ROOM_CACHES_KEY, roomId);
    return json === null ? undefined : JSON.parse(json);
  };

  before(async function () {
    redis = await requireTestRedis(this, 'the create limit test');
    client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
  });
  beforeEach(async () => {
    await client.flushall();
    lookups = 0;
    now = 1_000_000;
  });
  after(async () => {
    client?.disconnect();
    await redis?.stop();
  });

  /** One identity with a lobby elsewhere, old enough that the next check reads the listing. */
  async function withRemoteLobby(edge: Partial<typeof DEFAULT_EDGE>): Promise<{ limits: EdgeLimits; who: Identity }> {
    const limits = new EdgeLimits({ ...DEFAULT_EDGE, ...edge }, () => now, listing);
    const who: Identity = { key: 'guest:one', kind: 'guest', address: '198.51.100.7' };
    await client.hset(ROOM_CACHES_KEY, 'elsewhere1', lobby('elsewhere1'));
    const first = await limits.takeCreate(who);
    assert.equal(typeof first, 'object');
    (first as CreateTicket).opened({ roomId: 'elsewhere1', processId: 'another-process' });
    now += 11_000;
    return { limits, who };
  }

  it('eight creates at once against a limit of 3 a minute: 2 more pass (with the one before), the rest are refused, none charged twice', async () => {
    const { limits, who } = await withRemoteLobby({ createsPerMinute: 3, lobbiesPerPlayer: 100 });
    const answers = await Promise.all(Array.from({ length: 8 }, () => limits.takeCreate(who)));
    assert.ok(lookups >= 1, 'the checks waited on Redis');
    const passed = answers.filter((a) => typeof a === 'object') as CreateTicket[];
    assert.equal(passed.length, 2);
    assert.deepEqual(
      answers.filter((a) => typeof a === 'string'),
      Array(6).fill('TOO_MANY_REQUESTS'),
    );
    for (const t of passed) t.release();
    assert.equal(await limits.takeCreate(who), 'TOO_MANY_REQUESTS', 'a create that made nothing stays charged');
  });

  it('eight creates at once against a limit of 3 lobbies: 2 more pass; a joinOrCreate that joined frees its place', async () => {
    const { limits, who } = await withRemoteLobby({ createsPerMinute: 100, lobbiesPerPlayer: 3 });
    const answers = await Promise.all(Array.from({ length: 8 }, () => limits.takeCreate(who)));
    assert.ok(lookups >= 1, 'the checks waited on Redis');
    const passed = answers.filter((a) => typeof a === 'object') as CreateTicket[];
    assert.equal(passed.length, 2);
    assert.deepEqual(
      answers.filter((a) => typeof a === 'string'),
      Array(6).fill('TOO_MANY_LOBBIES'),
    );
    passed[0].opened({ roomId: 'elsewhere2', processId: 'another-process' });
    await client.hset(ROOM_CACHES_KEY, 'elsewhere2', lobby('elsewhere2'));
    passed[1].joined();
    const next = await limits.takeCreate(who);
    assert.equal(typeof next, 'object', 'two lobbies open and nothing held: a third may open');
    assert.equal(await limits.takeCreate(who), 'TOO_MANY_LOBBIES', 'held by the create under way');
  });
});
