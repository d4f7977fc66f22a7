import { GameOptions, MAX_PLAYERS } from '../rules';
import type { Lifecycle, TableView } from '../table/state';

export interface RoomMetadata {
  phase: Lifecycle;
  seats: number;
  maxSeats: number;
  spectators: number;
  host: string;
  options: GameOptions;
}

export interface ListingInput {
  table: TableView;
  /** The room's creator has not taken its seat yet: nothing to join. */
  awaitingCreator?: boolean;
}

/**
 * What the public listing shows of a room, and whether it is listed at all: only an open,
 * unlocked lobby with a host and a free seat is, for quick match (a lobby without a host waits
 * for its family, not for strangers). Spectators still join any unlocked room by id.
 */
export function listingFor({ table, awaitingCreator = false }: ListingInput): { hidden: boolean; metadata: RoomMetadata } {
  const hidden =
    table.isPrivate ||
    awaitingCreator ||
    table.awaitingCreator ||
    table.creator === null ||
    table.locked ||
    (table.hostId === null && table.creator !== null) ||
    table.lifecycle !== 'lobby' ||
    table.seats.size >= MAX_PLAYERS;
  const resolved = table.match?.game.options.loseCount;
  const host = table.hostId === null ? undefined : table.seats.get(table.hostId);
  return {
    hidden,
    metadata: {
      phase: table.lifecycle,
      seats: table.seats.size,
      maxSeats: MAX_PLAYERS,
      spectators: table.watchers.size,
      host: host?.nickname ?? '',
      options: resolved === undefined ? { ...table.options } : { ...table.options, loseCount: resolved },
    },
  };
}
