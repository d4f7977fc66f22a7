import { MAX_PLAYERS } from '../rules';
import type { TableRefusal } from './vocabulary';
import { barSignal, Joiner, SeatState, TableView, WatcherState } from './state';

/** Watchers one table takes (PROTOCOL v1 "Spectators: up to 10 more"). */
export const MAX_WATCHERS = 10;
/**
 * Watcher places one address takes at most: half, so a script with many identities on one address
 * cannot fill them all, while a family watching from home still fits (issue 32 "Keep a place for
 * family").
 */
export const MAX_WATCHERS_PER_ADDRESS = 5;

export type JoinKind = 'sit' | 'watch';

/** The seat that belongs to this identity key, if any. */
export function seatOf(state: Pick<TableView, 'seats'>, key: string): Readonly<SeatState> | undefined {
  for (const seat of state.seats.values()) if (seat.identity === key) return seat;
  return undefined;
}

/** The watcher place this identity key holds, if any. */
export function watcherOf(state: Pick<TableView, 'watchers'>, key: string): Readonly<WatcherState> | undefined {
  for (const watcher of state.watchers.values()) if (watcher.identity === key) return watcher;
  return undefined;
}

/**
 * While the table is locked, who is not a newcomer: the creator, an identity holding a seat, and
 * the identities that were at the table when it locked: a player to sit or watch again, a watcher
 * only to watch again (a watcher placed in advance must not sit down at a locked table). Never an
 * anonymous player: nothing tells one anonymous connection from the next.
 */
export function admittedWhileLocked(state: TableView, who: Joiner | null | undefined, kind: JoinKind): boolean {
  if (!who || who.key === null) return false;
  const creator = state.creator;
  if (creator !== null && 'key' in creator && creator.key === who.key) return true;
  if (seatOf(state, who.key) !== undefined) return true;
  const was = state.lockAdmitted.get(who.key);
  return was === 'sit' || (was === 'watch' && kind === 'watch');
}

/**
 * The one rule for who may sit down or watch at this table now: null when they may, else the
 * refusal. A kicked identity (or an anonymous player's address) is out for the room's life; a
 * locked table takes no newcomer; then places: seats only in the lobby, watcher places per
 * identity (coming back to one's own place is never refused for room) and per address.
 * Taking back a seat one holds is a reconnection, decided before this (the room's seat hand-over).
 */
export function joinRefusal(state: TableView, who: Joiner | null | undefined, kind: JoinKind): TableRefusal | null {
  if (who && state.barred.has(barSignal(who))) return 'KICKED';
  if (kind === 'sit' && who && who.key !== null && seatOf(state, who.key)) return 'ALREADY_SEATED';
  if (state.locked && !admittedWhileLocked(state, who, kind)) return 'LOCKED';
  if (kind === 'watch') {
    if (who && who.key !== null && watcherOf(state, who.key)) return null;
    if (state.watchers.size >= MAX_WATCHERS) return 'SPECTATORS_FULL';
    if (who && watchersFrom(state, who.address) >= MAX_WATCHERS_PER_ADDRESS) return 'SPECTATORS_FULL';
    return null;
  }
  if (state.lifecycle !== 'lobby') return 'LATE_JOIN';
  if (state.seats.size >= MAX_PLAYERS) return 'ROOM_FULL';
  return null;
}

function watchersFrom(state: Pick<TableView, 'watchers'>, address: string): number {
  let n = 0;
  for (const watcher of state.watchers.values()) if (watcher.address === address) n++;
  return n;
}
