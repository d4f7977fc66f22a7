import { KIND_NAMES_KO, Kind } from '../server/rules/kinds';
import { handByKind } from '../server/rules/view';

export interface HandGroup {
  kind: Kind;
  /** Korean display name of the kind. */
  name: string;
  count: number;
  cardIds: number[];
}

/** A hand (card id → kind) as a hand row shows it: the rules' own grouping, with the Korean names. */
export function groupHand(hand: Readonly<Record<string, Kind>>): HandGroup[] {
  return handByKind(hand).map(({ kind, cardIds }) => ({ kind, name: KIND_NAMES_KO[kind], count: cardIds.length, cardIds }));
}
