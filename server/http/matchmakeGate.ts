/**
 * What the matchmaking guard (server/http/matchmake.ts) asks the scale layer, in three calls:
 *
 * - `clusterRefusal(method, roomId)` before anything is read: SERVER_BUSY at once while Redis is
 *   away or this process has not yet put its state back into it (server/ops/cluster.ts), instead
 *   of ioredis queueing the request for ~10 s and the guard answering 500. A reconnect to a room
 *   of this process still goes through (it needs no Redis).
 * - `isUnavailable(error)` on what the matchmaker threw: Redis errors, our own ClusterBusyError
 *   (a slow owner, a room not listed again yet), and Colyseus's timeouts calling a process that
 *   does not answer ("remote room (…) timed out", "process … is not available") are SERVER_BUSY
 *   with HTTP 503, never SERVER_ERROR: the client retries with backoff.
 * - `MatchmakeBudget`: reconnects have their own budget of requests in flight, so players of a
 *   dead process retrying together cannot push healthy creates and joins into SERVER_BUSY.
 */
import { ROOM_MESSAGES } from '../protocol';
import { localRoomById } from '../base/rooms';
import { REMOTE_TIMEOUT_TEXTS } from '../colyseus/errorTexts';

/** Redis cannot answer for this room now: retry (SERVER_BUSY, HTTP 503). */
export class ClusterBusyError extends Error {
  readonly unavailable = true;
  constructor(readonly why: string) {
    super(`SERVER_BUSY: ${ROOM_MESSAGES.SERVER_BUSY}`);
    this.name = 'ClusterBusyError';
  }
}

/** What the gate asks of the cluster (server/ops/cluster.ts): is this process's shared state in order? */
export interface GateCluster {
  healthy(): boolean;
}

let cluster: GateCluster | null = null;

/** server/ops/scale.ts: the running cluster (null: one process, nothing to refuse). */
export function setGateCluster(next: GateCluster | null): void {
  cluster = next;
}

/**
 * Null when matchmaking may go ahead; else the code to answer with (HTTP 503). `roomId`: the
 * path's room for joinById and reconnect.
 */
export function clusterRefusal(method: string | null, roomId: string | null): 'SERVER_BUSY' | null {
  if (cluster === null || cluster.healthy()) return null;
  if (method === 'reconnect' && roomId !== null && localRoomById(roomId)) return null;
  return 'SERVER_BUSY';
}

const UNAVAILABLE = [
  // SERVER_BUSY from a room (no room code free, room codes unreachable) travels as "CODE: 한국어".
  /^SERVER_BUSY: /,
  // Colyseus's own: a call to another process nobody answered
  ...REMOTE_TIMEOUT_TEXTS,
  // ioredis while Redis is away (no offline queue, or retries used up, or the socket closed)
  /Stream isn't writeable/,
  /max retries per request/i,
  /^Connection is closed\.?$/,
  /\b(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH)\b/,
];

/** A failure that means "another process or Redis did not answer", not a bug: SERVER_BUSY (503). */
export function isUnavailable(error: unknown): boolean {
  if (error instanceof ClusterBusyError) return true;
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && UNAVAILABLE.some((pattern) => pattern.test(message));
}

/**
 * Requests in flight, in two pools of `max` each: reconnects, and everything else. A full pool
 * answers SERVER_BUSY for its own kind only.
 */
export class MatchmakeBudget {
  private reconnects = 0;
  private others = 0;

  constructor(private readonly max: number) {}

  /** This kind's pool is full: refuse (SERVER_BUSY) before reading anything. */
  full(method: string): boolean {
    return (method === 'reconnect' ? this.reconnects : this.others) >= this.max;
  }

  /** Counts a request in its pool; the returned function (idempotent) releases it. */
  take(method: string): () => void {
    const reconnect = method === 'reconnect';
    if (reconnect) this.reconnects++;
    else this.others++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (reconnect) this.reconnects--;
      else this.others--;
    };
  }

  inFlight(): { reconnects: number; others: number } {
    return { reconnects: this.reconnects, others: this.others };
  }
}
