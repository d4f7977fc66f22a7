// Random, mostly wrong actions for the property tests: every type (and bogus ones), card ids
// in -1..64 and non-integers, any target, bogus claims and calls, from anyone.
import { Action, Game, KINDS, pick, randInt, RngState } from '../../server/rules';

const CARD_NOISE: unknown[] = [1.5, NaN, -0, '3', null, undefined, Infinity];
const CLAIM_NOISE: unknown[] = ['dragon', 'Rat', '', undefined, 5];
const CALLS: unknown[] = ['true', 'false', 'true', 'false', 'maybe', true, undefined];
const TYPES: unknown[] = ['offer', 'call', 'peek', 'pass', 'offer', 'call', 'peek', 'pass', 'dance', undefined];

export interface Candidate {
  player: string;
  action: unknown;
}

function cardId(game: Game, player: string, rng: RngState): unknown {
  const hand = game.hands[player];
  const roll = randInt(rng, 10);
  if (roll < 4 && hand?.length) return pick(rng, hand);
  if (roll < 8) return randInt(rng, 66) - 1; // -1 .. 64
  return pick(rng, CARD_NOISE);
}

export function randomCandidate(game: Game, rng: RngState): Candidate {
  const active = game.round.card === null ? game.round.starter : game.round.holder!;
  const player = randInt(rng, 2) === 0 ? active : pick(rng, [...game.order, 'ghost']);
  const to = pick(rng, [...game.order, ...game.order, player, 'ghost', '', undefined]);
  const claim = randInt(rng, 5) === 0 ? pick(rng, CLAIM_NOISE) : pick(rng, KINDS);
  const type = pick(rng, TYPES);
  switch (type) {
    case 'offer':
      return { player, action: { type, cardId: cardId(game, player, rng), to, claim } };
    case 'pass':
      return { player, action: { type, to, claim } };
    case 'call':
      return { player, action: { type, call: pick(rng, CALLS) } };
    default:
      return { player, action: randInt(rng, 8) === 0 ? null : { type } };
  }
}

/**
 * Whether `action` is one of `legal`, comparing the fields its type uses with === (so -0 matches
 * 0, as the rules' own lookups do, and NaN matches nothing). Extra payload keys are ignored, as
 * the rules ignore them.
 */
export function isListed(legal: readonly Action[], action: unknown): boolean {
  const a = action as Partial<Record<string, unknown>> | null;
  if (a === null || typeof a !== 'object') return false;
  return legal.some((l) => {
    if (l.type !== a.type) return false;
    switch (l.type) {
      case 'offer':
        return l.cardId === a.cardId && l.to === a.to && l.claim === a.claim;
      case 'pass':
        return l.to === a.to && l.claim === a.claim;
      case 'call':
        return l.call === a.call;
      case 'peek':
        return true;
    }
  });
}
