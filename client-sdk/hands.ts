import { KIND_NAMES_KO, KINDS, Kind } from '../server/rules/kinds';
import type { HandGroup } from './snapshot';

/** A decoded `players[id].hand`: card id (decimal string) → kind. */
export interface DecodedHand {
  forEach(callback: (kind: string, cardId: string) => void): void;
}

/** Cards grouped by kind in the deck's kind order, ids ascending: what a hand row shows. */
export function groupHand(hand: DecodedHand): HandGroup[] {
  const groups = new Map<Kind, number[]>();
  hand.forEach((kind, cardId) => {
    const list = groups.get(kind as Kind);
    if (list) list.push(Number(cardId));
    else groups.set(kind as Kind, [Number(cardId)]);
  });
  return KINDS.filter((k) => groups.has(k)).map((kind) => {
    const cardIds = groups.get(kind)!.sort((a, b) => a - b);
    return { kind, name: KIND_NAMES_KO[kind], count: cardIds.length, cardIds };
  });
}
