/**
 * Several processes (and machines) as one server: Colyseus 0.15's own distributed pieces, and
 * what heals them (server/ops/cluster.ts).
 * With REDIS_URL, presence (pub/sub between processes, seat reservations, room calls) and the
 * matchmaking driver (the room listing) live in Redis, so a room created on any process can be
 * listed, found, joined by id and reconnected to from any other. Each listing carries its
 * process's `publicAddress`, and the client opens `ws(s)://{publicAddress}/{processId}/{roomId}`:
 * the WebSocket always reaches the process that holds the room.
 */
import type Redis from 'ioredis';
import { matchMaker, RedisDriver, RedisPresence, Server, ServerOptions } from 'colyseus';
import { MemoryRoomCodes, setRoomCodeStore } from '../room/roomCode';
import type { OpsConfig } from '../base/config';
import { DRAINING_KEY } from './drain';
import { Cluster } from './cluster';
import { clusterMetrics } from './clusterMetrics';
import { healDriver } from './healingDriver';
import { setGateCluster } from '../http/matchmakeGate';
import { COLYSEUS_CONNECTION_TUNING, logRedisErrors, openRedisLink } from '../base/redisLink';
import { ColyseusConnection, colyseusConnections, retune } from '../colyseus/redisConnections';
import { processLoads } from '../colyseus/stats';
import { RedisRoomCodes } from './redisRoomCodes';

type ScaleOptions = Pick<ServerOptions, 'presence' | 'driver' | 'publicAddress' | 'selectProcessIdToCreateRoom'>;

interface RedisParts {
  link: Redis;
  codes: RedisRoomCodes;
  /** Colyseus's connections: presence's publisher and subscriber, the driver's client. */
  colyseus: ColyseusConnection[];
}

let parts: RedisParts | null = null;
let cluster: Cluster | null = null;

/** Server options for the configured mode: none (one process, in memory) or Redis. */
export function scaleOutOptions(ops: OpsConfig): ScaleOptions {
  const options: ScaleOptions = {};
  if (ops.publicAddress) options.publicAddress = ops.publicAddress;
  parts = null;
  if (!ops.redisUrl) {
    setRoomCodeStore(new MemoryRoomCodes());
    return options;
  }
  // Our own connection fails fast (server/base/redisLink.ts): liveness, burial, room codes.
  const link = openRedisLink(ops.redisUrl);
  // Room codes are claimed in Redis, unique across every process (server/ops/redisRoomCodes.ts).
  const codes = new RedisRoomCodes(link, () => matchMaker.processId);
  setRoomCodeStore(codes);
  const presence = new RedisPresence(ops.redisUrl);
  const driver = new RedisDriver(ops.redisUrl);
  healDriver(
    driver,
    () => cluster,
    () => parts?.link ?? null,
  );
  const connections = colyseusConnections(presence, driver);
  for (const { name, connection } of connections) logRedisErrors(name, connection);
  parts = { link, codes, colyseus: connections.map(({ connection }) => connection) };
  return { ...options, presence, driver, selectProcessIdToCreateRoom: selectProcess };
}

/**
 * Once the server listens (Redis mode only): Colyseus's connections get quick reconnects and
 * short queues, and this process starts beating (liveness, burial, resync). The beat stops when
 * Colyseus shuts down.
 */
export async function startScale(gameServer: Server): Promise<void> {
  if (!parts) return;
  for (const connection of parts.colyseus) retune(connection, COLYSEUS_CONNECTION_TUNING);
  cluster = new Cluster(parts.link, parts.codes, parts.colyseus);
  clusterMetrics.observe(cluster);
  setGateCluster(cluster);
  const running = cluster;
  gameServer.onShutdown(async () => {
    await running.stop();
    if (cluster === running) {
      cluster = null;
      setGateCluster(null);
    }
  });
  running.start();
  await running.beat();
}

/** Redis's state for /ready: 'off' without REDIS_URL. */
export function redisState(): 'off' | 'up' | 'down' {
  if (!parts) return 'off';
  return cluster?.healthy() ? 'up' : 'down';
}

/** A remote process gets a new room only if it beat this recently (it beats every second). */
export const PLACEMENT_BEAT_MS = 1500;

/**
 * Where a new room goes: the process with the fewest rooms (Colyseus's default), leaving out
 * processes that are draining and processes that stopped beating: the view of the last beat
 * first, then, for the one chosen, a look at it now: it beat within 1.5 s and its Redis
 * subscriber is connected (a killed process's connection closes at once: no create waits 2 s on
 * it, not even right after the kill). With none left, this process; if it is draining itself, the
 * room's onCreate refuses (SERVER_DRAINING).
 */
export async function selectProcess(): Promise<string> {
  const [all, draining] = await Promise.all([processLoads(), matchMaker.presence.smembers(DRAINING_KEY)]);
  const skip = new Set(draining);
  const self = matchMaker.processId;
  // Counts in Redis lag up to a second behind: on a tie this process, which knows its own exactly
  // (and needs no call to another process to create).
  const open = all
    .filter((p) => !skip.has(p.processId) && (cluster?.isAlive(p.processId) ?? true))
    .sort((a, b) => a.roomCount - b.roomCount || Number(b.processId === self) - Number(a.processId === self));
  for (const candidate of open) {
    if (candidate.processId === self || !cluster) return candidate.processId;
    const now = await cluster.probe(candidate.processId);
    if (now && now.listening && now.age <= PLACEMENT_BEAT_MS) return candidate.processId;
  }
  return matchMaker.processId;
}
