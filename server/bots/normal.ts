import { Kind, KINDS } from '../rules/kinds';
import { pick, randInt, RngState } from '../rules/rng';
import type { Action, PlayerId } from '../rules/types';
import type { PlayerView } from '../rules/view';
import { tally, Tally } from './counting';
import { margin, Reading } from './reading';
import { holderChoices, ownCards } from './seat';

/**
 * 보통 로봇: plays the way an attentive grown-up does at a family table. It counts the copies of
 * the claimed kind it cannot place (not in its hand, not face up): many left and it believes,
 * few left and it doubts, in between it looks first, and it looks too when a wrong call would end
 * its game. It hands people the kind they already collect and tells the truth a little more
 * often than not. It keeps the game close: a claimer nearer to losing than it is gets the round
 * (it makes the other call, the one its count says is wrong). Nothing carries over from one game
 * to the next, so it plays game ten as it played game one.
 */
export interface NormalTuning {
  /** Believes a claim with this many copies unaccounted for... */
  believeFrom: number;
  /** ...and doubts it with this many or fewer. */
  doubtUpTo: number;
  /** How often its own claim is the truth. */
  truth: number;
  /** How much nearer to losing than itself (in cards it can still take) a claimer must be to get the round. */
  spareFrom: number;
}

export const NORMAL_TUNING: Readonly<NormalTuning> = Object.freeze({
  believeFrom: 5,
  doubtUpTo: 2,
  truth: 0.57,
  spareFrom: 1,
});

export function normalMove(view: PlayerView, me: PlayerId, rng: RngState, tune: NormalTuning = NORMAL_TUNING): Action {
  const r: Reading = { view, me, t: tally(view, me) };
  if (!view.round.hasCard) return offer(r, rng, tune);
  const choices = holderChoices(view);
  const known = view.round.cardKind;
  if (choices.mustPass) {
    const to = pick(
      rng,
      biggestPiles(r.t, choices.passTargets, [known!]).map((o) => o.to),
    );
    return { type: 'pass', to, claim: claimFor(known!, rng, tune) };
  }
  const claim = view.round.claim!;
  if (known !== undefined) return { type: 'call', call: known === claim ? 'true' : 'false' };
  const unaccounted = r.t.unknown[claim];
  const leaning: 'true' | 'false' = 2 * unaccounted > tune.believeFrom + tune.doubtUpTo ? 'true' : 'false';
  const behind = margin(r, me) - margin(r, view.round.lastPasser!);
  if (behind >= tune.spareFrom) return { type: 'call', call: leaning === 'true' ? 'false' : 'true' };
  const call = unaccounted >= tune.believeFrom ? 'true' : unaccounted <= tune.doubtUpTo ? 'false' : null;
  if (choices.canPeek && (call === null || wrongCallEnds(r, claim, call))) return { type: 'peek' };
  return { type: 'call', call: call ?? leaning };
}

function offer(r: Reading, rng: RngState, tune: NormalTuning): Action {
  const { view, me, t } = r;
  const hand = view.players[me].hand!;
  const cards = ownCards(view, me);
  const targets = view.order.filter((p) => p !== me);
  const piles = biggestPiles(
    t,
    targets,
    KINDS.filter((k) => t.mine[k] > 0),
  );
  const choice = piles[0].pile > 0 ? pick(rng, piles) : { to: pick(rng, targets), kind: hand[String(pick(rng, cards))] };
  const cardId = pick(
    rng,
    cards.filter((c) => hand[String(c)] === choice.kind),
  );
  return { type: 'offer', cardId, to: choice.to, claim: claimFor(choice.kind, rng, tune) };
}

/** The (target, kind) pairs where the target's pile of that kind is biggest. */
function biggestPiles(t: Tally, targets: PlayerId[], kinds: Kind[]): { to: PlayerId; kind: Kind; pile: number }[] {
  let best: { to: PlayerId; kind: Kind; pile: number }[] = [];
  for (const to of targets) {
    for (const kind of kinds) {
      const pile = t.fronts[to][kind];
      if (best.length > 0 && pile < best[0].pile) continue;
      if (best.length > 0 && pile > best[0].pile) best = [];
      best.push({ to, kind, pile });
    }
  }
  return best;
}

/** A wrong "false" lands the claimed kind here; a wrong "true" some other kind. */
function wrongCallEnds(r: Reading, claim: Kind, call: 'true' | 'false'): boolean {
  const { view, me, t } = r;
  if (view.players[me].handCount === 0) return true;
  const ends = (k: Kind) => t.fronts[me][k] + 1 >= view.options.loseCount;
  return call === 'false' ? ends(claim) : KINDS.some((k) => k !== claim && ends(k));
}

function claimFor(kind: Kind, rng: RngState, tune: NormalTuning): Kind {
  if (randInt(rng, 1000) < tune.truth * 1000) return kind;
  return pick(
    rng,
    KINDS.filter((k) => k !== kind),
  );
}
