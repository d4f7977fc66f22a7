/**
 * Seat reservations that cannot lock anyone out (issue 12). Colyseus 0.15 counts every
 * unconsumed reservation against `maxClients` and locks the room when the sum reaches it, so
 * fifteen reservations that never open a socket shut a lobby for their whole lifetime. Here:
 * - a reservation is made only for valid options, and only while a place of its kind (a seat in
 *   an open lobby, a spectator place) is actually free;
 * - pending reservations do not take the place: whoever opens the socket first sits down (the
 *   room's onAuth/onJoin checks the real seats), so reservations that never connect keep nobody
 *   out. They are bounded per room (MAX_PENDING_RESERVATIONS) and lapse after the short
 *   reservation time; the edge bounds them per client address;
 * - reservations never lock the room (Colyseus's lock counts clients only);
 * - a refused create leaves none of the timers Colyseus started before `onCreate`.
 */
import type { Room } from 'colyseus';
import { MAX_PLAYERS } from '../rules';
import type { ErrorCode } from '../protocol';
import { MAX_SPECTATORS } from './constants';
import { parseJoinOptions } from './joinOptions';

/** Unconsumed reservations one room holds at most, players and spectators together. */
export const MAX_PENDING_RESERVATIONS = 32;

/** Colyseus 0.15's reservation record: [options, auth, consumed, held for a reconnection]. */
type Reservation = [unknown, unknown, boolean, boolean];

/** What this file reads of a room (structural, so tests can hand in a plain object). */
export interface SeatedRoom {
  reservedSeats: Record<string, Reservation>;
  state?: { phase: string; players: { size: number } };
  spectators: { size: number };
}

/** Reservations made and not yet consumed, by the kind of place they will take. */
export function pendingReservations(room: SeatedRoom): { players: number; spectators: number } {
  let players = 0;
  let spectators = 0;
  // Enumerable only: Colyseus hides a reservation while its socket is joining (it is about to be a client).
  for (const id of Object.keys(room.reservedSeats)) {
    const [options, , consumed, reconnection] = room.reservedSeats[id];
    if (consumed || reconnection) continue; // a held seat's player is still in `players`
    const parsed = parseJoinOptions(options);
    if (parsed.ok && parsed.join.spectator) spectators++;
    else players++;
  }
  return { players, spectators };
}

/**
 * Why a new reservation with these options must be refused, or null when it may be made.
 * The same codes as the room's own join checks, so a client hears the real reason.
 */
export function seatRefusal(room: SeatedRoom, joinOptions: unknown): ErrorCode | null {
  const parsed = parseJoinOptions(joinOptions);
  if (!parsed.ok) return parsed.code;
  const full: ErrorCode = parsed.join.spectator ? 'SPECTATORS_FULL' : 'ROOM_FULL';
  if (parsed.join.spectator) {
    if (room.spectators.size >= MAX_SPECTATORS) return full;
  } else {
    if (room.state && room.state.phase !== 'lobby') return 'LATE_JOIN';
    if ((room.state?.players.size ?? 0) >= MAX_PLAYERS) return full;
  }
  const pending = pendingReservations(room);
  return pending.players + pending.spectators >= MAX_PENDING_RESERVATIONS ? full : null;
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
const BOUNDED = Symbol('boundedReservations');
/** Colyseus 0.15's RoomInternalState.DISPOSING. */
const DISPOSING = 2;

/**
 * Makes `roomClass` reserve only for a free place: Colyseus's private `_reserveSeat` (the one
 * call every matchmaking path ends in: create, join, joinById, joinOrCreate, and reservations
 * arriving from other processes) answers false first, which the matchmaker reports as a full
 * room. Reconnection holds pass untouched. And `hasReachedMaxClients` counts connected clients
 * only, so pending reservations never lock the room. Idempotent.
 */
export function boundReservations(roomClass: { prototype: object }): void {
  const proto = roomClass.prototype as Record<string | symbol, unknown>;
  if (proto[BOUNDED]) return;
  const reserve = proto._reserveSeat as ReserveSeat;
  proto._reserveSeat = function (
    this: Room & SeatedRoom,
    sessionId: string,
    joinOptions?: unknown,
    authData?: unknown,
    seconds?: number,
    allowReconnection?: boolean,
    devMode?: boolean,
  ) {
    if (!allowReconnection && seatRefusal(this, joinOptions) !== null) return Promise.resolve(false);
    return reserve.call(this, sessionId, joinOptions, authData, seconds, allowReconnection, devMode);
  } as ReserveSeat;
  proto.hasReachedMaxClients = function (this: { clients: { length: number }; maxClients: number; _internalState: number }) {
    return this.clients.length >= this.maxClients || this._internalState === DISPOSING;
  };
  proto[BOUNDED] = true;
}

/**
 * Stops what the Colyseus Room constructor started before `onCreate` ran: the default 50 ms
 * patch interval and the 15 s auto-dispose timer. Called first in `onCreate`, so a create
 * refused there leaves no timer behind; a create that goes on gets its dispose timer back from
 * the creator's reservation (every reservation restarts it).
 */
export function stopConstructorTimers(room: Room): void {
  room.setPatchRate(null);
  const internals = room as unknown as { _autoDisposeTimeout?: ReturnType<typeof setTimeout> };
  if (internals._autoDisposeTimeout !== undefined) {
    clearTimeout(internals._autoDisposeTimeout);
    internals._autoDisposeTimeout = undefined;
  }
}
