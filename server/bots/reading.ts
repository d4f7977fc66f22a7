import { Kind, KINDS } from '../rules/kinds';
import type { PlayerId } from '../rules/types';
import type { PlayerView } from '../rules/view';
import { Tally } from './counting';
import { landingCost } from './danger';

/**
 * What one seat reads from its view: the count, how much a card would hurt whom, what the card in
 * flight probably is, and how another player probably answers a claim. Shared by the levels.
 */
export interface Reading {
  view: PlayerView;
  me: PlayerId;
  t: Tally;
}

/** How much a card of `kind` landing in `player`'s front would hurt them (0..1); `handAfter` their hand then. */
export function harm(r: Reading, player: PlayerId, kind: Kind, handAfter = r.view.players[player].handCount): number {
  return landingCost(r.t.fronts[player], handAfter, kind, r.t.offBoard[kind] - 1, r.view.options);
}

export interface CardModel {
  /** How often a claim tells the truth. */
  honesty: number;
  /** How much more likely a card is of a kind already in the receiver's front, per card there. */
  pileLean: number;
}

/**
 * The chance that the card handed to `me` is of each kind: the kinds this seat cannot place,
 * leaned toward what it already collects (people hand you what you collect), weighed by how
 * likely each kind is to be announced as the claim.
 */
export function cardBelief(r: Reading, model: CardModel): Record<Kind, number> {
  const claim = r.view.round.claim!;
  const front = r.t.fronts[r.me];
  const belief = {} as Record<Kind, number>;
  let total = 0;
  for (const k of KINDS) {
    const prior = r.t.unknown[k] * (1 + model.pileLean * front[k]);
    const likelihood = k === claim ? model.honesty : (1 - model.honesty) / (KINDS.length - 1);
    belief[k] = prior * likelihood;
    total += belief[k];
  }
  for (const k of KINDS) belief[k] = total > 0 ? belief[k] / total : k === claim ? 1 : 0;
  return belief;
}

/** How a receiver answers a claim: shares of "true", "false" and a peek. */
export interface Answer {
  yes: number;
  no: number;
  peek: number;
}

/**
 * How `to` probably answers claim `claim` if it counts: it cannot see this seat's hand, so the
 * copies this seat holds look unaccounted for to it. Few unaccounted copies make "false" likely,
 * many make "true" likely, and in between a counting player looks (if it may).
 */
export function countingAnswer(r: Reading, to: PlayerId, claim: Kind, toCanPeek: boolean, trust: number): Answer {
  const pool = r.t.unknownTotal;
  const theirs = pool > 0 ? (r.t.unknown[claim] * r.view.players[to].handCount) / pool : 0;
  const unaccounted = r.t.offBoard[claim] - theirs;
  const lean = Math.min(1, Math.max(0, (unaccounted - 2) / 3));
  const unsure = 1 - Math.abs(2 * lean - 1);
  const peek = toCanPeek ? unsure * 0.8 : 0;
  const yes = (1 - peek) * (trust * lean + (1 - trust) * 0.5);
  return { yes, no: 1 - peek - yes, peek };
}

/**
 * How many more cards `player` can surely take: a pile one short of losing may end the game with
 * the next card of its kind; an empty hand ends it with the next card of any kind.
 */
export function margin(r: Reading, player: PlayerId): number {
  let pile = 0;
  for (const k of KINDS) pile = Math.max(pile, r.t.fronts[player][k]);
  return Math.min(r.view.options.loseCount - pile, r.view.players[player].handCount + 1);
}
