import { matchMaker, Room } from 'colyseus';

/** Longest room id looked up: Colyseus's are 9 characters, room codes 6. */
const MAX_ROOM_ID = 64;

/**
 * A room of this process by a client-given id, or undefined. `matchMaker.getRoomById` reads a
 * plain object, so `__proto__`, `constructor` or `toString` answer with `Object.prototype`'s
 * members, and calling a room method on one throws (issue 20: one WebSocket to `/x/__proto__`
 * ended the process). Every lookup by an id a client sent goes through here (eslint enforces it).
 */
export function localRoom<T = Room>(id: unknown): T | undefined {
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ROOM_ID) return undefined;
  // eslint-disable-next-line no-restricted-properties -- the one guarded lookup
  const room: unknown = matchMaker.getRoomById(id);
  return room instanceof Room && room.roomId === id ? (room as T) : undefined;
}

/** `record[key]` only when it is the record's own property (never a prototype member). */
export function ownValue<V>(record: Record<string, V> | undefined | null, key: string): V | undefined {
  return record && Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}
