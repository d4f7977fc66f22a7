/**
 * What the edge (server/http/, server/room/seats.ts) and the cluster (server/ops/cluster.ts) use
 * of colyseus 0.15.57's matchmaker beyond its documented API (its error texts: errorTexts.ts).
 * Each says what breaks if the library changes it; the version check (versions.ts) refuses to
 * start on any other version.
 */
import type http from 'node:http';
import { matchMaker } from 'colyseus';

/** A room's listing as the driver keeps it (RoomListingData, a plain copy in Redis mode). */
export interface Listing {
  roomId: string;
  metadata?: unknown;
}

/**
 * One room's listing by id: `matchMaker.driver.findOne` (typed on MatchMakerDriver, undocumented;
 * one HGET with Redis, where `query()` reads every room's listing). A listing whose id is not the
 * one asked for counts as none. Breaks if the driver's query helpers change:
 * test/http/seatsOverHttp.test.ts and test/ops/multiprocess.test.ts find rooms by code.
 */
export async function listingById(roomId: string): Promise<Listing | undefined> {
  const found = (await matchMaker.driver.findOne({ roomId })) as unknown as Listing | undefined;
  return found && found.roomId === roomId ? found : undefined;
}

/**
 * Writes a room's listing into the driver again, whole: `listing.save()` (typed on
 * RoomListingData); that it re-creates a listing Redis lost is undocumented (redis-driver 0.15.6's
 * RoomData.save is one HSET of every field). False for a room still being created (no roomId yet:
 * Colyseus saves it when done). Breaks if save() becomes an update of a listing that must exist:
 * the Redis drill (test/drills/redis.drill.ts, "listed in Redis again") fails.
 */
export async function republishListing(room: { listing?: { roomId?: string; save(): Promise<unknown> } }): Promise<boolean> {
  const listing = room.listing;
  if (!listing?.roomId) return false;
  await listing.save();
  return true;
}

/**
 * Takes the HTTP server's requests over from Colyseus: `new Server({ server })` installs a
 * `request` listener (undocumented) that treats any URL containing "/matchmake" as matchmaking and
 * reads its body without a limit. Call after `new Server()`. Breaks if Colyseus installs it later
 * (at listen): test/http/matchmake.test.ts sends a huge body and a lookalike path.
 */
export function takeOverRequests(server: http.Server): void {
  server.removeAllListeners('request');
}
