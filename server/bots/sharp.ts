import { Kind, KINDS } from '../rules/kinds';
import { pick, randInt, RngState } from '../rules/rng';
import type { Action, PlayerId } from '../rules/types';
import type { PlayerView } from '../rules/view';
import { tally } from './counting';
import { Answer, cardBelief, countingAnswer, harm, Reading } from './reading';
import { holderChoices, ownCards } from './seat';

/**
 * 영리한 로봇: weighs every move by its expected cost. It reads a card handed to it from the count
 * and from what it already collects (people hand you what you collect), and looks first when that
 * is cheaper than guessing. It hands each card where it hurts most and expects the receiver to
 * count too: half its claims are the truth, the others are whichever claim this receiver is
 * likeliest to misjudge (a kind that looks plentiful from their seat when lying, one that looks
 * used up when telling the truth). It remembers nothing between moves.
 */
export interface SharpTuning {
  /** A card in someone else's front, against one in its own. */
  othersWeight: number;
  /** How far it trusts that others count (against a coin flip). */
  trust: number;
  /** Its model of a claimer: how honest, and how much they pile onto what you collect. */
  honesty: number;
  pileLean: number;
  /** How often it hands a card with the truth, whatever the count says (0: only when it pays). */
  truthFloor: number;
}

export const SHARP_TUNING: Readonly<SharpTuning> = Object.freeze({
  othersWeight: 0.5,
  trust: 0.8,
  honesty: 0.5,
  pileLean: 0.5,
  truthFloor: 0.5,
});

interface Ctx extends Reading {
  rng: RngState;
  tune: SharpTuning;
  /** This hand-off tells the truth. */
  truthful?: boolean;
}

/** The move of least expected cost, read from the seat's view alone. */
export function sharpMove(view: PlayerView, me: PlayerId, rng: RngState, tune: SharpTuning = SHARP_TUNING): Action {
  const ctx: Ctx = { view, me, t: tally(view, me), rng, tune };
  if (!view.round.hasCard) return offer(ctx);
  const choices = holderChoices(view);
  const known = view.round.cardKind;
  if (choices.mustPass) return pass(ctx, known!, choices.passTargets);
  if (known !== undefined) return { type: 'call', call: known === view.round.claim ? 'true' : 'false' };
  return judge(ctx, choices.canPeek ? choices.passTargets : null);
}

/** The hand-off of least cost in a run, ties drawn at random (so play is not predictable) without a list. */
class Cheapest {
  cost = Infinity;
  kind: Kind | undefined;
  to: PlayerId | undefined;
  claim: Kind | undefined;
  private ties = 0;
  /** Without dice (null), only the least cost is kept. */
  constructor(private readonly rng: RngState | null) {}
  offer(cost: number, kind: Kind, to: PlayerId, claim: Kind): void {
    if (cost < this.cost - 1e-9) {
      this.cost = cost;
      this.ties = 1;
    } else if (!(this.rng && cost <= this.cost + 1e-9 && randInt(this.rng, ++this.ties) === 0)) return;
    this.kind = kind;
    this.to = to;
    this.claim = claim;
  }
}

type Answers = Map<PlayerId, Record<Kind, Answer>>;

/** How each target would answer each claim (the same whatever card is handed). */
function answersOf(ctx: Ctx, targets: PlayerId[], canPeek: (to: PlayerId) => boolean): Answers {
  const answers: Answers = new Map();
  for (const to of targets) {
    const peekable = canPeek(to);
    const byClaim = {} as Record<Kind, Answer>;
    for (const claim of KINDS) byClaim[claim] = countingAnswer(ctx, to, claim, peekable, ctx.tune.trust);
    answers.set(to, byClaim);
  }
  return answers;
}

/**
 * Every target and claim for a card of `kind`, by expected cost to this seat: the target answers
 * as `answers` says; a right answer lands the card here, a wrong one there; a peek sends it on,
 * out of this seat's reach.
 */
function handOffs(ctx: Ctx, kind: Kind, answers: Answers, myHandAfter: number, into: Cheapest) {
  const mine = harm(ctx, ctx.me, kind, myHandAfter);
  for (const [to, byClaim] of answers) {
    const theirs = ctx.tune.othersWeight * harm(ctx, to, kind);
    for (const claim of ctx.truthful ? [kind] : KINDS) {
      const a = byClaim[claim];
      const cost = claim === kind ? a.yes * mine - a.no * theirs : a.no * mine - a.yes * theirs;
      into.offer(cost, kind, to, claim);
    }
  }
}

function offer(ctx: Ctx): Action {
  const { view, me } = ctx;
  const hand = view.players[me].hand!;
  const cards = ownCards(view, me);
  const targets = view.order.filter((p) => p !== me);
  const canPeek = view.order.length > 2 || view.options.twoPlayerPass;
  const answers = answersOf(ctx, targets, () => canPeek);
  const best = new Cheapest(ctx.rng);
  ctx.truthful = randInt(ctx.rng, 1000) < ctx.tune.truthFloor * 1000;
  for (const kind of new Set(cards.map((c) => hand[String(c)]))) handOffs(ctx, kind, answers, cards.length - 1, best);
  const kind = best.kind!;
  const cardId = pick(
    ctx.rng,
    cards.filter((c) => hand[String(c)] === kind),
  );
  return { type: 'offer', cardId, to: best.to!, claim: best.claim! };
}

function pass(ctx: Ctx, kind: Kind, targets: PlayerId[]): Action {
  ctx.truthful = randInt(ctx.rng, 1000) < ctx.tune.truthFloor * 1000;
  const best = new Cheapest(ctx.rng);
  handOffs(
    ctx,
    kind,
    answersOf(ctx, targets, (to) => toCanPeek(ctx, to)),
    ctx.view.players[ctx.me].handCount,
    best,
  );
  return { type: 'pass', to: best.to!, claim: best.claim! };
}

/** After our pass, `to` may peek only if someone besides them and those who saw it is left. */
function toCanPeek(ctx: Ctx, to: PlayerId): boolean {
  const seen = ctx.view.round.seen;
  return ctx.view.order.some((p) => p !== to && p !== ctx.me && !seen.includes(p));
}

/** Call true, call false or peek: whichever is expected to cost this seat least. */
function judge(ctx: Ctx, peekTargets: PlayerId[] | null): Action {
  const { view, me, tune } = ctx;
  const claim = view.round.claim!;
  const from = view.round.lastPasser!;
  const belief = cardBelief(ctx, tune);
  const handAfterPass = view.players[me].handCount;
  const answers = peekTargets && answersOf(ctx, peekTargets, (to) => toCanPeek(ctx, to));
  let sayFalse = 0;
  let sayTrue = 0;
  let peek = 0;
  for (const k of KINDS) {
    const p = belief[k];
    if (p === 0) continue;
    const mine = harm(ctx, me, k);
    const theirs = tune.othersWeight * harm(ctx, from, k);
    if (k === claim) {
      sayFalse += p * mine;
      sayTrue -= p * theirs;
    } else {
      sayFalse -= p * theirs;
      sayTrue += p * mine;
    }
    if (answers) {
      // Only the cost matters here, so no tie is drawn: a look-ahead must not move the dice.
      const best = new Cheapest(null);
      handOffs(ctx, k, answers, handAfterPass, best);
      peek += p * best.cost;
    }
  }
  if (answers && peek < sayFalse && peek < sayTrue) return { type: 'peek' };
  return { type: 'call', call: sayTrue < sayFalse ? 'true' : 'false' };
}
