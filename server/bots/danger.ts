import type { Kind } from '../rules/kinds';
import type { ResolvedOptions } from '../rules/options';
import { distinctKinds, KindCounts } from './counting';

/**
 * A rough chance that one more card of `kind` in this front costs its owner the game: 1 when it
 * ends the game at once (four of a kind, all eight kinds, or an empty hand to start from), less
 * the more cards the pile still needs, and next to nothing when too few of that kind are left
 * off the board to ever finish the pile.
 */
export function landingCost(front: KindCounts, handAfter: number, kind: Kind, offBoardAfter: number, options: ResolvedOptions): number {
  const pile = front[kind] + 1;
  const newKind = front[kind] === 0;
  const kinds = distinctKinds(front) + (newKind ? 1 : 0);
  if (pile >= options.loseCount) return 1;
  if (options.eightKindsRule && newKind && kinds === 8) return 1;
  if (handAfter <= 0) return 1;
  const needed = options.loseCount - pile;
  let cost = needed > offBoardAfter ? 0.01 : PILE_COST[Math.min(needed, PILE_COST.length - 1)];
  if (options.eightKindsRule && newKind) cost += kinds === 7 ? 0.3 : kinds === 6 ? 0.08 : 0.02;
  // Whoever takes a card starts the next round: with one card left that start is the last.
  if (handAfter === 1) cost += 0.2;
  else if (handAfter === 2) cost += 0.05;
  return Math.min(1, cost);
}

/** Indexed by how many more cards of the kind the pile needs to lose. */
const PILE_COST = [1, 0.35, 0.12, 0.05, 0.02];
