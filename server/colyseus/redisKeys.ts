/**
 * The names and formats Colyseus keeps in Redis, which server/ops/ (cluster.ts, burial.ts,
 * healingDriver.ts) reads and writes though no API names them. Written for @colyseus/core 0.15.57
 * (Stats.js, MatchMaker.js, discovery/index.js) and @colyseus/redis-driver 0.15.6 (index.js,
 * RoomData.js). If one changes nothing fails loudly: the beat writes a count placement never
 * reads, a burial leaves a dead process's rooms listed, a lookup calls a live room closed.
 * test/ops/cluster.test.ts (burial, resync, healing lookups) and test/ops/multiprocess.test.ts
 * fail; the version check (versions.ts) refuses to start on any other version.
 */

/** Hash processId → "rooms,ccu" (Stats.js `getRoomCountKey`): placement and health checks read it. */
export const ROOM_COUNT_KEY = 'roomcount';

/** Hash roomId → the room's listing as JSON (the Redis driver's room cache: every listing and join reads it). */
export const ROOM_CACHES_KEY = 'roomcaches';

/** Set of `{processId}/{host}:{port}` (discovery's `NODES_SET`). */
export const NODES_KEY = 'colyseus:nodes';

/** A `roomcount` entry as Stats.js writes it. */
export function roomCountEntry(rooms: number, clients: number): string {
  return `${rooms},${clients}`;
}

/** The channel a process subscribes to for calls to it (MatchMaker.js `getProcessChannel`). */
export function processChannel(processId: string): string {
  return `p:${processId}`;
}

/** The channel a room's process subscribes to for calls to the room (MatchMaker.js `getRoomChannel`). */
export function roomChannel(roomId: string): string {
  return `$${roomId}`;
}

/** What a `colyseus:nodes` member of `processId` starts with. */
export function nodePrefix(processId: string): string {
  return `${processId}/`;
}

/** The text inside a listing's JSON that names its process (RoomData.js stringifies its fields). */
export function listingProcessField(processId: string): string {
  return `"processId":${JSON.stringify(processId)}`;
}

/** The text inside a listing's JSON that names its room type (what the driver's `getRooms` filters on). */
export function listingNameField(roomName: string): string {
  return `"name":${JSON.stringify(roomName)}`;
}
