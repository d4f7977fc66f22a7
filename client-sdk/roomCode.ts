import { isOpaqueId, normalizeRoomCode } from '../server/protocol';

/**
 * What a person typed for a room, as the room id to ask for. Every room's id is a 6-digit code
 * (PROTOCOL v3 "Family tables"); a child may type it with spaces or dashes ("123 456",
 * "123-456") and spaces around: read as the server reads it (normalizeRoomCode). Anything else
 * that could be an id is passed on as it is (the server answers ROOM_NOT_FOUND); what could
 * never be one is null.
 */
export function roomIdFrom(text: string): string | null {
  const code = normalizeRoomCode(text);
  if (code !== null) return code;
  if (typeof text !== 'string') return null;
  const trimmed = text.trim();
  return isOpaqueId(trimmed) ? trimmed : null;
}
