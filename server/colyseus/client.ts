/**
 * What a client sees of Colyseus 0.15 beyond the documented API, for the SDK (client-sdk/), the
 * load tools (loadtest/), the server's matchmaking and the tests. Pure: it imports colyseus.js's
 * types and nothing else, so the SDK package compiles it in (client-sdk/tools/pack.ts) and no
 * server code comes with it.
 *
 * Written for colyseus 0.15.57 (@colyseus/core: Protocol.ts's codes, MatchMaker.js's texts),
 * colyseus.js 0.15.28 (Connection, WebSocketTransport, SchemaSerializer) and @colyseus/schema
 * 2.0.37 (the decoder's reference table). What breaks if one changes is said below; the server's
 * version check (versions.ts) refuses to start on any other version, and the SDK package pins
 * colyseus.js exactly (client-sdk/package.json).
 */
import type { Room } from 'colyseus.js';

/**
 * Colyseus 0.15's matchmaking error codes (`ErrorCode` in Protocol.ts, on the wire as the HTTP
 * answer's `code`). Breaks if renumbered: the SDK takes a closed room for a network failure
 * (test/sdk/reconnect.test.ts fails).
 */
export const MATCHMAKE_CODES = {
  /** `join`/`joinOrCreate` found no room (and may not create one). */
  INVALID_CRITERIA: 4211,
  /** No room with that id (mistyped, or closed); also a locked room (see isLockedRoomText). */
  INVALID_ROOM_ID: 4212,
  /** A reconnection (or a seat reservation) that is no longer held. */
  EXPIRED: 4214,
} as const;
/** Colyseus 0.15 matchmaking error for a room id that does not exist (or no longer does). */
export const MATCHMAKE_INVALID_ROOM_ID = MATCHMAKE_CODES.INVALID_ROOM_ID;

/**
 * The first byte of a frame (`Protocol` in Protocol.ts): what a client may send (the server's
 * frame guard lets only these through) and the two state frames the load tools count. Breaks if
 * renumbered: test/transport/frames.test.ts and the load tools' byte counts.
 */
export const FRAME_CODES = {
  JOIN_ROOM: 10,
  LEAVE_ROOM: 12,
  ROOM_DATA: 13,
  /** The full state a joiner gets first. */
  ROOM_STATE: 14,
  /** A patch. */
  ROOM_STATE_PATCH: 15,
} as const;

/**
 * Colyseus answers a reservation in a locked room `room "<id>" is locked` (MatchMaker.js, code
 * 4212, the same as no room at all) or `<id> is locked` (SeatReservationError): only the text
 * tells a full room from a closed one. Breaks if the wording changes: the server answers
 * ROOM_NOT_FOUND instead of ROOM_FULL (test/http/reservations.test.ts fails), and so does the SDK
 * facing a server that does not state its refusals.
 */
export function isLockedRoomText(text: string): boolean {
  return / is locked$/.test(text);
}

/** The browser's WebSocket or Node's `ws` under a colyseus.js room, as far as we use it. */
export interface RawSocket {
  readonly url: string;
  readonly readyState: number;
  readonly bufferedAmount: number;
  binaryType: string;
  send(data: unknown): void;
  onmessage: ((event: { data: ArrayBuffer }) => void) | null;
  addEventListener(type: 'message', listener: (event: { data: ArrayBuffer }) => void): void;
  addEventListener(type: string, listener: () => void): void;
  /** Node's `ws` only: drops the connection without a closing handshake. */
  terminate?(): void;
}

/**
 * The socket under a colyseus.js room: `room.connection.transport.ws` (`ws` is declared on
 * WebSocketTransport, not on the `ITransport` the connection types). Undefined before it connects.
 * Breaks if colyseus.js renames it: the SDK then waits for a silent socket's close instead of
 * ending it (test/sdk/connection.test.ts), the load tools count nothing.
 */
export function rawSocketOf(room: Room): RawSocket | undefined {
  return (room.connection as unknown as { transport?: { ws?: RawSocket } }).transport?.ws;
}

/** Ends a room's socket at once where the platform can (Node's `ws`); false where it cannot (a browser). */
export function terminateSocket(room: Room): boolean {
  const ws = rawSocketOf(room);
  if (typeof ws?.terminate !== 'function') return false;
  ws.terminate();
  return true;
}

/**
 * Stops decoding the room's state: patch frames are dropped before colyseus.js sees them (it set
 * the socket's `onmessage`), every other frame is handled as before, and the decoded state (the
 * SchemaSerializer's `state`) is let go. For load clients that keep what they need from messages.
 */
export function stopDecodingPatches(room: Room): void {
  (room.serializer as unknown as { state: unknown }).state = undefined;
  const ws = rawSocketOf(room);
  const decodeFrame = ws?.onmessage;
  if (!ws || !decodeFrame) return;
  ws.onmessage = (event) => {
    const data = event.data;
    if (data.byteLength === 0 || new Uint8Array(data, 0, 1)[0] !== FRAME_CODES.ROOM_STATE_PATCH) decodeFrame(event);
  };
}

/**
 * The decoded objects of a client's state by refId (schema 2.0's `$changes.root.refs`): what
 * `state.decode()`'s changes name in their `refId`. Breaks if schema renames it (3.x did): the
 * hidden-information checks find no object (test/loadtest/leakCheck.test.ts fails).
 */
export function decodedRefs(state: object): Map<number, unknown> {
  return (state as { $changes: { root: { refs: Map<number, unknown> } } }).$changes.root.refs;
}
