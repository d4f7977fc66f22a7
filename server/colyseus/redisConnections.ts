/**
 * Colyseus's own Redis connections, for server/ops/ (scale.ts, redisLink.ts decide how they
 * behave): @colyseus/redis-presence 0.15.6 keeps its publisher and subscriber in `pub` and `sub`
 * (public fields, undocumented), @colyseus/redis-driver 0.15.6 its client in `_client` (private);
 * all three are ioredis 5 clients, and ioredis reads `options` again at each reconnection, so
 * options changed on a live client take effect. Breaks if these fields are renamed (a server
 * with REDIS_URL fails at start: test/ops/multiprocess.test.ts fails) or if ioredis stops reading
 * its options per reconnection (Redis coming back is noticed only after ioredis's own backoff,
 * up to 2 s, and requests wait in its queue longer); the version check (versions.ts) refuses to
 * start on any other version.
 */
import type { RedisDriver, RedisPresence } from 'colyseus';
import { driverConnection } from './redisDriver';

/** How a Colyseus connection reconnects and waits (ioredis options). */
export interface ConnectionTuning {
  retryStrategy?: (attempt: number) => number | void | null;
  maxRetriesPerRequest?: number | null;
  connectTimeout?: number;
  /** ioredis 5 reads it per command sent (Redis.js sendCommand). */
  commandTimeout?: number;
}

/** What server/ops/ reads of a Colyseus Redis connection (ioredis). */
export interface ColyseusConnection {
  status: string;
  options: ConnectionTuning;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'ready' | 'close', listener: () => void): unknown;
}

/** Presence's publisher and subscriber and the driver's client, each with a name for the logs. */
export function colyseusConnections(presence: RedisPresence, driver: RedisDriver): { name: string; connection: ColyseusConnection }[] {
  const { pub, sub } = presence as unknown as { pub: ColyseusConnection; sub: ColyseusConnection };
  const client = driverConnection(driver) as unknown as ColyseusConnection;
  return [
    { name: 'presence.pub', connection: pub },
    { name: 'presence.sub', connection: sub },
    { name: 'driver', connection: client },
  ];
}

/** Changes a live connection's options (taken at its next reconnection and request). */
export function retune(connection: ColyseusConnection | undefined, tuning: ConnectionTuning): void {
  if (!connection) return;
  Object.assign(connection.options, tuning);
}
