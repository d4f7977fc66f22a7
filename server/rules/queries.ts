import { ruleError, RuleError } from './errors';
import type { Game, PlayerId } from './types';

/** Whoever must act now: the starter while no card is in flight, else the holder. */
export function activePlayer(game: Game): PlayerId | null {
  return actorOf(game.phase, game.round.card !== null, game.round.starter, game.round.holder);
}

/**
 * The same rule from public facts alone (a player's view, a decoded state): nobody outside a
 * game; the starter while no card is in flight, else the holder.
 */
export function actorOf(phase: string, hasCard: boolean, starter: PlayerId | null, holder: PlayerId | null): PlayerId | null {
  if (phase !== 'playing') return null;
  return hasCard ? holder : starter;
}

/**
 * The public facts that decide passing and peeking. Everyone can see them, so the server (from
 * the game) and a client (from its view) decide with the very same functions below.
 */
export interface PassFacts {
  order: readonly PlayerId[];
  holder: PlayerId | null;
  seen: readonly PlayerId[];
  /** The holder has peeked this card and so must pass it on. */
  peeked: boolean;
  twoPlayerPass: boolean;
}

export function passFactsOf(game: Game): PassFacts {
  const { holder, seen, peeked } = game.round;
  return { order: game.order, holder, seen, peeked, twoPlayerPass: game.options.twoPlayerPass };
}

/**
 * Peeked, read from public state: the holder is in `seen`, except when a two-player pass-back
 * returned the card to the starter, who saw it when offering but has not peeked since.
 */
export function peekedFromPublic(
  order: readonly PlayerId[],
  starter: PlayerId,
  holder: PlayerId | null,
  seen: readonly PlayerId[],
): boolean {
  if (holder === null || !seen.includes(holder)) return false;
  return !(order.length === 2 && holder === starter);
}

/**
 * Who the holder may hand the card on to: anyone who has not seen it. With two players under
 * `twoPlayerPass`, the card may go back to the other player instead (RULINGS "Rounds").
 */
export function passTargetsFrom(f: PassFacts): PlayerId[] {
  if (f.holder === null) return [];
  if (f.order.length === 2) return f.twoPlayerPass ? f.order.filter((p) => p !== f.holder) : [];
  return f.order.filter((p) => p !== f.holder && !f.seen.includes(p));
}

/** Why the holder may not peek right now, or null if they may. */
export function peekRefusalFrom(f: PassFacts): RuleError | null {
  if (f.peeked) return ruleError('ALREADY_PEEKED');
  if (f.order.length === 2 && !f.twoPlayerPass) return ruleError('TWO_PLAYER_NO_PEEK');
  // Only under twoPlayerPass can a holder already know the card: it came back to them.
  if (f.holder !== null && f.seen.includes(f.holder)) return ruleError('ALREADY_SEEN');
  if (passTargetsFrom(f).length === 0) return ruleError('NO_PASS_TARGET');
  return null;
}

export function passTargets(game: Game): PlayerId[] {
  return passTargetsFrom(passFactsOf(game));
}

export function peekRefusal(game: Game): RuleError | null {
  return peekRefusalFrom(passFactsOf(game));
}
