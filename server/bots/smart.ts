import { Kind, KINDS } from '../rules/kinds';
import { pick, randInt, RngState } from '../rules/rng';
import type { Action, PlayerId } from '../rules/types';
import type { PlayerView } from '../rules/view';
import { tally, Tally } from './counting';
import { landingCost } from './danger';
import type { TableMemory } from './memory';
import { holderChoices, ownCards } from './seat';

export interface SmartTuning {
  /** How much a card in someone else's front is worth to this seat, against one in its own. */
  othersWeight: number;
  /** How often a holder who may peek calls instead (a guess; peeks are not all visible). */
  callShare: number;
  /**
   * How often a claim of ours tells the truth, so no one can read our claims from habit. In the
   * simulator 0.55 is about the best reply to a table of smart bots (0.4 or 0.7 lose more).
   */
  honestShare: number;
  /** Bluff with a kind the receiver already has in front (else any kind still off the board). */
  bluffTowardFront: boolean;
}

export const SMART_TUNING: Readonly<SmartTuning> = Object.freeze({
  othersWeight: 0.5,
  callShare: 0.7,
  honestShare: 0.55,
  bluffTowardFront: true,
});

interface Ctx {
  view: PlayerView;
  me: PlayerId;
  t: Tally;
  memory: TableMemory;
  rng: RngState;
  tune: SmartTuning;
}

/** A move that is better than chance, chosen from the seat's view and memory alone. */
export function smartMove(view: PlayerView, me: PlayerId, rng: RngState, memory: TableMemory, tune: SmartTuning = SMART_TUNING): Action {
  memory.observe(view);
  const ctx: Ctx = { view, me, t: tally(view, me), memory, rng, tune };
  if (!view.round.hasCard) return offer(ctx);
  const choices = holderChoices(view);
  const known = view.round.cardKind;
  if (choices.mustPass) return pass(ctx, known!, choices.passTargets);
  if (known !== undefined) return { type: 'call', call: known === view.round.claim ? 'true' : 'false' };
  return judge(ctx, choices.canPeek ? choices.passTargets : null);
}

/** Cost of a card of `kind` landing in `player`'s front; `handAfter` their hand when it lands. */
function cost(ctx: Ctx, player: PlayerId, kind: Kind, handAfter = ctx.view.players[player].handCount): number {
  return landingCost(ctx.t.fronts[player], handAfter, kind, ctx.t.offBoard[kind] - 1, ctx.view.options);
}

/** Chances that the next holder `to` sends the card back to us, or keeps it. */
function odds(ctx: Ctx, to: PlayerId, toHasSeen: boolean, toCanPeek: boolean) {
  const acc = ctx.memory.callAccuracy(to);
  if (toHasSeen) {
    const sure = Math.min(0.95, acc + 0.3);
    return { back: sure, kept: 1 - sure };
  }
  const callShare = toCanPeek ? ctx.tune.callShare : 1;
  return { back: callShare * acc, kept: callShare * (1 - acc) };
}

/** Expected cost to us of handing a card of `kind` to `to`. */
function handOffCost(ctx: Ctx, kind: Kind, to: PlayerId, toHasSeen: boolean, toCanPeek: boolean, myHandAfter: number): number {
  const o = odds(ctx, to, toHasSeen, toCanPeek);
  return o.back * cost(ctx, ctx.me, kind, myHandAfter) - ctx.tune.othersWeight * o.kept * cost(ctx, to, kind);
}

function offer(ctx: Ctx): Action {
  const { view, me } = ctx;
  const cards = ownCards(view, me);
  const hand = view.players[me].hand!;
  const targets = view.order.filter((p) => p !== me);
  // A receiver may peek unless it is a two-player game without the house rule.
  const canPeek = view.order.length > 2 || view.options.twoPlayerPass;
  const best = cheapest(
    ctx,
    cards.flatMap((cardId) => targets.map((to) => ({ cardId, to, kind: hand[String(cardId)] }))),
    (o) => handOffCost(ctx, o.kind, o.to, false, canPeek, cards.length - 1),
  );
  return { type: 'offer', cardId: best.cardId, to: best.to, claim: claimFor(ctx, best.kind, best.to) };
}

