/**
 * The texts of the errors @colyseus/core 0.15.57 throws (MatchMaker.js, IPC.js), which our code
 * tells apart although only their wording differs: a full room from a closed one, a process that
 * does not answer from a failure, a remote call's arguments in a log line. Pure (the logger
 * imports it). Each says what breaks if the wording changes; the version check (versions.ts)
 * refuses to start on any other version.
 */
import { isLockedRoomText } from './client';

/** The text of an error, or ''. */
function textOf(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : '';
}

/**
 * Colyseus answers a reservation a room refused with `SeatReservationError` (not exported):
 * "<roomId> is already full." or "<roomId> is locked", and a locked room's joinById with code 4212,
 * the same as no room at all. Only the text tells them apart. Breaks if the wording changes:
 * test/http/reservations.test.ts expects ROOM_FULL/SPECTATORS_FULL, not ROOM_NOT_FOUND.
 */
export function isRefusedSeat(error: unknown): boolean {
  const text = textOf(error);
  return / is already full\.$/.test(text) || isLockedRoomText(text);
}

/** A 4212 that means "locked", not "no such room" (see isRefusedSeat). */
export function isLockedRoom(error: unknown): boolean {
  return isLockedRoomText(textOf(error));
}

/**
 * A call to another process that nobody answered: `remote room (…) timed out` (a room call),
 * `process … is not available.` (a reservation on a process that failed its health check),
 * `ipc_timeout` (a create on another process). Breaks if the wording changes: those become
 * SERVER_ERROR (500) instead of SERVER_BUSY (503, retried), and test/ops/cluster.test.ts ("takes
 * nobody answered for SERVER_BUSY") fails.
 */
export const REMOTE_TIMEOUT_TEXTS: readonly RegExp[] = [
  /^remote room \(.*\) timed out/,
  /^process \S+ is not available\.?$/,
  /^ipc_timeout$/,
];

/**
 * A remote call's arguments inside the timeout text (`requesting "<method> with args [...]"`):
 * a reconnection token, seat options, auth data. Breaks if the wording changes: those reach the
 * logs (test/ops/logs.test.ts fails). Global: for `replace`.
 */
export const REMOTE_CALL_ARGUMENTS = / with args (\[.*\]|\{.*\}|".*")/g;
