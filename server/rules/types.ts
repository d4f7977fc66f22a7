import type { Kind } from './kinds';
import type { ResolvedOptions } from './options';
import type { RngState } from './rng';

export type PlayerId = string;
export type CallValue = 'true' | 'false';
export type LossReason = 'four' | 'emptyHand' | 'eightKinds';

export type Action =
  | { type: 'offer'; cardId: number; to: PlayerId; claim: Kind }
  | { type: 'call'; call: CallValue }
  | { type: 'peek' }
  | { type: 'pass'; to: PlayerId; claim: Kind };
/** The four moves, in the rules' order; server/protocol.ts names them on the wire from this list. */
export const ACTION_TYPES = ['offer', 'call', 'peek', 'pass'] as const satisfies readonly Action['type'][];

export interface Claim {
  from: PlayerId;
  to: PlayerId;
  claim: Kind;
}

export interface Round {
  /** Counts rounds from 1; a new number means a new card and a new set of people who saw it. */
  no: number;
  starter: PlayerId;
  /** Id of the card in flight; it belongs to no hand. */
  card: number | null;
  /** Who must decide; null while the starter is choosing. */
  holder: PlayerId | null;
  lastPasser: PlayerId | null;
  /** The latest claim: the only one a call is judged against. */
  claim: Kind | null;
  /** Who has seen the card in flight: the starter and every holder who peeked. */
  seen: PlayerId[];
  claims: Claim[];
  /** The current holder has peeked and so must pass. */
  peeked: boolean;
}

export interface Reveal {
  card: number;
  kind: Kind;
  claim: Kind;
  call: CallValue;
  caller: PlayerId;
  correct: boolean;
  takenBy: PlayerId;
}

/** The whole game, PRNG included. Plain JSON: serialise it, store it, restore it. */
export interface Game {
  v: 1;
  options: ResolvedOptions;
  rng: RngState;
  /** kinds[id] is the kind of card `id`; shuffled per game so an id says nothing of its kind. */
  kinds: Kind[];
  order: PlayerId[];
  hands: Record<PlayerId, number[]>;
  fronts: Record<PlayerId, number[]>;
  removed: number[];
  round: Round;
  /** Applied actions so far (timeouts included); a client may quote it to refuse stale taps. */
  step: number;
  phase: 'playing' | 'ended';
  loser: PlayerId | null;
  lossReason: LossReason | null;
  lastReveal: Reveal | null;
}

export interface LogEntry {
  player: PlayerId;
  action: Action;
  /** Chosen by the rules' default action (timeout or away player), not by the player. */
  auto?: true;
}
