import { CLOSE_CODES, ROOM_MESSAGES, SERVER_MESSAGES } from '../protocol';
import { seatIdentity } from '../identity/roomAuth';
import { log } from '../base/log';
import { localRooms } from '../base/rooms';

/** What this needs of a Colyseus client (structural: no import of the room). */
interface LiveClient {
  sessionId: string;
  auth?: unknown;
  send(type: string, message: unknown): void;
  leave(code?: number): void;
}

/**
 * Closes every connection of a revoked identity in this process's rooms, players and watchers
 * alike: each is told AUTH_INVALID and closed as a consented leave (its seat is given up, as after
 * a kick; a reconnection would be refused anyway, the identity's tokens no longer pass). Called
 * for each revocation, made here or learned from the fleet (server/identity/revocations.ts).
 * Returns how many connections were closed.
 */
export function closeConnectionsOf(key: string): number {
  let closed = 0;
  for (const room of localRooms) {
    const clients = (room as unknown as { clients?: LiveClient[] }).clients;
    if (!Array.isArray(clients)) continue;
    for (const client of [...clients]) {
      if (seatIdentity(client.auth)?.key !== key) continue;
      client.send(SERVER_MESSAGES.error, { code: 'AUTH_INVALID', message: ROOM_MESSAGES.AUTH_INVALID, action: 'revoked' });
      client.leave(CLOSE_CODES.CONSENTED);
      closed++;
    }
  }
  if (closed > 0) log.info('guest.revoked_connections_closed', { connections: closed });
  return closed;
}
