import assert from 'node:assert/strict';
import net from 'node:net';
import Redis from 'ioredis';
import { Cluster } from '../../server/ops/cluster';
import { clusterMetrics } from '../../server/ops/clusterMetrics';
import { setLogSink } from '../../server/base/log';
import { registry } from '../../server/base/metrics';
import { openRedisLink } from '../../server/base/redisLink';
import { localRooms, OpsRoom } from '../../server/base/rooms';
import { bootEdge } from '../http/support';
import type { TestServer } from '../support/server';
import { requireTestRedis, TestRedis, waitFor } from './support';
import { ROOM_CACHES_KEY } from '../../server/colyseus/redisKeys';

/** A "Redis" that accepts connections and never answers a command (a paused or wedged server). */
function silentRedis(): Promise<{ url: string; close(): void }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('data', () => undefined);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      resolve({
        url: `redis://127.0.0.1:${port}`,
        close: () => {
          for (const socket of sockets) socket.destroy();
          server.close();
        },
      });
    }),
  );
}

async function failures(reason: string): Promise<number> {
  const m = registry.getSingleMetric('cockroach_redis_resync_failures_total');
  return (await m?.get())?.values.find((v) => v.labels.reason === reason)?.value ?? 0;
}

describe('cluster: a resync that Redis never answers', function () {
  this.timeout(20000);
  let redis: TestRedis | null = null;
  let server: TestServer | null = null;

  before(async function () {
    redis = await requireTestRedis(this, 'the resync timeout test');
    // A server running in this process: a resync is skipped while Colyseus shuts down, and an
    // earlier test's server may have left the matchmaker shut down.
    server = await bootEdge();
  });
  after(async () => {
    await server?.server.close();
    await redis?.stop();
  });

  it('fails with RESYNC_TIMEOUT (logged, counted), keeps the process busy, and the next beat puts the state back', async () => {
    const silent = await silentRedis();
    // Like Colyseus's driver connection: an offline queue and no command timeout.
    const driver = new Redis(silent.url, { enableReadyCheck: false, lazyConnect: true });
    const check = new Redis(redis!.url);
    const link = openRedisLink(redis!.url);
    const listing = { roomId: 'resync1', save: () => driver.hset(ROOM_CACHES_KEY, 'resync1', '{}') };
    const room: OpsRoom = {
      roomId: 'resync1',
      clients: { length: 1 },
      spectators: { size: 0 },
      broadcast: () => undefined,
      disconnect: async () => undefined,
      listing,
    };
    const lines: string[] = [];
    const cluster = new Cluster(link, null, [], Date.now, 300);
    clusterMetrics.observe(cluster);
    const before = await failures('timeout');
    localRooms.add(room);
    setLogSink((line) => lines.push(line));
    try {
      await waitFor(() => link.status === 'ready', 'the link');
      await cluster.beat();
      cluster.needResync('reconnected');
      const t0 = Date.now();
      await cluster.beat();
      const took = Date.now() - t0;
      assert.ok(took >= 250 && took < 2000, `the beat came back after ${took} ms`);
      const failed = lines.map((l) => JSON.parse(l)).filter((l) => l.event === 'cluster.resync_failed');
      assert.deepEqual(
        failed.map((l) => [l.level, l.why, l.code]),
        [['warn', 'reconnected', 'RESYNC_TIMEOUT']],
      );
      assert.match(failed[0].errMessage ?? JSON.stringify(failed[0]), /did not finish within 300 ms/);
      assert.equal((await failures('timeout')) - before, 1);
      assert.equal(cluster.healthy(), false, 'matchmaking stays SERVER_BUSY until the state is back');

      listing.save = () => check.hset(ROOM_CACHES_KEY, 'resync1', '{}');
      await cluster.beat();
      assert.equal(cluster.healthy(), true);
      assert.equal(await check.hget(ROOM_CACHES_KEY, 'resync1'), '{}');
    } finally {
      setLogSink(null);
      localRooms.delete(room);
      await cluster.stop();
      driver.disconnect();
      check.disconnect();
      silent.close();
    }
  });
});
