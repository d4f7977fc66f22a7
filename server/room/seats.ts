/**
 * A seat belongs to its identity (PROTOCOL v3): what the matchmaking guard (server/http/) asks the
 * room before it reserves anything.
 *
 * The Identity itself reaches the room with the seat reservation (the guard's server/identity/
 * puts it there through the room class's static onAuth): it is `client.auth` in `onJoin`.
 *
 * - `seatBack(roomId, options, identity)` (joinById): the identity's own seat in that room is given
 *   back as a reconnection to its old session id (the old connection, if still open, is closed);
 *   a kicked identity is refused KICKED; anything else is an ordinary join.
 * - `reconnectRefusal(roomId, token, identity)` (reconnect): a reconnection token is honoured only
 *   for the identity the seat belongs to, never for a kicked one.
 *
 * Room ids from clients are checked before any lookup (Colyseus keeps rooms in plain objects).
 */
import { matchMaker } from 'colyseus';
import { isOpaqueId, type ErrorCode } from '../protocol';
import { listingById } from '../colyseus/matchmaker';
import type { Identity } from '../identity/types';
import { parseJoinOptions } from './joinOptions';

/** The Identity a seat reservation carried, or an anonymous player when it carried none (a caller that bypassed the guard). */
export function identityOf(auth: unknown): Identity {
  const v = auth as Partial<Identity> | null | undefined;
  const valid =
    typeof v === 'object' &&
    v !== null &&
    (v.kind === 'app' || v.kind === 'guest' || v.kind === 'anonymous') &&
    (v.key === null || typeof v.key === 'string') &&
    typeof v.address === 'string' &&
    (v.nickname === undefined || typeof v.nickname === 'string');
  if (!valid) return { key: null, kind: 'anonymous', address: '' };
  const { key, kind, address, nickname } = v as Identity;
  return nickname === undefined ? { key, kind, address } : { key, kind, address, nickname };
}

/** What the room answers when an identity asks for its seat (CockroachRoom.takeSeatBack). */
export type SeatBackAnswer = { sessionId: string; reconnectionToken: string } | { refused: ErrorCode } | null;

/** What the guard does for a joinById: give the seat back, refuse, or go on with an ordinary join. */
export type SeatBack =
  | { kind: 'reclaim'; reservation: { room: unknown; sessionId: string; reconnectionToken: string } }
  | { kind: 'refused'; code: ErrorCode }
  | { kind: 'join' };

async function listingOf(roomId: string): Promise<{ roomId: string } | undefined> {
  if (!isOpaqueId(roomId)) return undefined;
  return listingById(roomId);
}

/**
 * For `joinById(roomId, options)` from `identity`, before anything is reserved. A player whose
 * identity holds a seat there takes it back (lobby, game or results screen): the answer is the
 * seat reservation to hand the client, `{ room, sessionId, reconnectionToken }`, which colyseus.js
 * consumes as a reconnection, so `me` stays the same. A spectator takes no seat.
 */
export async function seatBack(roomId: string, options: unknown, identity: Identity): Promise<SeatBack> {
  const room = await listingOf(roomId);
  if (!room) return { kind: 'join' };
  const parsed = parseJoinOptions(options);
  const spectator = parsed.ok && parsed.join.spectator;
  const answer = (await matchMaker.remoteRoomCall(roomId, 'takeSeatBack', [identity.key, identity.address, spectator])) as SeatBackAnswer;
  if (answer === null || answer === undefined) return { kind: 'join' };
  if ('refused' in answer) return { kind: 'refused', code: answer.refused };
  return { kind: 'reclaim', reservation: { room, sessionId: answer.sessionId, reconnectionToken: answer.reconnectionToken } };
}

/**
 * For `reconnect(roomId, { reconnectionToken })` from `identity`: KICKED for a kicked player (by
 * identity, address or the kicked connection's token), NOT_YOUR_SEAT when the held seat belongs to
 * another identity (answer it as an expired reconnection: nothing is told), else null.
 */
export async function reconnectRefusal(
  roomId: string,
  reconnectionToken: string,
  identity: Identity,
): Promise<ErrorCode | 'NOT_YOUR_SEAT' | null> {
  const room = await listingOf(roomId);
  if (!room) return null;
  return (await matchMaker.remoteRoomCall(roomId, 'reconnectRefusal', [reconnectionToken, identity.key, identity.address])) ?? null;
}
