import type { IncomingMessage } from 'node:http';
import { Room } from 'colyseus';
import type { Identity } from './types';

/**
 * How the verified Identity reaches the room (PROTOCOL v3 "Who is playing"):
 *
 * 1. The matchmaking guard (server/http/matchmake.ts) verifies the bearer token before anything
 *    is reserved and stores the Identity on the request (`attachIdentity`). The token itself goes
 *    no further: the matchmaker is called without it.
 * 2. The room class's static `onAuth(token, request)` (installed by `carryIdentity`) returns that
 *    Identity. Colyseus 0.15 calls it in every matchmaking method (create, join, joinById,
 *    joinOrCreate) and keeps the result as the seat reservation's `authData`, which travels with
 *    the reservation to the room's process when the room lives elsewhere (Redis mode: a plain
 *    JSON object).
 * 3. In the room, the Identity is `client.auth` in onJoin (and `previousClient.auth`, so the
 *    returning client's, after a reconnection).
 *
 * Colyseus 0.15 skips a room's instance `onAuth` when the reservation carries authData
 * (Room.js `_onJoin`), and CockroachRoom still parses its join options in its instance onAuth.
 * Until that parsing moves to onJoin (core's side), the reservation wrapper
 * (server/room/reservations.ts) keeps the Identity aside for such a room (`holdForInstanceAuth`)
 * and reserves with no authData, so the instance onAuth runs as before; `seatIdentity(room,
 * sessionId)` gives the room the Identity either way. Once the instance onAuth is gone, the
 * Identity is simply `client.auth`.
 *
 * A request that never passed the guard (a test calling the matchmaker directly) has no Identity:
 * the room sees none and treats the player as anonymous.
 */
const IDENTITY = Symbol('cockroach.identity');

export function attachIdentity(req: IncomingMessage, identity: Identity): void {
  (req as unknown as Record<symbol, Identity>)[IDENTITY] = identity;
}

export function requestIdentity(req: unknown): Identity | undefined {
  if (typeof req !== 'object' || req === null) return undefined;
  return (req as Record<symbol, Identity | undefined>)[IDENTITY];
}

export function isIdentity(value: unknown): value is Identity {
  const v = value as Identity | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    (v.kind === 'app' || v.kind === 'guest' || v.kind === 'anonymous') &&
    (v.key === null || typeof v.key === 'string') &&
    typeof v.address === 'string'
  );
}

/** Installs the static onAuth that hands the guard's Identity to Colyseus as authData. Idempotent. */
export function carryIdentity(roomClass: { onAuth?: unknown }): void {
  if (Object.prototype.hasOwnProperty.call(roomClass, 'onAuth')) return;
  roomClass.onAuth = async (_token: unknown, request: unknown): Promise<Identity | undefined> => {
    const identity = requestIdentity(request);
    // A copy, so nothing the room does to it reaches the request (and JSON-plain for other processes).
    return identity ? { ...identity } : undefined;
  };
}

/** Identities kept aside for rooms that still parse their options in an instance onAuth. */
const held = new WeakMap<object, Map<string, Identity>>();

/**
 * For the reservation wrapper: when the room still has an instance onAuth, the Identity is kept
 * here and the reservation is made without authData (else Colyseus would skip that onAuth).
 * Returns the authData to reserve with.
 */
export function holdForInstanceAuth(room: object, sessionId: string, authData: unknown): unknown {
  if (!isIdentity(authData)) return authData;
  // The class's own onAuth: Colyseus wraps the instance's (onUncaughtException), so that one always differs.
  if ((Object.getPrototypeOf(room) as { onAuth?: unknown }).onAuth === Room.prototype.onAuth) return authData;
  let seats = held.get(room);
  if (!seats) held.set(room, (seats = new Map()));
  seats.set(sessionId, authData);
  return undefined;
}

/** The Identity a seat was reserved with (or the client's, once the room reads it from `client.auth`). */
export function seatIdentity(room: object, sessionId: string, auth?: unknown): Identity | undefined {
  if (isIdentity(auth)) return auth;
  return held.get(room)?.get(sessionId);
}

/** The Identity kept aside for a reservation that lapsed or was withdrawn: forgotten with it. */
export function forgetHeldIdentity(room: object, sessionId: string): void {
  held.get(room)?.delete(sessionId);
}
