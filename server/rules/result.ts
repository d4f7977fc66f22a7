import { Kind, KIND_NAMES_KO, KINDS } from './kinds';
import { GameStats, gameStats, highlights } from './stats';
import type { Game, LogEntry, LossReason, PlayerId } from './types';

export type { GameStats, PlayerStats } from './stats';
export { gameStats, highlights } from './stats';

/** Rules 8.6, with `eightKinds` from RULINGS and the score of section 6: what the end position alone decides. */
export interface GameOutcome {
  loser: PlayerId;
  reason: LossReason;
  losingKind?: Kind;
  /** Shared-rank groups, best first; the last group is [loser]. */
  ranking: PlayerId[][];
  fronts: Record<PlayerId, Record<Kind, number>>;
  /** 1 for each winner, 0 for the loser. */
  scores: Record<PlayerId, number>;
  summary: string;
}

/** The `result` message and a record's `result` (PROTOCOL v2): the outcome, the game's id and who bluffed. */
export interface CockroachResult extends GameOutcome {
  gameId: string;
  stats: GameStats;
  highlights: string[];
}

export function kindCounts(game: Game, cards: readonly number[]): Record<Kind, number> {
  const counts = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>;
  for (const id of cards) counts[game.kinds[id]]++;
  return counts;
}

/** The result of an ended game; null while it is still being played. */
export function gameResult(game: Game, nicknames: Readonly<Record<PlayerId, string>> = {}): GameOutcome | null {
  if (game.phase !== 'ended' || game.loser === null || game.lossReason === null) return null;
  const loser = game.loser;
  const reason = game.lossReason;
  const fronts: Record<PlayerId, Record<Kind, number>> = {};
  for (const p of game.order) fronts[p] = kindCounts(game, game.fronts[p]);

  // Fewest of one kind, then fewest cards face up; equal keys share a rank.
  const key = (p: PlayerId) => [Math.max(...Object.values(fronts[p])), game.fronts[p].length] as const;
  const others = game.order.filter((p) => p !== loser);
  others.sort((a, b) => key(a)[0] - key(b)[0] || key(a)[1] - key(b)[1]);
  const ranking: PlayerId[][] = [];
  for (const p of others) {
    const group = ranking[ranking.length - 1];
    if (group && key(group[0])[0] === key(p)[0] && key(group[0])[1] === key(p)[1]) group.push(p);
    else ranking.push([p]);
  }
  ranking.push([loser]);

  const scores: Record<PlayerId, number> = {};
  for (const p of game.order) scores[p] = p === loser ? 0 : 1;

  // The loss was decided by the card that landed last in the loser's front.
  const lastLanded = game.fronts[loser][game.fronts[loser].length - 1];
  const losingKind = reason === 'four' ? game.kinds[lastLanded] : undefined;
  const summary = summaryKo(nicknames[loser] ?? loser, reason, losingKind, losingKind && fronts[loser][losingKind]);
  return { loser, reason, ...(losingKind ? { losingKind } : {}), ranking, fronts, scores, summary };
}

/** The whole result of an ended game, from its end position and its action log; null while it is played. */
export function fullResult(
  game: Game,
  log: readonly LogEntry[],
  nicknames: Readonly<Record<PlayerId, string>>,
  gameId: string,
): CockroachResult | null {
  const outcome = gameResult(game, nicknames);
  if (!outcome) return null;
  const stats = gameStats(log, game);
  return { ...outcome, gameId, stats, highlights: highlights(stats, nicknames) };
}

function summaryKo(name: string, reason: LossReason, kind?: Kind, count?: number): string {
  const tail = `${name}님 패배, 나머지 모두 승리`;
  switch (reason) {
    case 'four':
      return `${name}님 앞에 ${KIND_NAMES_KO[kind!]} ${count}장! ${tail}`;
    case 'eightKinds':
      return `${name}님 앞에 벌레 8종이 모두 모였어요! ${tail}`;
    case 'emptyHand':
      return `${name}님 손에 건넬 카드가 하나도 없어요! ${tail}`;
  }
}
