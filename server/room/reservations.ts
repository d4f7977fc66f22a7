/**
 * Seat reservations that cannot lock anyone out (issues 12 and 21). Colyseus 0.15 counts every
 * unconsumed reservation against `maxClients` and locks the room when the sum reaches it, so
 * fifteen reservations that never open a socket shut a lobby for their whole lifetime. Here:
 * - a reservation is made only for valid options, and only while a place of its kind (a seat in
 *   an open lobby, a spectator place) is actually free, or for an identity that holds a seat in
 *   the room (it is taking its seat back: never refused);
 * - pending reservations do not take the place: whoever opens the socket first sits down (the
 *   room's onAuth/onJoin checks the real seats), so reservations that never connect keep nobody
 *   out. They are bounded per room (MAX_PENDING_RESERVATIONS): past it the OLDEST pending
 *   reservation is withdrawn to make room for the newcomer, never the other way round, so a few
 *   addresses topping up reservations cannot keep a friend out. They lapse after the short
 *   reservation time; the edge bounds them per identity and per address;
 * - reservations never lock the room (Colyseus's lock counts clients only);
 * - a refused create leaves none of the timers Colyseus started before `onCreate`.
 */
import type { Room } from 'colyseus';
import { MAX_PLAYERS } from '../rules';
import type { ErrorCode } from '../protocol';
import { MAX_SPECTATORS } from './constants';
import { parseJoinOptions } from './joinOptions';
import { forgetHeldIdentity, holdForInstanceAuth, isIdentity } from '../identity/roomAuth';

/** Unconsumed reservations one room holds at most, players and spectators together. */
export const MAX_PENDING_RESERVATIONS = 32;

/** Colyseus 0.15's reservation record: [options, auth, consumed, held for a reconnection]. */
type Reservation = [unknown, unknown, boolean, boolean];

/** What this file reads of a room (structural, so tests can hand in a plain object). */
export interface SeatedRoom {
  reservedSeats: Record<string, Reservation>;
  state?: { phase: string; players: { size: number } };
  spectators: { size: number };
  /**
   * Contract with the room (core, issue 21 "seats that follow the identity"): the session id of
   * the seat this identity holds in the room, if any. Absent: no identity holds a seat.
   */
  seatOfIdentity?(identityKey: string): string | undefined;
  /**
   * Contract with the room (issue 32): the table's own answer for who may take a place now
   * (server/table/admission.ts: kicked, locked, late, full, watcher places per identity and per
   * address). Absent: the counts below decide.
   */
  admissionRefusal?(identity: { key: string | null; address: string } | null, spectator: boolean): ErrorCode | null;
}

/**
 * A room answers, from its own process (a remote call in Redis mode), whether a reconnection
 * token is one it handed out: the current one of a client still connected (its drop not noticed
 * yet: "expired, try again"), or one of a client that left within LEFT_TOKEN_MS (its seat is gone:
 * "expired" lets the SDK say SEAT_GONE). A made-up token holds no seat and learns nothing: the
 * guard answers it as for a room that does not exist.
 */
export interface TokenRoom {
  hasKnownToken(token: string): boolean;
}

/** How long a left client's token is still recognised, and how many a room remembers. */
const LEFT_TOKEN_MS = 60 * 60 * 1000;
const MAX_LEFT_TOKENS = 256;
const leftTokens = new WeakMap<object, Map<string, number>>();

function rememberLeft(room: object, token: string): void {
  let left = leftTokens.get(room);
  if (!left) leftTokens.set(room, (left = new Map()));
  left.delete(token);
  left.set(token, Date.now() + LEFT_TOKEN_MS);
  if (left.size > MAX_LEFT_TOKENS) left.delete(left.keys().next().value!);
}

