import type { Kind } from './kinds';
import type { Game, LogEntry, PlayerId } from './types';

/** One player's play over a whole game (PROTOCOL v2 "Who bluffed"). */
export interface PlayerStats {
  /** Offers and passes: each one says a kind. */
  claims: number;
  /** Claims that were not the card's kind. */
  bluffs: number;
  calls: number;
  correctCalls: number;
  peeks: number;
}

export type GameStats = Record<PlayerId, PlayerStats>;

function zero(): PlayerStats {
  return { claims: 0, bluffs: 0, calls: 0, correctCalls: 0, peeks: 0 };
}

/**
 * Counts from the action log and the game's card kinds. A default action (`auto`) counts for
 * the player it was played for, since the log names the player whose turn it was.
 */
export function gameStats(log: readonly LogEntry[], game: Pick<Game, 'kinds' | 'order'>): GameStats {
  const stats: GameStats = {};
  for (const p of game.order) stats[p] = zero();
  let card: number | null = null;
  let claim: Kind | null = null;
  for (const { player, action } of log) {
    // Own keys only: a player id never reaches an inherited property of the object.
    const s = Object.prototype.hasOwnProperty.call(stats, player) ? stats[player] : (stats[player] = zero());
    switch (action.type) {
      case 'offer':
      case 'pass':
        if (action.type === 'offer') card = action.cardId;
        claim = action.claim;
        s.claims++;
        if (card !== null && game.kinds[card] !== claim) s.bluffs++;
        break;
      case 'peek':
        s.peeks++;
        break;
      case 'call': {
        s.calls++;
        const kind = card === null ? undefined : game.kinds[card];
        if ((kind === claim) === (action.call === 'true')) s.correctCalls++;
        card = null;
        claim = null;
        break;
      }
    }
  }
  return stats;
}

/** "지우님", "지우님과 민수님", "지우님, 민수님, 하늘님": "님" fixes the particle that follows. */
function names(ids: readonly PlayerId[], nicknames: Readonly<Record<PlayerId, string>>): string {
  const list = ids.map((id) => `${nicknames[id] ?? id}님`);
  return list.length === 2 ? `${list[0]}과 ${list[1]}` : list.join(', ');
}

/** Players (in the stats' order) holding the largest value of `field`, with that value. */
function leaders(stats: GameStats, field: keyof PlayerStats): { ids: PlayerId[]; value: number } {
  let value = 0;
  for (const s of Object.values(stats)) value = Math.max(value, s[field]);
  return { ids: Object.keys(stats).filter((id) => stats[id][field] === value), value };
}

/** Short Korean sentences for the results screen, always at least one. */
export function highlights(stats: GameStats, nicknames: Readonly<Record<PlayerId, string>> = {}): string[] {
  const out: string[] = [];
  const bluffers = leaders(stats, 'bluffs');
  if (bluffers.value > 0) {
    out.push(`${names(bluffers.ids, nicknames)}이 거짓말을 가장 많이 했어요 (${bluffers.value}번)!`);
    const honest = Object.keys(stats).filter((id) => stats[id].claims >= 2 && stats[id].bluffs === 0);
    if (honest.length > 0) out.push(`${names(honest, nicknames)}은 한 번도 거짓말을 하지 않았어요.`);
  } else {
    out.push('아무도 거짓말을 하지 않았어요. 모두 정직했어요!');
  }
  const callers = leaders(stats, 'correctCalls');
  if (callers.value > 0) out.push(`${names(callers.ids, nicknames)}이 판정을 가장 많이 맞혔어요 (${callers.value}번)!`);
  const peekers = leaders(stats, 'peeks');
  if (peekers.value > 0) out.push(`${names(peekers.ids, nicknames)}이 카드를 가장 많이 몰래 봤어요 (${peekers.value}번).`);
  return out;
}
