/**
 * Structural checks on every incoming WebSocket frame, before Colyseus 0.15 decodes it. The stock
 * decoder trusts length headers: a 6-byte frame claiming a 4 GB message-type string makes it read
 * past the frame and stalls the process (fixed upstream only in schema 3.x). Here a frame passes
 * only if it is binary, carries a protocol code a client may send, and every length it declares
 * fits inside it.
 */
const JOIN_ROOM = 10;
const LEAVE_ROOM = 12;
const ROOM_DATA = 13;
const MAX_TYPE_LENGTH = 32;

export function isWellFormedFrame(data: unknown, isBinary: boolean): boolean {
  if (!isBinary || !(data instanceof Uint8Array) || data.length === 0) return false;
  switch (data[0]) {
    case JOIN_ROOM:
    case LEAVE_ROOM:
      return data.length === 1;
    case ROOM_DATA:
      return messageTypeFits(data);
    default:
      return false; // ROOM_DATA_BYTES and server-only codes: nothing our clients send
  }
}

/** The message type must be a short string whose declared length lies inside the frame. */
function messageTypeFits(data: Uint8Array): boolean {
  if (data.length < 2) return false;
  const prefix = data[1];
  let length: number;
  let start: number;
  if (prefix >= 0xa0 && prefix <= 0xbf) {
    length = prefix & 0x1f;
    start = 2;
  } else if (prefix === 0xd9 && data.length >= 3) {
    length = data[2];
    start = 3;
  } else {
    return false; // numeric types, str16/str32 headers: never a type of ours
  }
  return length > 0 && length <= MAX_TYPE_LENGTH && start + length <= data.length;
}
