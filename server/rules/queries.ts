import { ruleError, RuleError } from './errors';
import type { Game, PlayerId } from './types';

/** Whoever must act now: the starter while no card is in flight, else the holder. */
export function activePlayer(game: Game): PlayerId | null {
  if (game.phase !== 'playing') return null;
  return game.round.card === null ? game.round.starter : game.round.holder;
}

/**
 * Who the holder may hand the card on to: anyone who has not seen it. With two players under
 * `twoPlayerPass`, the card may go back to the other player instead (RULINGS "Rounds").
 */
export function passTargets(game: Game): PlayerId[] {
  const { holder, seen } = game.round;
  if (holder === null) return [];
  if (game.order.length === 2) {
    return game.options.twoPlayerPass ? game.order.filter((p) => p !== holder) : [];
  }
  return game.order.filter((p) => p !== holder && !seen.includes(p));
}

/** Why the holder may not peek right now, or null if they may. */
export function peekRefusal(game: Game): RuleError | null {
  const { round } = game;
  if (round.peeked) return ruleError('ALREADY_PEEKED');
  if (game.order.length === 2 && !game.options.twoPlayerPass) return ruleError('TWO_PLAYER_NO_PEEK');
  // Only under twoPlayerPass can a holder already know the card: it came back to them.
  if (round.holder !== null && round.seen.includes(round.holder)) return ruleError('ALREADY_SEEN');
  if (passTargets(game).length === 0) return ruleError('NO_PASS_TARGET');
  return null;
}
