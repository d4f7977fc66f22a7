import { KINDS } from './kinds';
import { activePlayer, passTargets, peekRefusal } from './queries';
import { pick, RngState } from './rng';
import type { Action, Game, PlayerId } from './types';

/** Every action `player` may take now, in a stable order. Empty when it is not their turn. */
export function legalActions(game: Game, player: PlayerId): Action[] {
  if (activePlayer(game) !== player) return [];
  const { round } = game;
  const actions: Action[] = [];
  if (round.card === null) {
    for (const cardId of game.hands[player]) {
      for (const to of game.order) {
        if (to === player) continue;
        for (const claim of KINDS) actions.push({ type: 'offer', cardId, to, claim });
      }
    }
    return actions;
  }
  if (round.peeked) {
    for (const to of passTargets(game)) for (const claim of KINDS) actions.push({ type: 'pass', to, claim });
    return actions;
  }
  actions.push({ type: 'call', call: 'true' }, { type: 'call', call: 'false' });
  if (peekRefusal(game) === null) actions.push({ type: 'peek' });
  return actions;
}

/**
 * A uniformly chosen kind of move, then uniform parameters: cheap enough for bots and load tests
 * (no list of up to a thousand offers), always legal. `rng` is the bot's own, never the game's.
 */
export function randomLegalAction(game: Game, player: PlayerId, rng: RngState): Action | null {
  if (activePlayer(game) !== player) return null;
  const { round } = game;
  const claim = pick(rng, KINDS);
  if (round.card === null) {
    const to = pick(
      rng,
      game.order.filter((p) => p !== player),
    );
    return { type: 'offer', cardId: pick(rng, game.hands[player]), to, claim };
  }
  if (round.peeked) return { type: 'pass', to: pick(rng, passTargets(game)), claim };
  const canPeek = peekRefusal(game) === null;
  const choice = pick(rng, canPeek ? [0, 1, 2] : [0, 1]);
  if (choice === 2) return { type: 'peek' };
  return { type: 'call', call: choice === 0 ? 'true' : 'false' };
}
