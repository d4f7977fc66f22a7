/**
 * Seat reservations as colyseus 0.15.57's Room keeps them, reached past its documented API: the
 * reservation table (`reservedSeats`, protected), its timers and client count (private), the one
 * call every matchmaking path ends in (`_reserveSeat`, private) and the room's lock
 * (`hasReachedMaxClients`). Each part says what breaks if the library changes it; the version
 * check (versions.ts) refuses to start on any other version. What a reservation may be is decided
 * above this file (server/room/reservations.ts hands in the policy).
 */
import { Room, RoomInternalState } from 'colyseus';
import { ownValue } from './localRoom';

/** Room.reservedSeats' entry (Room.d.ts): [options, auth, consumed, held for a reconnection]. */
type Entry = [unknown, unknown, boolean, boolean];

/** One pending or held reservation of a room. */
export interface Reservation {
  sessionId: string;
  options: unknown;
  auth: unknown;
  consumed: boolean;
  /** Held for a reconnection (allowReconnection), not a newcomer's. */
  reconnection: boolean;
}

interface RoomReservations {
  reservedSeats: Record<string, Entry>;
  reservedSeatTimeouts: Record<string, ReturnType<typeof setTimeout>>;
  _decrementClientCount(): Promise<unknown>;
  _internalState: number;
  _autoDisposeTimeout?: ReturnType<typeof setTimeout>;
  clients: { length: number; some(test: (c: { _reconnectionToken?: string }) => boolean): boolean };
  maxClients: number;
}

const internals = (room: object) => room as unknown as RoomReservations;

/**
 * The room's reservations not yet turned into a client. Enumerable only: Room.js makes a
 * reservation non-enumerable while its socket is joining (it is about to be a client). Breaks if
 * the tuple layout changes: test/http/reservations.test.ts counts them.
 */
export function reservationsOf(room: object): Reservation[] {
  const seats = internals(room).reservedSeats;
  return Object.keys(seats).map((sessionId) => {
    const [options, auth, consumed, reconnection] = seats[sessionId];
    return { sessionId, options, auth, consumed, reconnection };
  });
}

/** Is this session's reservation still pending (made, not consumed, not a reconnection's)? */
export function isPending(room: object, sessionId: string): boolean {
  const seats = internals(room).reservedSeats;
  const seat = Object.prototype.propertyIsEnumerable.call(seats, sessionId) ? seats[sessionId] : undefined;
  return seat !== undefined && !seat[2] && !seat[3];
}

/** Is this session's reservation still there and unused (a newcomer's or a held seat's, its socket joining or not)? */
export function isUnused(room: object, sessionId: string): boolean {
  const seat = ownValue(internals(room).reservedSeats, sessionId);
  return seat !== undefined && seat[2] === false;
}

/** Withdraws a pending reservation as its lapse would: the entry, its timer and the listing's count. */
export function withdrawReservation(room: object, sessionId: string): void {
  const r = internals(room);
  clearTimeout(r.reservedSeatTimeouts[sessionId]);
  delete r.reservedSeatTimeouts[sessionId];
  delete r.reservedSeats[sessionId];
  r._decrementClientCount().catch(() => undefined);
}

/** What decides about a reservation: the room's own policy. */
export interface ReservationPolicy {
  /** False: refuse it (the matchmaker reports a full room). Called with the room and the reservation's options and authData. */
  mayReserve(room: Room, joinOptions: unknown, authData: unknown): boolean;
  /** Just before a newcomer's reservation is made. */
  beforeReserve?(room: Room, sessionId: string, authData: unknown): void;
  /** A client left: its reconnection token, to answer later reconnections with "expired" rather than "no room". */
  left?(room: Room, token: string): void;
}

type ReserveSeat = (
  this: Room,
  sessionId: string,
  joinOptions?: unknown,
  authData?: unknown,
  seconds?: number,
  allowReconnection?: boolean,
  devMode?: boolean,
) => Promise<boolean>;
const BOUND = Symbol('boundReservations');

/**
 * Installs `policy` on `roomClass`'s reservations:
 * - Room.js's `_reserveSeat(sessionId, options, auth, seconds, allowReconnection, devMode)` is the
 *   one call every matchmaking path ends in (create, join, joinById, joinOrCreate, and
 *   reservations arriving from other processes): answering false there is reported as a full
 *   room. Reconnection holds pass untouched. Breaks if its name or argument order changes:
 *   test/http/reservations.test.ts.
 * - `_onLeave` tells the policy each leaving client's token.
 * - `hasReachedMaxClients` counts connected clients only, so pending reservations never lock the
 *   room (Room.js counts them); it still answers true while the room is disposing.
 * Idempotent.
 */
export function boundReservations(roomClass: { prototype: object }, policy: ReservationPolicy): void {
  const proto = roomClass.prototype as Record<string | symbol, unknown>;
  if (proto[BOUND]) return;
  const reserve = proto._reserveSeat as ReserveSeat;
  proto._reserveSeat = function (
    this: Room,
    sessionId: string,
    joinOptions?: unknown,
    authData?: unknown,
    seconds?: number,
    allowReconnection?: boolean,
    devMode?: boolean,
  ) {
    if (allowReconnection) return reserve.call(this, sessionId, joinOptions, authData, seconds, allowReconnection, devMode);
    if (!policy.mayReserve(this, joinOptions, authData)) return Promise.resolve(false);
    policy.beforeReserve?.(this, sessionId, authData);
    return reserve.call(this, sessionId, joinOptions, authData, seconds, allowReconnection, devMode);
  } as ReserveSeat;
  const onLeave = proto._onLeave as (this: Room, client: { _reconnectionToken?: string }, code?: number) => Promise<unknown>;
  proto._onLeave = function (this: Room, client: { _reconnectionToken?: string }, code?: number) {
    if (typeof client._reconnectionToken === 'string') policy.left?.(this, client._reconnectionToken);
    return onLeave.call(this, client, code);
  };
  proto.hasReachedMaxClients = function (this: Room) {
    const r = internals(this);
    return r.clients.length >= r.maxClients || r._internalState === RoomInternalState.DISPOSING;
  };
  proto[BOUND] = true;
}

/** Is this the reconnection token of a client connected to the room now (Client._reconnectionToken)? */
export function isConnectedToken(room: object, token: string): boolean {
  return internals(room).clients.some((client) => client._reconnectionToken === token);
}

/**
 * Stops what Room.js's constructor started before `onCreate` ran: the default 50 ms patch
 * interval (public) and the 15 s auto-dispose timer (`_autoDisposeTimeout`, private). Called
 * first in `onCreate`, so a create refused there leaves no timer behind; a create that goes on
 * gets its dispose timer back from the creator's reservation (every reservation restarts it).
 * Breaks silently (a timer left per refused create) if the field is renamed:
 * test/http/reservations.test.ts counts timers.
 */
export function stopConstructorTimers(room: Room): void {
  room.setPatchRate(null);
  const r = internals(room);
  if (r._autoDisposeTimeout !== undefined) {
    clearTimeout(r._autoDisposeTimeout);
    r._autoDisposeTimeout = undefined;
  }
}
