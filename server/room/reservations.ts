/**
 * Seat reservations that cannot lock anyone out (issues 12 and 21), the room's policy over
 * Colyseus's reservation table (the mechanics: server/colyseus/reservations.ts). Colyseus 0.15
 * counts every unconsumed reservation against `maxClients` and locks the room when the sum reaches
 * it, so fifteen reservations that never open a socket shut a lobby for their whole lifetime. Here:
 * - a reservation is made only for valid options, and only while the table would take that person
 *   now (server/table/admission.ts: not kicked, not a newcomer to a locked table, a seat in an open
 *   lobby or a watcher's place), or for an identity that holds a seat in the room (it is taking its
 *   seat back: never refused);
 * - pending reservations do not take the place: whoever opens the socket first sits down (the
 *   room's onJoin checks the real seats), so reservations that never connect keep nobody out. They
 *   are bounded per room (MAX_PENDING_RESERVATIONS): past it the OLDEST pending reservation of
 *   whoever holds the most is withdrawn to make room for the newcomer, never the other way round,
 *   so a few addresses topping up reservations cannot keep a friend out. They lapse after the
 *   short reservation time; the edge bounds them per identity and per address;
 * - reservations never lock the room (Colyseus's lock counts clients only).
 */
import type { Room } from 'colyseus';
import { MAX_PLAYERS } from '../rules';
import type { ErrorCode } from '../protocol';
import { MAX_SPECTATORS } from './constants';
import { parseJoinOptions } from './joinOptions';
import { isIdentity } from '../identity/roomAuth';
import { boundReservations, isConnectedToken, isPending, reservationsOf, withdrawReservation } from '../colyseus/reservations';

/** Unconsumed reservations one room holds at most, players and spectators together. */
export const MAX_PENDING_RESERVATIONS = 32;

/** What this file reads of a room (structural, so tests can hand in a plain object). */
export interface SeatedRoom {
  state?: { phase: string; players: { size: number } };
  spectators: { size: number };
  /**
   * Contract with the room (issue 21 "seats that follow the identity"): the session id of the
   * seat this identity holds in the room, if any. Absent: no identity holds a seat.
   */
  seatOfIdentity?(identityKey: string): string | undefined;
  /**
   * Contract with the room (issue 32): the table's own answer for who may take a place now
   * (server/table/admission.ts: kicked, locked, late, full, watcher places per identity and per
   * address). Absent: the counts below decide.
   */
  admissionRefusal?(identity: { key: string | null; address: string } | null, spectator: boolean): ErrorCode | null;
  /** Contract with the room (issue 32): a newcomer's reservation was made; the room's first names its creator. */
  reserved?(sessionId: string, identity: { key: string | null } | null): void;
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
export function pendingReservations(room: object): { players: number; spectators: number } {
  let players = 0;
  let spectators = 0;
  for (const { options, consumed, reconnection } of reservationsOf(room)) {
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
 * reservations never refuse anyone: the oldest is withdrawn instead.
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
 * withdrawn (as its lapse would), never the newcomer: the oldest of whoever holds the most pending
 * reservations in this room, so someone topping up reservations loses them before a friend loses
 * the one seat they are about to take. Its holder's socket, if it ever comes, is answered "seat
 * reservation expired".
 */
function makeRoomForOneMore(room: object): void {
  const order = reservedOrder.get(room);
  if (!order) return;
  for (const id of order.keys()) if (!isPending(room, id)) order.delete(id);
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
    withdrawReservation(room, victim);
  }
}

/**
 * Makes `roomClass` reserve only for a place the table would give now, bound its pending
 * reservations per room, never lock on them, and answer `hasKnownToken` (TokenRoom) for the
 * guard's reconnect answers. Idempotent.
 */
export function limitReservations(roomClass: { prototype: object }): void {
  boundReservations(roomClass, {
    mayReserve: (room, joinOptions, authData) => seatRefusal(room as unknown as SeatedRoom, joinOptions, authData) === null,
    beforeReserve: (room, sessionId, authData) => {
      makeRoomForOneMore(room);
      let order = reservedOrder.get(room);
      if (!order) reservedOrder.set(room, (order = new Map()));
      order.set(sessionId, holderOf(sessionId, authData));
      const seated = room as unknown as SeatedRoom;
      if (typeof seated.reserved === 'function') seated.reserved(sessionId, isIdentity(authData) ? authData : null);
    },
    left: rememberLeft,
  });
  const proto = roomClass.prototype as Record<string, unknown>;
  proto.hasKnownToken = function (this: Room, token: unknown) {
    if (typeof token !== 'string') return false;
    if (isConnectedToken(this, token)) return true;
    const until = leftTokens.get(this)?.get(token);
    return until !== undefined && until > Date.now();
  };
}
