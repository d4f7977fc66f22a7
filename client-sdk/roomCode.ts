/**
 * What a person typed for a room, as the room id to ask for. Every room's id is a 6-digit code
 * (PROTOCOL v3 "Family tables"); a child may type it with spaces or dashes ("123 456",
 * "123-456") and spaces around. Anything else that could be an id is passed on as it is (the
 * server answers ROOM_NOT_FOUND); what could never be one is null.
 */
export function roomIdFrom(text: string): string | null {
  if (typeof text !== 'string' || text.length > 64) return null;
  const trimmed = text.trim();
  // The same reading as the server's normalizeRoomCode (server/protocol.ts, from issue 22).
  if (/^[0-9][0-9 -]*[0-9]$/.test(trimmed)) {
    const digits = trimmed.replace(/[ -]/g, '');
    if (/^[0-9]{6}$/.test(digits)) return digits;
  }
  return /^[A-Za-z0-9_-]{1,64}$/.test(trimmed) ? trimmed : null;
}
