import { CARDS_PER_KIND, Kind, KINDS } from '../rules/kinds';
import type { PlayerId } from '../rules/types';
import type { PlayerView } from '../rules/view';

export type KindCounts = Record<Kind, number>;

export function zeroCounts(): KindCounts {
  return Object.fromEntries(KINDS.map((k) => [k, 0])) as KindCounts;
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
  const mine = countKinds(Object.values(view.players[me].hand ?? {}));
  const fronts: Record<PlayerId, KindCounts> = {};
  const offBoard = zeroCounts();
  const unknown = zeroCounts();
  for (const k of KINDS) offBoard[k] = CARDS_PER_KIND;
  for (const id of view.order) {
    fronts[id] = countKinds(view.players[id].front);
    for (const k of KINDS) offBoard[k] -= fronts[id][k];
  }
  let unknownTotal = 0;
  for (const k of KINDS) {
    unknown[k] = Math.max(0, offBoard[k] - mine[k] - (view.round.cardKind === k ? 1 : 0));
    unknownTotal += unknown[k];
  }
  return { mine, fronts, offBoard, unknown, unknownTotal };
}

/** How many different kinds lie in a front. */
export function distinctKinds(front: KindCounts): number {
  return KINDS.reduce((n, k) => (front[k] > 0 ? n + 1 : n), 0);
}
