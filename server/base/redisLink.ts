/**
 * Redis connections of the scale layer, and how they behave while Redis is away.
 *
 * ioredis's defaults suit a batch job, not a matchmaker: commands issued while Redis is away wait
 * in an offline queue through 20 reconnection attempts (about 10 s), and a dead network path
 * takes 10 s to time out per attempt. A player waits for none of that: our own connection
 * (`openRedisLink`: liveness, room codes, burial) has no offline queue, so a command while Redis
 * is away fails at once (and one Redis does not answer fails after 2 s); Colyseus's connections (presence, driver) keep their queue, with fewer
 * retries and a reconnect at least every second once the server is up (`tuneColyseusClient`).
 */
import Redis from 'ioredis';
import { log } from './log';
import type { ConnectionTuning } from '../colyseus/redisConnections';

/** Reconnect quickly, and keep trying forever: Redis coming back must be noticed within a second. */
export function retryStrategy(attempt: number): number {
  return Math.min(100 * attempt, 1000);
}

export function openRedisLink(url: string): Redis {
  const link = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2000,
    // A Redis that stops answering without closing the connection (paused, overloaded) must not
    // hold a beat or a lookup forever either.
    commandTimeout: 2000,
    retryStrategy,
    connectionName: 'cockroach-scale',
  });
  logRedisErrors('scale', link);
  return link;
}

/**
 * Colyseus's presence and driver connections, once the server listens (at start, the default
 * patience still applies: the process waits ~12 s for Redis, then exits). Set on the live
 * clients by server/colyseus/redisConnections.ts.
 */
// commandTimeout: a Redis that stops answering without closing (paused, overloaded) must fail a
// matchmaking lookup or a listing save in 2 s rather than hold it in ioredis's queue for ever.
export const COLYSEUS_CONNECTION_TUNING: ConnectionTuning = {
  retryStrategy,
  maxRetriesPerRequest: 2,
  connectTimeout: 2000,
  commandTimeout: 2000,
};

/**
 * ioredis retries by itself and prints "Unhandled error event" per failed attempt when nobody
 * listens: log it as a JSON line instead, at most once every 5 s per connection.
 */
export function logRedisErrors(
  connection: string,
  client: { on(event: 'error', listener: (error: Error) => void): unknown } | undefined,
): void {
  let last = 0;
  client?.on('error', (error) => {
    const now = Date.now();
    if (now - last < 5000) return;
    last = now;
    log.warn('redis.error', { connection }, error);
  });
}
