import { Kind, KINDS } from '../rules/kinds';
import { pick, randInt, RngState } from '../rules/rng';
import type { Action, PlayerId } from '../rules/types';
import type { PlayerView } from '../rules/view';
import { tally } from './counting';
import { cardBelief, margin, Reading } from './reading';
import { holderChoices, ownCards } from './seat';

/**
 * 다정한 로봇: plays to teach a young child. Its claims are mostly true, so a child can learn to
 * read them. It spreads its cards over the table, never to whoever is closest to losing, and
 * hands each player a kind they do not collect yet. When it must judge a claim it lets the claimer
 * have the round: it makes the call it believes wrong, so the card stays with it (a claim the
 * count proves false it still calls false). A claimer who would lose by taking the card back, it
 * spares: it looks at the card and passes it on instead.
 */
export const GENTLE_TRUTH = 0.8;
/** What it takes a claim to be worth: people mostly tell the truth. */
const GENTLE_TRUST = 0.75;

export function gentleMove(view: PlayerView, me: PlayerId, rng: RngState): Action {
  const r: Reading = { view, me, t: tally(view, me) };
  if (!view.round.hasCard) {
    const hand = view.players[me].hand!;
    const to = spreadTarget(
      r,
      view.order.filter((p) => p !== me),
      rng,
    );
    const cards = ownCards(view, me);
    const harmless = cards.filter((c) => r.t.fronts[to][hand[String(c)]] === 0);
    const cardId = pick(rng, harmless.length > 0 ? harmless : cards);
    return { type: 'offer', cardId, to, claim: claimFor(hand[String(cardId)], rng) };
  }
  const choices = holderChoices(view);
  const known = view.round.cardKind;
  if (choices.mustPass) {
    const kind = known!;
    const spared = choices.passTargets.filter((p) => r.t.fronts[p][kind] === 0);
    const to = spreadTarget(r, spared.length > 0 ? spared : choices.passTargets, rng);
    return { type: 'pass', to, claim: claimFor(kind, rng) };
  }
  const claim = view.round.claim!;
  if (known !== undefined) return { type: 'call', call: known === claim ? 'true' : 'false' };
  if (choices.canPeek && view.players[view.round.lastPasser!].handCount === 0) return { type: 'peek' };
  if (r.t.unknown[claim] === 0) return { type: 'call', call: 'false' };
  const believed = cardBelief(r, { honesty: GENTLE_TRUST, pileLean: 0 })[claim] >= 0.5;
  return { type: 'call', call: believed ? 'false' : 'true' };
}

function claimFor(kind: Kind, rng: RngState): Kind {
  if (randInt(rng, 100) < GENTLE_TRUTH * 100) return kind;
  return pick(
    rng,
    KINDS.filter((k) => k !== kind),
  );
}

/** Anyone but the one(s) closest to losing; the more room a player has, the likelier. */
function spreadTarget(r: Reading, candidates: PlayerId[], rng: RngState): PlayerId {
  const room = candidates.map((p) => margin(r, p));
  const least = Math.min(...room);
  const spare = room.some((m) => m > least);
  const weights = room.map((m) => (spare && m === least ? 0 : m));
  let x = randInt(
    rng,
    weights.reduce((a, b) => a + b, 0),
  );
  for (let i = 0; i < candidates.length; i++) if ((x -= weights[i]) < 0) return candidates[i];
  return candidates[candidates.length - 1];
}
