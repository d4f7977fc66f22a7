// The reference players of issue 34, written from its descriptions. Like a person at the table,
// each reads only its own seat's view (what it holds, what lies face up, the claim, who saw the
// card) and its own seeded dice; none of them is a server bot.
import { CARDS_PER_KIND, Kind, KINDS, passFactsIn, passTargetsFrom, peekRefusalFrom, pick, randInt } from '../../server/rules';
import type { Action, PlayerId, PlayerView, RngState } from '../../server/rules';

export const REFERENCE_PLAYERS = ['child', 'casual', 'wary', 'random'] as const;
export type ReferenceName = (typeof REFERENCE_PLAYERS)[number];

export const REFERENCE_DESCRIPTIONS: Readonly<Record<ReferenceName, string>> = {
  child: 'young child: a random card to a random player, the truth 70 %, never peeks, calls true on a coin flip',
  casual: 'casual adult: counts the claimed kind (true ≥ 5 unaccounted, false ≤ 2, else peeks), piles on, truthful 60 %',
  wary: 'wary adult: the casual adult, but believes a claim only with 6 or more unaccounted for',
  random: 'uniformly random legal play',
};

export type ReferenceMove = (view: PlayerView, me: PlayerId, rng: RngState) => Action;

export const REFERENCE_MOVES: Readonly<Record<ReferenceName, ReferenceMove>> = {
  child: childMove,
  casual: (view, me, rng) => countingMove(view, me, rng, 5),
  wary: (view, me, rng) => countingMove(view, me, rng, 6),
  random: randomMove,
};

/** Ends the game for `me` if a card of `kind` landed in its front now. */
function wouldLose(view: PlayerView, me: PlayerId, kind: Kind): boolean {
  const front = view.players[me].front;
  const same = front.filter((k) => k === kind).length;
  if (same + 1 >= view.options.loseCount) return true;
  if (view.options.eightKindsRule && same === 0 && new Set(front).size === KINDS.length - 1) return true;
  return view.players[me].handCount === 0;
}

function ownKinds(view: PlayerView, me: PlayerId): Kind[] {
  return Object.values(view.players[me].hand ?? {});
}

function others(view: PlayerView, me: PlayerId): PlayerId[] {
  return view.order.filter((p) => p !== me);
}

/** The truth with probability `truth`, else one of the seven other kinds at random. */
function claimFor(rng: RngState, kind: Kind, truth: number): Kind {
  if (randInt(rng, 1000) < truth * 1000) return kind;
  return pick(
    rng,
    KINDS.filter((k) => k !== kind),
  );
}

function childMove(view: PlayerView, me: PlayerId, rng: RngState): Action {
  if (!view.round.hasCard) {
    const hand = view.players[me].hand ?? {};
    const cardId = Number(pick(rng, Object.keys(hand)));
    return { type: 'offer', cardId, to: pick(rng, others(view, me)), claim: claimFor(rng, hand[String(cardId)], 0.7) };
  }
  // Never peeks, so never holds a card it must pass on.
  return { type: 'call', call: randInt(rng, 2) === 0 ? 'true' : 'false' };
}

/**
 * The adults. `believeFrom`: calls true with that many copies of the claimed kind unaccounted for
 * (not in its hand, not face up); calls false with 2 or fewer; peeks in between, or when the call
 * it would make, if wrong, ends its game.
 */
function countingMove(view: PlayerView, me: PlayerId, rng: RngState, believeFrom: number): Action {
  const { round } = view;
  const mine = ownKinds(view, me);
  if (!round.hasCard) {
    const hand = view.players[me].hand ?? {};
    // Hands off a kind its target already collects: the biggest such pile, else anything.
    let best: { cardId: number; to: PlayerId }[] = [];
    let top = 0;
    for (const to of others(view, me)) {
      const front = view.players[to].front;
      for (const cardId of Object.keys(hand)) {
        const pile = front.filter((k) => k === hand[cardId]).length;
        if (pile > top) {
          top = pile;
          best = [];
        }
        if (pile === top && pile > 0) best.push({ cardId: Number(cardId), to });
      }
    }
    const choice = best.length > 0 ? pick(rng, best) : { cardId: Number(pick(rng, Object.keys(hand))), to: pick(rng, others(view, me)) };
    return { type: 'offer', ...choice, claim: claimFor(rng, hand[String(choice.cardId)], 0.6) };
  }
  const facts = passFactsIn(view);
  const known = round.cardKind;
  if (facts.peeked) {
    const kind = known!;
    const targets = passTargetsFrom(facts);
    const pile = (p: PlayerId) => view.players[p].front.filter((k) => k === kind).length;
    const top = Math.max(...targets.map(pile));
    const to = pick(
      rng,
      targets.filter((p) => pile(p) === top),
    );
    return { type: 'pass', to, claim: claimFor(rng, kind, 0.6) };
  }
  const claim = round.claim!;
  if (known !== undefined) return { type: 'call', call: known === claim ? 'true' : 'false' };
  const faceUp = view.order.reduce((n, p) => n + view.players[p].front.filter((k) => k === claim).length, 0);
  const unaccounted = CARDS_PER_KIND - faceUp - mine.filter((k) => k === claim).length;
  const canPeek = peekRefusalFrom(facts) === null;
  let call: 'true' | 'false' | 'peek' = unaccounted >= believeFrom ? 'true' : unaccounted <= 2 ? 'false' : 'peek';
  if (call !== 'peek' && canPeek) {
    // A wrong "false" lands the claimed kind; a wrong "true" lands some other kind.
    const risky = call === 'false' ? wouldLose(view, me, claim) : KINDS.some((k) => k !== claim && wouldLose(view, me, k));
    if (risky) call = 'peek';
  }
  if (call === 'peek' && !canPeek) call = unaccounted > (believeFrom + 2) / 2 ? 'true' : 'false';
  return call === 'peek' ? { type: 'peek' } : { type: 'call', call };
}

function randomMove(view: PlayerView, me: PlayerId, rng: RngState): Action {
  const claim = pick(rng, KINDS);
  if (!view.round.hasCard) {
    const to = pick(rng, others(view, me));
    return { type: 'offer', cardId: Number(pick(rng, Object.keys(view.players[me].hand ?? {}))), to, claim };
  }
  const facts = passFactsIn(view);
  if (facts.peeked) return { type: 'pass', to: pick(rng, passTargetsFrom(facts)), claim };
  const choices = peekRefusalFrom(facts) === null ? 3 : 2;
  const choice = randInt(rng, choices);
  if (choice === 2) return { type: 'peek' };
  return { type: 'call', call: choice === 0 ? 'true' : 'false' };
}
