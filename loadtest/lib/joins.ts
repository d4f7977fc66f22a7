/**
 * A bot's create or join, bounded in time, and the kind its failure is counted under: what went
 * wrong, not only that something did (issue 36: a cascade showed as seat reservations expiring,
 * sockets closed with 1006, refusals, and joins that never answered).
 */
import { parseRefusalText } from '../../server/protocol';

/** colyseus.js waits for a join as long as it takes; past this the bot counts a timeout and gives up. */
export const JOIN_TIMEOUT_MS = 20_000;

export class JoinTimeout extends Error {
  constructor(ms: number) {
    super(`no answer in ${ms} ms`);
  }
}

/**
 * `join` within `ms`; a room that arrives later is left at once (it would hold a seat nobody plays).
 */
export function withinJoinTimeout<R extends { leave(consented?: boolean): Promise<unknown> }>(
  join: Promise<R>,
  ms = JOIN_TIMEOUT_MS,
): Promise<R> {
  return new Promise((resolve, reject) => {
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      reject(new JoinTimeout(ms));
    }, ms);
    join.then(
      (room) => {
        clearTimeout(timer);
        if (late) void room.leave(true).catch(() => undefined);
        else resolve(room);
      },
      (error: unknown) => {
        clearTimeout(timer);
        if (!late) reject(error);
      },
    );
  });
}

/**
 * The kind a failed create or join is counted under: `join timed out`, `join: seat reservation
 * expired` (the socket came after the server let the seat go), `join refused SERVER_BUSY` (one of
 * our refusals, by code: server/protocol.ts refusalText), else `join failed <code>` (a socket
 * error such as ECONNRESET, or Colyseus's own code).
 */
export function joinFailureKind(step: 'create' | 'join', error: unknown): string {
  if (error instanceof JoinTimeout) return `${step} timed out`;
  const { message, code } = (error ?? {}) as { message?: unknown; code?: unknown };
  if (typeof message === 'string' && message.includes('seat reservation expired')) return `${step}: seat reservation expired`;
  const refusal = parseRefusalText(message);
  if (refusal) return `${step} refused ${refusal.code}`;
  const name = typeof code === 'string' || typeof code === 'number' ? String(code) : ((error as Error | null)?.name ?? 'unknown');
  return `${step} failed ${name}`;
}
