import { GameOptions, MAX_PLAYERS } from '../rules';
import type { CockroachState } from '../schema/CockroachState';

export interface RoomMetadata {
  phase: CockroachState['phase'];
  seats: number;
  maxSeats: number;
  spectators: number;
  host: string;
  options: GameOptions;
}

export interface ListingInput {
  state: CockroachState;
  spectators: number;
  options: GameOptions;
  isPrivate: boolean;
  /** The room's creator has not taken its seat yet: nothing to join. */
  awaitingCreator?: boolean;
}

/**
 * What the public listing shows of a room, and whether it is listed at all: only an open lobby
 * with a free seat is, for quick match. Spectators still join any room by id.
 */
export function listingFor({ state, spectators, options, isPrivate, awaitingCreator = false }: ListingInput): {
  hidden: boolean;
  metadata: RoomMetadata;
} {
  const hidden = isPrivate || awaitingCreator || state.phase !== 'lobby' || state.players.size >= MAX_PLAYERS;
  const loseCount = state.phase === 'lobby' ? options.loseCount : state.options.loseCount;
  return {
    hidden,
    metadata: {
      phase: state.phase,
      seats: state.players.size,
      maxSeats: MAX_PLAYERS,
      spectators,
      host: state.players.get(state.hostId)?.nickname ?? '',
      options: loseCount === undefined ? { ...options } : { ...options, loseCount: loseCount as GameOptions['loseCount'] },
    },
  };
}
