import assert from 'node:assert/strict';
import Redis from 'ioredis';
import { startServerProcess, ServerProcess } from '../../loadtest/lib/serverProcess';
import { request } from '../http/support';
import { httpGet, requireTestRedis, TestRedis, waitFor } from './support';
import { ROOM_COUNT_KEY } from '../../server/colyseus/redisKeys';

/**
 * Redis mode: a joinOrCreate whose room the matchmaker makes on the other process gets back a copy
 * of the listing taken before its seat (no client in it). Whether it created is what the server
 * did, not that copy: the room is its creator's lobby, and the lobby limit counts it.
 */
describe('ops: a joinOrCreate that created a room on another process counts it as its lobby', function () {
  this.timeout(90000);
  let redis: TestRedis | null = null;
  const procs: ServerProcess[] = [];
  const ids: Record<number, string> = {};

  before(async function () {
    redis = await requireTestRedis(this, 'the created-elsewhere test');
    const env = {
      REDIS_URL: redis.url,
      PUBLIC_ADDRESS: '',
      LOG_LEVEL: 'warn',
      ALLOW_PER_PROCESS_RECORDS: '1', // no PostgreSQL here; this test reads no record
      TRUSTED_PROXY: '127.0.0.1', // each request says its own address
      LOBBIES_PER_ADDRESS: '1',
    };
    procs.push(...(await Promise.all([startServerProcess(env), startServerProcess(env)])));
    for (const p of procs) ids[p.port] = JSON.parse((await httpGet(`http://127.0.0.1:${p.port}/ready`)).body).processId;
  });
  after(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    await redis?.stop();
  });

  const post = (port: number, method: string, from: string, body: Record<string, unknown>) =>
    request(port, 'POST', `/matchmake/${method}/cockroach-poker`, JSON.stringify(body), { 'x-forwarded-for': from });

  it('joinOrCreate placed on the other process, then a create: TOO_MANY_LOBBIES at a limit of 1', async () => {
    const [a, b] = procs;
    // A private room on A first (nothing to quick-match), so that placement (fewest rooms) sends the next create to B.
    const filler = await post(a.port, 'create', '198.51.100.1', { nickname: 'filler', private: true });
    assert.equal(filler.status, 200, filler.body);
    assert.equal(filler.json.room.processId, ids[a.port]);
    const check = new Redis(redis!.url, { maxRetriesPerRequest: 1 });
    try {
      await waitFor(
        async () => Number(((await check.hget(ROOM_COUNT_KEY, ids[a.port])) ?? '0').split(',')[0]) >= 1,
        "A's room count in Redis",
      );
    } finally {
      check.disconnect();
    }

    const made = await post(a.port, 'joinOrCreate', '198.51.100.2', { nickname: 'maker' });
    assert.equal(made.status, 200, made.body);
    assert.equal(made.json.room.processId, ids[b.port], 'made on the other process');
    const again = await post(a.port, 'create', '198.51.100.2', { nickname: 'maker' });
    assert.deepEqual([again.status, again.json?.code], [429, 'TOO_MANY_LOBBIES']);
    const other = await post(a.port, 'create', '198.51.100.3', { nickname: 'someone' });
    assert.equal(other.status, 200, 'another address is not concerned');
  });
});
