/**
 * Structural checks on every incoming WebSocket frame, before Colyseus 0.15 decodes it. The stock
 * decoder trusts length headers: a 6-byte frame claiming a 4 GB message-type string makes it read
 * past the frame and stalls the process (fixed upstream only in schema 3.x); a type such as
 * "__proto__" is looked up on a plain object and crashes it. Here a frame passes only if it is
 * binary, carries a protocol code a client may send, every length it declares fits inside it,
 * and its message type is one of ours.
 */
import { unpack } from 'msgpackr';
import { MAX_NAME_LENGTH } from '../../protocol';
import { FRAME_CODES } from '../client';

export function isWellFormedFrame(data: unknown, isBinary: boolean, messageTypes: ReadonlySet<string>): boolean {
  if (!isBinary || !(data instanceof Uint8Array) || data.length === 0) return false;
  switch (data[0]) {
    case FRAME_CODES.JOIN_ROOM:
    case FRAME_CODES.LEAVE_ROOM:
      return data.length === 1;
    case FRAME_CODES.ROOM_DATA:
      return messageTypeFits(data, messageTypes);
    default:
      return false; // ROOM_DATA_BYTES and server-only codes: nothing our clients send
  }
}

/** The message type must be a short string, inside the frame, naming one of our messages. */
function messageTypeFits(data: Uint8Array, messageTypes: ReadonlySet<string>): boolean {
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
  if (length === 0 || length > MAX_NAME_LENGTH || start + length > data.length) return false;
  // A Set holds only what was put in it: no prototype key can match.
  if (!messageTypes.has(Buffer.from(data.buffer, data.byteOffset + start, length).toString('latin1'))) return false;
  return payloadDecodes(data.subarray(start + length));
}

/**
 * Colyseus unpacks the payload itself and, when that fails, prints a stack trace per frame: a
 * client could fill the logs at will. Payloads are at most a few KB, so decoding twice is cheap.
 */
function payloadDecodes(payload: Uint8Array): boolean {
  if (payload.length === 0) return true;
  try {
    unpack(payload);
    return true;
  } catch {
    return false;
  }
}