/** Does this identity (a reservation's authData) hold a seat in the room? Then it is coming back. */
export function holdsSeat(room: SeatedRoom, identity: unknown): boolean {
  if (!isIdentity(identity) || identity.key === null || typeof room.seatOfIdentity !== 'function') return false;
  return room.seatOfIdentity(identity.key) !== undefined;
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
 * The same codes as the room's own join checks, so a client hears the real reason. Pending
 * reservations never refuse anyone: the oldest is withdrawn instead (reserveBounded).
 */
export function seatRefusal(room: SeatedRoom, joinOptions: unknown, identity?: unknown): ErrorCode | null {
  const parsed = parseJoinOptions(joinOptions);
  if (!parsed.ok) return parsed.code;
  if (!parsed.join.spectator && holdsSeat(room, identity)) return null;
  if (typeof room.admissionRefusal === 'function')
    return room.admissionRefusal(isIdentity(identity) ? { key: identity.key, address: identity.address } : null, parsed.join.spectator);
  if (parsed.join.spectator) return room.spectators.size >= MAX_SPECTATORS ? 'SPECTATORS_FULL' : null;
  if (room.state && room.state.phase !== 'lobby') return 'LATE_JOIN';
  if ((room.state?.players.size ?? 0) >= MAX_PLAYERS) return 'ROOM_FULL';
  return null;
}

/** Pending reservations of a room in the order they were made (the oldest first), with who holds each. */
const reservedOrder = new WeakMap<object, Map<string, string>>();

/** Whose reservation it is: the identity, else the address; a reservation without either is its own holder. */
function holderOf(sessionId: string, authData: unknown): string {
  if (!isIdentity(authData)) return `session:${sessionId}`;
  return authData.key ?? `address:${authData.address}`;
}

/**
 * Makes room for one more pending reservation: past MAX_PENDING_RESERVATIONS - 1 a pending one is
 * withdrawn (as its lapse would: the reservation, its timer, the listing's count), never the
 * newcomer: the oldest of whoever holds the most pending reservations in this room, so someone
 * topping up reservations loses them before a friend loses the one seat they are about to take.
 * Its holder's socket, if it ever comes, is answered "seat reservation expired".
 */
function makeRoomForOneMore(room: Room & SeatedRoom): void {
  const order = reservedOrder.get(room);
  if (!order) return;
  const pending = (id: string) => {
    const seat = Object.prototype.propertyIsEnumerable.call(room.reservedSeats, id) ? room.reservedSeats[id] : undefined;
    return seat !== undefined && !seat[2] && !seat[3];
  };
  for (const id of order.keys()) if (!pending(id)) order.delete(id);
  while (order.size >= MAX_PENDING_RESERVATIONS) {
    const held = new Map<string, number>();
    for (const holder of order.values()) held.set(holder, (held.get(holder) ?? 0) + 1);
    const most = Math.max(...held.values());
    let victim = '';
    for (const [id, holder] of order) {
      if (held.get(holder) === most) {
        victim = id;
        break;
      }
    }
    order.delete(victim);
    withdraw(room, victim);
  }
}

function withdraw(room: Room & SeatedRoom, sessionId: string): void {
  const internals = room as unknown as {
    reservedSeatTimeouts: Record<string, ReturnType<typeof setTimeout>>;
    _decrementClientCount(): Promise<unknown>;
  };
  clearTimeout(internals.reservedSeatTimeouts[sessionId]);
  delete internals.reservedSeatTimeouts[sessionId];
  delete room.reservedSeats[sessionId];
  forgetHeldIdentity(room, sessionId);
  internals._decrementClientCount().catch(() => undefined);
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
 * room; a newcomer withdraws the oldest pending reservation past the per-room bound; the
 * Identity the reservation carries is kept for the room (server/identity/roomAuth.ts).
 * Reconnection holds pass untouched. And `hasReachedMaxClients` counts connected clients
 * only, so pending reservations never lock the room; `hasKnownToken` (TokenRoom) is added for
 * the guard's reconnect answers. Idempotent.
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
    if (allowReconnection) return reserve.call(this, sessionId, joinOptions, authData, seconds, allowReconnection, devMode);
    if (seatRefusal(this, joinOptions, authData) !== null) return Promise.resolve(false);
    makeRoomForOneMore(this);
    let order = reservedOrder.get(this);
    if (!order) reservedOrder.set(this, (order = new Map()));
    order.set(sessionId, holderOf(sessionId, authData));
    return reserve.call(this, sessionId, joinOptions, holdForInstanceAuth(this, sessionId, authData), seconds, allowReconnection, devMode);
  } as ReserveSeat;
  proto.hasKnownToken = function (this: Room & { clients: { _reconnectionToken?: string }[] }, token: unknown) {
    if (typeof token !== 'string') return false;
    if (this.clients.some((client) => client._reconnectionToken === token)) return true;
    const left = leftTokens.get(this);
    const until = left?.get(token);
    return until !== undefined && until > Date.now();
  };
  const onLeave = proto._onLeave as (this: Room, client: { _reconnectionToken?: string }, code?: number) => Promise<unknown>;
  proto._onLeave = function (this: Room, client: { _reconnectionToken?: string }, code?: number) {
    if (typeof client._reconnectionToken === 'string') rememberLeft(this, client._reconnectionToken);
    return onLeave.call(this, client, code);
  };
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
