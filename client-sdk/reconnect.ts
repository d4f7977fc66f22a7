import type { Client, Room } from 'colyseus.js';
import { MATCHMAKE_INVALID_ROOM_ID } from '../server/colyseus/client';
import { CockroachState } from '../server/schema/CockroachState';
import { localError, MATCHMAKE_EXPIRED, matchmakeCode, SdkError, SdkErrorCode, statedRefusal } from './errors';
import { firstState, OpenedRoom } from './firstState';

export interface ReconnectPlan {
  /** Wait before the first try (a dropped socket: give the server a moment to see it); jittered by `spreadMs`. */
  firstDelayMs: number;
  /** Up to this much is added at random to the first wait, so phones dropped together do not come back together. */
  spreadMs: number;
  /** After this moment (epoch ms) a try that did not reach the server ends the attempt (CONNECTION_FAILED). */
  giveUpAt: number;
  /** After this moment a server that still answers 5xx ends the attempt (SERVER_ERROR): it is there, but failing. */
  serverErrorUntil: number;
  /**
   * After this moment a refused token (4214) means the seat is gone. Before it, the server may
   * simply not have noticed the drop yet (its heartbeat needs about 9 s) and still hold the old
   * socket, so the token is not valid *yet*.
   */
  goneAfter: number;
  /**
   * The identity was refused (AUTH_INVALID / AUTH_REQUIRED): get a fresh one if there is one.
   * Resolves true when the next try carries a new token (asked once per attempt).
   */
  renewIdentity?: (code: SdkErrorCode) => Promise<boolean>;
  /** Called before every try: puts the current identity token on the client. */
  beforeTry?: () => Promise<void>;
}

export type ReconnectOutcome = { opened: OpenedRoom } | { error: SdkError };

/** Delays between tries while nothing reaches the server: quick at first, a phone's blip is short. */
export const NETWORK_BACKOFF = { baseMs: 250, capMs: 2000 };
/** Delays between tries while the server answers 5xx: a sick server is not hammered. */
export const SERVER_BACKOFF = { baseMs: 1000, capMs: 15000 };

/**
 * The wait before try number `attempt` (0 = the second try): doubling from `baseMs` up to
 * `capMs`, then drawn in [half, all] of it, so many clients that failed together spread out.
 */
export function backoffMs(attempt: number, steps: { baseMs: number; capMs: number }, random: () => number = Math.random): number {
  const ceiling = Math.min(steps.capMs, steps.baseMs * 2 ** Math.min(attempt, 20));
  return ceiling / 2 + (random() * ceiling) / 2;
}

/** Answers that end the attempt: the seat is not coming back, whatever we try. */
const FINAL: ReadonlySet<string> = new Set(['ROOM_CLOSED', 'KICKED', 'AUTH_REQUIRED', 'AUTH_INVALID']);

type Verdict = { final: SdkError } | { seatNotYetFree: true } | { serverFailing: true } | { unreachable: true };

function judge(error: unknown): Verdict {
  const stated = statedRefusal(error);
  const status = matchmakeCode(error);
  if (status === MATCHMAKE_INVALID_ROOM_ID) return { final: localError('ROOM_CLOSED', 'reconnect') };
  if (stated) {
    // A room the server cannot find (its process died: issue 23) is closed, for a seat.
    if (stated.code === 'ROOM_NOT_FOUND' || stated.code === 'ROOM_CLOSED') return { final: localError('ROOM_CLOSED', 'reconnect') };
    if (FINAL.has(stated.code)) return { final: new SdkError(stated.code, stated.message, 'reconnect') };
    return { serverFailing: true }; // SERVER_ERROR, SERVER_BUSY, TOO_MANY_*: the server is there and will answer better later
  }
  if (status === MATCHMAKE_EXPIRED) return { seatNotYetFree: true };
  if (status !== undefined && status >= 500 && status < 600) return { serverFailing: true };
  return { unreachable: true };
}

/**
 * Takes a seat back with its reconnection token, retrying with jittered backoff until the
 * server answers that the seat is gone (ROOM_CLOSED, KICKED, AUTH_*; SEAT_GONE: 4214 once the
 * server must have noticed), keeps answering 5xx past `serverErrorUntil` (SERVER_ERROR), or
 * nothing reached it before `giveUpAt` (CONNECTION_FAILED). `hurry()` (the player leaves)
 * tries at once and gives up at the moment given.
 */
export class ReconnectAttempt {
  private wake: (() => void) | null = null;
  /** hurry() came while no wait was running: the next wait is skipped. */
  private hurried = false;
  private leaveBy: number | null = null;

  constructor(
    private readonly client: Client,
    private readonly token: string,
    private readonly plan: ReconnectPlan,
  ) {}

  /** The player is leaving: try now, and stop trying at `until` whatever the answers. */
  hurry(until: number): void {
    this.leaveBy = until;
    if (this.wake) this.wake();
    else this.hurried = true;
  }

  get leaving(): boolean {
    return this.leaveBy !== null;
  }

  async run(): Promise<ReconnectOutcome> {
    const plan = this.plan;
    let delay = plan.firstDelayMs + Math.random() * plan.spreadMs;
    let networkTries = 0;
    let serverTries = 0;
    let renewed = false;
    for (;;) {
      if (delay > 0) await this.sleep(delay);
      let room: Room<CockroachState> | undefined;
      try {
        await plan.beforeTry?.();
        room = await this.client.reconnect<CockroachState>(this.token, CockroachState);
        return { opened: await firstState(room) };
      } catch (error) {
        room?.connection.close();
        const verdict = judge(error);
        const now = Date.now();
        if ('final' in verdict) {
          const code = verdict.final.code;
          if ((code === 'AUTH_INVALID' || code === 'AUTH_REQUIRED') && !renewed && plan.renewIdentity) {
            renewed = true;
            if (await plan.renewIdentity(code)) {
              delay = 0;
              continue;
            }
          }
          return { error: verdict.final };
        }
        if (this.leaveBy !== null && now >= this.leaveBy) return { error: localError('NOT_IN_ROOM', 'reconnect') };
        if ('serverFailing' in verdict) {
          if (now >= plan.serverErrorUntil) return { error: localError('SERVER_ERROR', 'reconnect') };
          delay = backoffMs(serverTries++, SERVER_BACKOFF);
        } else {
          if ('seatNotYetFree' in verdict ? now >= plan.goneAfter : now >= plan.giveUpAt)
            return { error: localError('seatNotYetFree' in verdict ? 'SEAT_GONE' : 'CONNECTION_FAILED', 'reconnect') };
          delay = backoffMs(networkTries++, NETWORK_BACKOFF);
        }
        if (this.leaveBy !== null) delay = Math.min(delay, Math.max(0, this.leaveBy - now), NETWORK_BACKOFF.baseMs);
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.hurried) {
      this.hurried = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    }).then(() => {
      this.wake = null;
    });
  }
}

/** One attempt to its end (resume() after a restart). */
export function reconnectSeat(client: Client, token: string, plan: ReconnectPlan): Promise<ReconnectOutcome> {
  return new ReconnectAttempt(client, token, plan).run();
}
