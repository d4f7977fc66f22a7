/**
 * What the room (server/room/CockroachRoom.ts) touches of colyseus 0.15.57's `Room` and `Client`
 * beyond their documented API. Each function says what breaks if the library changes it; the
 * version check (versions.ts) refuses to start on any other version.
 */
import { Client, generateId, Protocol, Room } from 'colyseus';

interface ClientInternals {
  /** Client._reconnectionToken (Transport.d.ts, underscore): the token a reconnection presents. */
  _reconnectionToken: string;
  /** The ws socket; Room.js sets `onleave` on it (`ref.onleave`) in `_onJoin`. */
  ref: { removeAllListeners(event: string): void; removeListener(event: string, fn: unknown): void; onleave?: unknown };
}

interface RoomInternals {
  /** Room.js's handler table: a plain object keyed by message type. */
  onMessageHandlers: object;
  /** Room.js's private leave path (what a closed socket runs). */
  _onLeave(client: Client, code: number): Promise<void>;
  /** @gamestdio/clock's protected time source. */
  clock: { now(): number };
}

/**
 * Gives the room a handler table without a prototype. Room.js looks a client's message type up in
 * a plain object, so "__proto__" or "constructor" answered with a prototype member and threw
 * outside any hook (the process ended); with no prototype those fall through to "*". Breaks
 * silently (the crash comes back) if Room.js renames `onMessageHandlers`: test/room/dispatch.test.ts
 * sends those types.
 */
export function handlersWithoutPrototype(room: Room): void {
  (room as unknown as RoomInternals).onMessageHandlers = Object.create(null);
}

/** The reconnection token a client holds now (Client._reconnectionToken). */
export function reconnectionTokenOf(client: Client): string {
  return (client as unknown as ClientInternals)._reconnectionToken;
}

/**
 * Closes `client`'s connection as if it had dropped (not consented), so the room's `onLeave`
 * holds its seat for a reconnection, and gives the seat a fresh token first, so only the
 * connection the seat is handed to (server/room/seats.ts) can take it. Its socket stops being read
 * and its own close no longer runs the leave a second time. Breaks if Room.js changes how
 * `_onJoin` wires `ref.onleave` or `_onLeave`'s signature: test/http/seatsOverHttp.test.ts (a
 * second device takes the seat) fails.
 */
export function handOverAsDropped(room: Room, client: Client): void {
  const internals = client as unknown as ClientInternals;
  internals.ref.removeAllListeners('message');
  if (internals.ref.onleave) internals.ref.removeListener('close', internals.ref.onleave);
  internals._reconnectionToken = generateId();
  void (room as unknown as RoomInternals)._onLeave(client, Protocol.WS_CLOSE_GOING_AWAY);
}

/** Epoch ms from the room clock's time source (@gamestdio/clock's `now`; tests swap it for a fake one). */
export function roomClockNow(room: Room): number {
  return (room as unknown as RoomInternals).clock.now();
}
