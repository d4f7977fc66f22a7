/**
 * Several processes (and machines) as one server: Colyseus 0.15's own distributed pieces.
 * With REDIS_URL, presence (pub/sub between processes, seat reservations, room calls) and the
 * matchmaking driver (the room listing) live in Redis, so a room created on any process can be
 * listed, found, joined by id and reconnected to from any other. Each listing carries its
 * process's `publicAddress`, and the client opens `ws(s)://{publicAddress}/{processId}/{roomId}`:
 * the WebSocket always reaches the process that holds the room.
 */
import { matchMaker, RedisDriver, RedisPresence, ServerOptions } from 'colyseus';
import { MemoryRoomCodes, setRoomCodeStore } from '../room/roomCode';
import type { OpsConfig } from './config';
import { DRAINING_KEY } from './drain';
import { logRedisErrors, openRedisLink } from './redisLink';
import { RedisRoomCodes } from './redisRoomCodes';

type ScaleOptions = Pick<ServerOptions, 'presence' | 'driver' | 'publicAddress' | 'selectProcessIdToCreateRoom'>;

/** Server options for the configured mode: none (one process, in memory) or Redis. */
export function scaleOutOptions(ops: OpsConfig): ScaleOptions {
  const options: ScaleOptions = {};
  if (ops.publicAddress) options.publicAddress = ops.publicAddress;
  if (!ops.redisUrl) {
    setRoomCodeStore(new MemoryRoomCodes());
    return options;
  }
  // Room codes are claimed in Redis, unique across every process (server/ops/redisRoomCodes.ts).
  setRoomCodeStore(new RedisRoomCodes(openRedisLink(ops.redisUrl), () => matchMaker.processId));
  const presence = new RedisPresence(ops.redisUrl);
  const driver = new RedisDriver(ops.redisUrl);
  const internals = presence as unknown as { pub: RedisEvents; sub: RedisEvents };
  logRedisErrors('presence.pub', internals.pub);
  logRedisErrors('presence.sub', internals.sub);
  logRedisErrors('driver', (driver as unknown as { _client: RedisEvents })._client);
  return { ...options, presence, driver, selectProcessIdToCreateRoom: selectProcess };
}

/**
 * Where a new room goes: the process with the fewest rooms (Colyseus's default), leaving out
 * processes that are draining. With none left, this process; if it is draining itself, the
 * room's onCreate refuses (SERVER_DRAINING).
 */
export async function selectProcess(): Promise<string> {
  const [all, draining] = await Promise.all([matchMaker.stats.fetchAll(), matchMaker.presence.smembers(DRAINING_KEY)]);
  const skip = new Set(draining);
  const open = all.filter((p) => !skip.has(p.processId)).sort((a, b) => a.roomCount - b.roomCount);
  return open[0]?.processId ?? matchMaker.processId;
}

interface RedisEvents {
  on(event: 'error', listener: (error: Error) => void): unknown;
}