function pass(ctx: Ctx, kind: Kind, targets: PlayerId[]): Action {
  const to = cheapest(ctx, targets, (p) => passCost(ctx, kind, p));
  return { type: 'pass', to, claim: claimFor(ctx, kind, to) };
}

function passCost(ctx: Ctx, kind: Kind, to: PlayerId): number {
  const { view } = ctx;
  const seen = view.round.seen;
  const toHasSeen = seen.includes(to);
  // After our pass, `to` may peek only if someone besides them and the ones who saw it is left.
  const toCanPeek = !toHasSeen && view.order.some((p) => p !== to && p !== ctx.me && !seen.includes(p));
  return handOffCost(ctx, kind, to, toHasSeen, toCanPeek, view.players[ctx.me].handCount);
}

/** The card's kind, as this seat may believe it: counting first, then the claimer's habit. */
function beliefs(ctx: Ctx): Record<Kind, number> {
  const { view, t, memory } = ctx;
  const claim = view.round.claim!;
  const others = t.unknownTotal - t.unknown[claim];
  let pTrue: number;
  if (t.unknown[claim] === 0) pTrue = 0;
  else if (others === 0) pTrue = 1;
  else {
    const base = t.unknown[claim] / t.unknownTotal;
    const habit = memory.truthRate(view.round.lastPasser!);
    // A claimer who names kinds at random is right as often as the count says (1 in 8 at the
    // start); habit above or below that moves the odds, counting moves them for this kind.
    const o = (habit / (1 - habit)) * (base / (1 - base)) * 7;
    pTrue = o / (1 + o);
  }
  const belief = {} as Record<Kind, number>;
  for (const k of KINDS) belief[k] = k === claim ? pTrue : others === 0 ? 0 : ((1 - pTrue) * t.unknown[k]) / others;
  return belief;
}

/** Call true, call false or peek: whichever is expected to cost this seat least. */
function judge(ctx: Ctx, peekTargets: PlayerId[] | null): Action {
  const { view, me } = ctx;
  const claim = view.round.claim!;
  const from = view.round.lastPasser!;
  const belief = beliefs(ctx);
  let sayFalse = 0;
  let sayTrue = 0;
  let peek = 0;
  for (const k of KINDS) {
    const p = belief[k];
    if (p === 0) continue;
    const mine = cost(ctx, me, k);
    const theirs = ctx.tune.othersWeight * cost(ctx, from, k);
    if (k === claim) {
      sayFalse += p * mine;
      sayTrue -= p * theirs;
    } else {
      sayFalse -= p * theirs;
      sayTrue += p * mine;
    }
    if (peekTargets) peek += p * Math.min(...peekTargets.map((to) => passCost(ctx, k, to)));
  }
  if (peekTargets && peek < sayFalse && peek < sayTrue) return { type: 'peek' };
  return { type: 'call', call: sayTrue < sayFalse ? 'true' : 'false' };
}

/**
 * The truth now and then; otherwise a kind the receiver already has in front (a wrong "false"
 * would cost them most), never one whose eight cards all lie face up.
 */
function claimFor(ctx: Ctx, kind: Kind, to: PlayerId): Kind {
  if (randInt(ctx.rng, 100) < ctx.tune.honestShare * 100) return kind;
  const front = ctx.t.fronts[to];
  const plausible = KINDS.filter((k) => k !== kind && ctx.t.offBoard[k] > 0);
  if (plausible.length === 0) return kind;
  if (!ctx.tune.bluffTowardFront) return pick(ctx.rng, plausible);
  const top = Math.max(...plausible.map((k) => front[k]));
  return pick(
    ctx.rng,
    plausible.filter((k) => front[k] === top),
  );
}

/** The option of least cost; ties broken at random so play is not predictable. */
function cheapest<T>(ctx: Ctx, options: readonly T[], costOf: (o: T) => number): T {
  let best: T[] = [];
  let bestCost = Infinity;
  for (const o of options) {
    const c = costOf(o);
    if (c < bestCost - 1e-9) {
      bestCost = c;
      best = [o];
    } else if (c <= bestCost + 1e-9) best.push(o);
  }
  return pick(ctx.rng, best);
}
