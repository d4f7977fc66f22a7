/**
 * Two pieces of @colyseus/redis-driver 0.15.6, replaced on the driver instance (the mechanics:
 * server/colyseus/redisDriver.ts); what they answer is decided here:
 *
 * - `getRooms` (build/index.js ~82-90) shares one in-flight HGETALL between concurrent lookups and
 *   forgets it only when it succeeds: after one failed read (Redis away) every later listing and
 *   quick match gets the same rejected promise, until the process restarts. Ours forgets it
 *   however it ends, gives up after READ_TIMEOUT_MS, and leaves out rooms of processes the
 *   cluster view knows are dead (no ghost listed or quick-matched before the burial).
 * - `findOne({ roomId })`, the lookup of `joinById` and `reconnect`: a room of this process is
 *   answered from memory (a player reconnects to it even while Redis is away); a room whose
 *   process is dead is answered "not found", so Colyseus says 4212 and the client stops
 *   (ROOM_CLOSED) instead of waiting 2 s for a process that will never answer; a room whose
 *   process is slow, or that is missing while Redis is being refilled, is SERVER_BUSY (retry).
 */
import type Redis from 'ioredis';
import type { RedisDriver } from 'colyseus';
import { localRoomById } from '../base/rooms';
import type { Cluster } from './cluster';
import { ClusterBusyError } from '../http/matchmakeGate';
import { DriverListing, replaceLookups } from '../colyseus/redisDriver';
import { listingNameField, ROOM_CACHES_KEY, roomChannel } from '../colyseus/redisKeys';

/** A listing read that takes longer than this is given up (SERVER_BUSY): ioredis may still be retrying. */
export const READ_TIMEOUT_MS = 3000;

export function healDriver(driver: RedisDriver, cluster: () => Cluster | null, link: () => Redis | null): void {
  replaceLookups(driver, (stock) => {
    let inflight: Promise<Record<string, string>> | null = null;

    async function rooms(roomName: string | undefined): Promise<DriverListing[]> {
      if (!inflight) {
        const read = withTimeout(stock.client.hgetall(ROOM_CACHES_KEY), READ_TIMEOUT_MS);
        inflight = read;
        const forget = () => {
          if (inflight === read) inflight = null;
        };
        read.then(forget, forget);
      }
      const all = await inflight;
      const field = roomName === undefined ? null : listingNameField(roomName);
      const view = cluster();
      const found: DriverListing[] = [];
      for (const value of Object.values(all ?? {})) {
        if (field !== null && !value.includes(field)) continue;
        const room = stock.listingFrom(value);
        if (view && room.processId) {
          view.notice(room.processId);
          if (view.isDead(room.processId)) continue;
        }
        found.push(room);
      }
      return found;
    }

    async function byId(roomId: string): Promise<DriverListing | undefined> {
      const local = localRoomById(roomId)?.listing;
      if (local?.roomId === roomId) return local as DriverListing;
      const view = cluster();
      const redis = link();
      if (!view || !redis) return stock.findById(roomId);
      let replies: [Error | null, unknown][] | null;
      try {
        replies = await withTimeout(
          redis.multi().hget(ROOM_CACHES_KEY, roomId).pubsub('NUMSUB', roomChannel(roomId)).pttl('cockroach:settle').exec(),
          READ_TIMEOUT_MS,
        );
      } catch {
        throw new ClusterBusyError('room lookup failed');
      }
      const cached = replies?.[0]?.[1];
      const subscribers = Number((replies?.[1]?.[1] as unknown[] | undefined)?.[1] ?? 0);
      const settling = Number(replies?.[2]?.[1]) > 0;
      if (typeof cached !== 'string') {
        // Not listed. A process still serving it (subscribed to its channel) or a Redis being
        // refilled means "not yet listed again", never "closed".
        if (subscribers > 0 || settling) throw new ClusterBusyError('room not listed yet');
        return undefined;
      }
      const room = stock.listingFrom(cached);
      const verdict = room.processId ? await view.judgeOwner(room.processId) : 'alive';
      if (verdict === 'dead') return undefined;
      if (verdict !== 'alive') throw new ClusterBusyError(`owner ${verdict}`);
      return room;
    }

    return { rooms, byId };
  });
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ClusterBusyError('redis read timed out')), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
