import type { IncomingMessage } from 'node:http';
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
 * (Room.js `_onJoin`): CockroachRoom has none, and checks its joins in onJoin.
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

/** The Identity a client joined with (`client.auth`, as the static onAuth handed it over), if it carries one. */
export function seatIdentity(auth: unknown): Identity | undefined {
  return isIdentity(auth) ? auth : undefined;
}
