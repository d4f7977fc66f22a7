import type { PlayerId } from '../rules/types';
import type { PlayerView } from '../rules/view';

interface Tally2 {
  hits: number;
  seen: number;
}

/** Before any evidence: people tell the truth now and then, and call a bit better than chance. */
const TRUTH_PRIOR = 0.3;
const CALL_PRIOR = 0.55;
const PRIOR_WEIGHT = 4;

/**
 * What a player at the table could remember from the views it was shown: how often each
 * claimer's claim turned out true, and how often each caller called right. Only the reveals
 * in those views feed it, so it knows no more than someone watching from that seat.
 */
export class TableMemory {
  private truths = new Map<PlayerId, Tally2>();
  private calls = new Map<PlayerId, Tally2>();
  /** Per round number: the holder and who handed them the card, as last seen. */
  private rounds = new Map<number, { holder: PlayerId; from: PlayerId }>();
  private judged = new Set<number>();
  private lastStep = -1;

  observe(view: PlayerView): void {
    // A smaller step is a new game at the same table: round numbers start again, habits stay.
    if (view.step < this.lastStep) {
      this.rounds.clear();
      this.judged.clear();
    }
    this.lastStep = view.step;
    const { round, lastReveal } = view;
    if (round.holder !== null && round.lastPasser !== null) this.rounds.set(round.no, { holder: round.holder, from: round.lastPasser });

    // Every round ends in exactly one reveal, so the latest reveal is the previous round's.
    const revealed = round.no - 1;
    if (!lastReveal || this.judged.has(revealed)) return;
    this.judged.add(revealed);
    bump(this.calls, lastReveal.caller, lastReveal.correct);
    // A right call puts the card in front of whoever made the claim; after a wrong call the
    // claimer is known only if this seat saw who handed the caller the card.
    const last = this.rounds.get(revealed);
    const claimer = lastReveal.correct ? lastReveal.takenBy : last && last.holder === lastReveal.caller ? last.from : null;
    if (claimer !== null) bump(this.truths, claimer, lastReveal.kind === lastReveal.claim);
    this.rounds.delete(revealed);
  }

  /** How often `player`'s claims were true, shrunk towards the prior while evidence is thin. */
  truthRate(player: PlayerId): number {
    return rate(this.truths.get(player), TRUTH_PRIOR);
  }

  /** How often `player`'s calls were right. */
  callAccuracy(player: PlayerId): number {
    return rate(this.calls.get(player), CALL_PRIOR);
  }
}

function bump(map: Map<PlayerId, Tally2>, player: PlayerId, hit: boolean) {
  const t = map.get(player) ?? { hits: 0, seen: 0 };
  t.seen++;
  if (hit) t.hits++;
  map.set(player, t);
}

function rate(t: Tally2 | undefined, prior: number): number {
  const r = ((t?.hits ?? 0) + prior * PRIOR_WEIGHT) / ((t?.seen ?? 0) + PRIOR_WEIGHT);
  return Math.min(0.97, Math.max(0.03, r));
}
