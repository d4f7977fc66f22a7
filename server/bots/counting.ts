import { CARDS_PER_KIND, Kind, KINDS } from '../rules/kinds';
import type { PlayerId } from '../rules/types';
import type { PlayerView } from '../rules/view';

export type KindCounts = Record<Kind, number>;

/** The kinds, held here: an imported binding is read through a getter on every use. */
const ALL_KINDS: readonly Kind[] = [...KINDS];
const PER_KIND = CARDS_PER_KIND;

/** A count of zero for each kind (written out: this runs for every front at every decision). */
export function zeroCounts(): KindCounts {
  return { cockroach: 0, bat: 0, fly: 0, toad: 0, rat: 0, scorpion: 0, spider: 0, stinkbug: 0 };
}

export function countKinds(kinds: Iterable<Kind>): KindCounts {
  const counts = zeroCounts();
  for (const k of kinds) counts[k]++;
  return counts;
}

/**
 * Card counting from one seat: 8 kinds × 8 cards, minus what this seat can account for (its own
 * hand, every front, the card in flight once seen). What is left is spread over the others'
 * hands, the set-aside pile of a two-player game and the unseen card in flight.
 */
export interface Tally {
  mine: KindCounts;
  fronts: Record<PlayerId, KindCounts>;
  /** Cards of each kind in no front yet (in hands, in flight or set aside). */
  offBoard: KindCounts;
  /** Cards of each kind this seat cannot place. */
  unknown: KindCounts;
  unknownTotal: number;
}

export function tally(view: PlayerView, me: PlayerId): Tally {
  const mine = zeroCounts();
  const hand = view.players[me].hand ?? {};
  for (const id in hand) mine[hand[id]]++;
  const fronts: Record<PlayerId, KindCounts> = {};
  const offBoard = zeroCounts();
  for (const k of ALL_KINDS) offBoard[k] = PER_KIND;
  for (const id of view.order) {
    const counts = zeroCounts();
    for (const k of view.players[id].front) {
      counts[k]++;
      offBoard[k]--;
    }
    fronts[id] = counts;
  }
  const unknown = zeroCounts();
  let unknownTotal = 0;
  const seen = view.round.cardKind;
  for (const k of ALL_KINDS) {
    unknown[k] = Math.max(0, offBoard[k] - mine[k] - (seen === k ? 1 : 0));
    unknownTotal += unknown[k];
  }
  return { mine, fronts, offBoard, unknown, unknownTotal };
}

/** How many different kinds lie in a front. */
export function distinctKinds(front: KindCounts): number {
  return ALL_KINDS.reduce((n, k) => (front[k] > 0 ? n + 1 : n), 0);
}
