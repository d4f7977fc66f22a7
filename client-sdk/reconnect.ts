import type { Client, Room } from 'colyseus.js';
import { MATCHMAKE_INVALID_ROOM_ID } from '../server/protocol';
import { CockroachState } from '../server/schema/CockroachState';
import { localError, MATCHMAKE_EXPIRED, matchmakeCode, SdkError } from './errors';
import { firstState, OpenedRoom } from './firstState';

export interface ReconnectPlan {
  /** Wait before the first try (a dropped socket: give the server a moment to see it). */
  firstDelayMs: number;
  /** After this moment (epoch ms) a try that did not reach the server ends the attempt. */
  giveUpAt: number;
  /**
   * After this moment a refused token (4214) means the seat is gone. Before it, the server may
   * simply not have noticed the drop yet (its heartbeat needs about 9 s) and still hold the old
   * socket, so the token is not valid *yet*.
   */
  goneAfter: number;
  cancelled: () => boolean;
}

export type ReconnectOutcome = { opened: OpenedRoom } | { error: SdkError };

const MAX_DELAY_MS = 2000;

/**
 * Takes a seat back with its reconnection token, retrying with backoff until the server answers
 * that the seat is gone (ROOM_CLOSED: 4212; SEAT_GONE: 4214 once the server must have noticed),
 * or nothing reached the server before `giveUpAt` (CONNECTION_FAILED).
 */
export async function reconnectSeat(client: Client, token: string, plan: ReconnectPlan): Promise<ReconnectOutcome> {
  let delay = plan.firstDelayMs;
  for (;;) {
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    if (plan.cancelled()) return { error: localError('NOT_IN_ROOM', 'reconnect') };
    let room: Room<CockroachState> | undefined;
    try {
      room = await client.reconnect<CockroachState>(token, CockroachState);
      return { opened: await firstState(room) };
    } catch (error) {
      room?.connection.close();
      const code = matchmakeCode(error);
      if (code === MATCHMAKE_INVALID_ROOM_ID) return { error: localError('ROOM_CLOSED', 'reconnect') };
      const now = Date.now();
      if (code === MATCHMAKE_EXPIRED) {
        if (now >= plan.goneAfter) return { error: localError('SEAT_GONE', 'reconnect') };
      } else if (now >= plan.giveUpAt) {
        return { error: localError('CONNECTION_FAILED', 'reconnect') };
      }
    }
    // Jitter spreads the retries of many phones after a server restart.
    delay = Math.min(Math.max(delay * 2, 250), MAX_DELAY_MS) * (0.8 + Math.random() * 0.4);
  }
}
