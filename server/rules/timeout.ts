import { KINDS } from './kinds';
import { applyAction, ApplyResult } from './apply';
import { activePlayer, passTargets } from './queries';
import { pick, randInt } from './rng';
import type { Action, Game, PlayerId } from './types';

/**
 * The default action for whoever must act (rules 8.5, RULINGS "Time"), drawing any randomness
 * from the game's own PRNG so a replay draws the same. Advances the PRNG; null once the game ended.
 */
export function timeoutAction(game: Game): { player: PlayerId; action: Action } | null {
  const player = activePlayer(game);
  if (player === null) return null;
  const { round, order } = game;
  if (round.card === null) {
    const hand = game.hands[player];
    const cardId = hand[randInt(game.rng, hand.length)];
    const to = order[(order.indexOf(player) + 1) % order.length];
    return { player, action: { type: 'offer', cardId, to, claim: pick(game.rng, KINDS) } };
  }
  if (!round.peeked) {
    return { player, action: { type: 'call', call: randInt(game.rng, 2) === 0 ? 'true' : 'false' } };
  }
  // passTargets keeps seat order, so its head is the first unseen seat from order[0].
  const to = passTargets(game)[0];
  return { player, action: { type: 'pass', to, claim: game.kinds[round.card] } };
}

/** Picks and applies the default action; what it returns is what the action log records. */
export function applyTimeout(game: Game): ({ player: PlayerId; action: Action } & ApplyResult) | null {
  const chosen = timeoutAction(game);
  if (!chosen) return null;
  const result = applyAction(game, chosen.player, chosen.action);
  if (!result.ok) throw new Error(`default action refused: ${result.error.code}`);
  return { ...chosen, ...result };
}
