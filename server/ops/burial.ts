/**
 * Burying a dead process (server/ops/cluster.ts decides when): one script, so it is atomic and
 * checks once more, inside Redis, that the process's alive key is really gone. It removes (the
 * names and formats of Colyseus's keys: server/colyseus/redisKeys.ts)
 *   - its listings from Colyseus's `roomcaches` (the room cache every listing and join reads),
 *   - its `roomcount` entry (placement) and its entry in the draining set and our registry,
 *   - its `colyseus:nodes` entries (`{processId}/{host}:{port}`),
 * and moves the room codes it still owned into quarantine (server/ops/redisRoomCodes.ts).
 *
 * Colyseus 0.15 alone leaves these behind: a create that times out against a dead process drops
 * it from `roomcount` without removing its rooms (MatchMaker.js ~290), and later health checks
 * only look at processes still in `roomcount` (~486). Running this is idempotent; two survivors
 * burying the same process at once only repeat work.
 */
import type Redis from 'ioredis';
import { QUARANTINE_MS } from '../room/roomCode';
import { CODE_PREFIX, OWNED_PREFIX } from './redisRoomCodes';
import { DRAINING_KEY } from './drain';
import { listingProcessField, nodePrefix, NODES_KEY, ROOM_CACHES_KEY, ROOM_COUNT_KEY } from '../colyseus/redisKeys';

/** `cockroach:alive:{processId}`: present while the process beats (server/ops/cluster.ts). */
export const ALIVE_PREFIX = 'cockroach:alive:';
/** Every process id that ever beat on this Redis and was not buried since. */
export const PROCS_KEY = 'cockroach:procs';

const BURY = `
local pid = ARGV[1]
if redis.call('EXISTS', KEYS[1]) == 1 then return false end
local needle = ARGV[4]
local rooms = 0
local cursor = '0'
repeat
  local page = redis.call('HSCAN', KEYS[2], cursor, 'COUNT', 500)
  cursor = page[1]
  local items = page[2]
  for i = 1, #items, 2 do
    if string.find(items[i + 1], needle, 1, true) then
      redis.call('HDEL', KEYS[2], items[i])
      rooms = rooms + 1
    end
  end
until cursor == '0'
redis.call('HDEL', KEYS[3], pid)
redis.call('SREM', KEYS[4], pid)
redis.call('SREM', KEYS[5], pid)
local codes = redis.call('SMEMBERS', KEYS[6])
for _, c in ipairs(codes) do
  local k = ARGV[3] .. c
  if redis.call('GET', k) == pid then redis.call('SET', k, 'q', 'PX', ARGV[2]) end
end
redis.call('DEL', KEYS[6])
local prefix = ARGV[5]
for _, n in ipairs(redis.call('SMEMBERS', KEYS[7])) do
  if string.sub(n, 1, #prefix) == prefix then redis.call('SREM', KEYS[7], n) end
end
return {rooms, #codes}`;

export interface Burial {
  rooms: number;
  codes: number;
}

/** Buries `deadProcessId` unless its alive key came back; null when it did (or for ourselves). */
export async function buryProcess(
  redis: Redis,
  deadProcessId: string,
  selfProcessId: string,
  quarantineMs = QUARANTINE_MS,
): Promise<Burial | null> {
  if (deadProcessId === selfProcessId) return null;
  const keys = [
    ALIVE_PREFIX + deadProcessId,
    ROOM_CACHES_KEY,
    ROOM_COUNT_KEY,
    DRAINING_KEY,
    PROCS_KEY,
    OWNED_PREFIX + deadProcessId,
    NODES_KEY,
  ];
  const args = [deadProcessId, String(quarantineMs), CODE_PREFIX, listingProcessField(deadProcessId), nodePrefix(deadProcessId)];
  const result = (await redis.eval(BURY, keys.length, ...keys, ...args)) as [number, number] | null;
  return result ? { rooms: result[0], codes: result[1] } : null;
}
