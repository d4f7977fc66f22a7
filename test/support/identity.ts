import { generateId, matchMaker } from 'colyseus';
import { Client } from 'colyseus.js';
import type { Identity } from '../../server/identity/types';
import { CockroachState } from '../../server/schema/CockroachState';
import type { CockroachRoom } from '../../server/room/CockroachRoom';
import { seatBack } from '../../server/room/seats';
import { SeatedRoom, seatRefusal } from '../../server/room/reservations';
import { TestServer, Tracked } from './server';

/** An identity as the matchmaking guard hands it to the room (server/identity/types.ts). */
export function identity(key: string | null, address = '127.0.0.1', nickname?: string): Identity {
  const id: Identity = { key, kind: key === null ? 'anonymous' : key.startsWith('app:') ? 'app' : 'guest', address };
  if (nickname !== undefined) id.nickname = nickname;
  return id;
}

async function listingOf(roomId: string) {
  const [listing] = await matchMaker.query({ roomId });
  if (!listing) throw new Error(`no room ${roomId}`);
  return listing;
}

/**
 * Joins a room as `who`, the way the guard and Colyseus do once the token is verified: a seat
 * reserved with the Identity as its authData (what the room class's static onAuth returns), then
 * the WebSocket (a colyseus.js client consuming that reservation). Refusals reject as colyseus.js
 * does, with the room's "CODE: 한국어" text.
 */
export async function joinAs(
  ts: TestServer,
  roomId: string,
  options: Record<string, unknown>,
  who: Identity,
  label: string,
): Promise<Tracked> {
  const listing = await listingOf(roomId);
  const room = ts.serverRoom(roomId) as unknown as { _reserveSeat(id: string, o: unknown, auth: unknown): Promise<boolean> };
  const sessionId = generateId();
  // A refused reservation is answered with the room's reason, as the guard does.
  if (!(await room._reserveSeat(sessionId, options, who)))
    throw new Error(`${seatRefusal(room as unknown as SeatedRoom, options, who) ?? 'ROOM_FULL'}: refused`);
  const joined = await new Client(ts.endpoint).consumeSeatReservation({ room: listing, sessionId } as never, CockroachState);
  return new Tracked(joined as never, label);
}

/**
 * `joinById` by an identity that may hold a seat there, as the guard does it (server/room/seats.ts):
 * its seat back (a reconnection to its old session id) when it holds one, else an ordinary join.
 */
export async function joinByIdAs(
  ts: TestServer,
  roomId: string,
  options: Record<string, unknown>,
  who: Identity,
  label: string,
): Promise<Tracked> {
  const back = await seatBack(roomId, options, who);
  if (back.kind === 'refused') throw new Error(`${back.code}: refused`);
  if (back.kind === 'join') return joinAs(ts, roomId, options, who, label);
  const room = await new Client(ts.endpoint).consumeSeatReservation(back.reservation as never, CockroachState);
  return new Tracked(room as never, label);
}

export const serverRoom = (ts: TestServer, roomId: string) => ts.serverRoom(roomId) as CockroachRoom;
