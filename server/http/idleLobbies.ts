import { localRooms, OpsRoom } from '../base/rooms';
import { errorReply } from '../room/errors';
import { SERVER_MESSAGES } from '../protocol';

/**
 * Closes lobbies of this process that have waited longer than `lifetimeMs` without a game
 * starting (IDLE_LOBBY_SECONDS): a lobby nobody plays in is a seat in the listing and memory
 * nobody uses. Time counts from when the room was first seen in the lobby phase, again after a
 * rematch. Its clients are told LOBBY_EXPIRED first. One process-wide sweep, not a timer per room.
 */
export function closeIdleLobbies(lifetimeMs: number, now: () => number = Date.now): { sweep(): number; stop(): void } {
  const lobbySince = new WeakMap<OpsRoom, number>();
  const sweep = (): number => {
    const t = now();
    let closed = 0;
    for (const room of localRooms) {
      if (room.state?.phase !== 'lobby') {
        lobbySince.delete(room);
        continue;
      }
      const since = lobbySince.get(room);
      if (since === undefined) {
        lobbySince.set(room, t);
        continue;
      }
      if (t - since < lifetimeMs) continue;
      lobbySince.delete(room);
      closed++;
      room.broadcast(SERVER_MESSAGES.error, errorReply('LOBBY_EXPIRED', ''));
      room.disconnect().catch(() => undefined);
    }
    return closed;
  };
  const timer = setInterval(sweep, Math.min(30_000, Math.max(250, lifetimeMs / 4)));
  timer.unref();
  return { sweep, stop: () => clearInterval(timer) };
}
