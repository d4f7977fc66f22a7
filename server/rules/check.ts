import { isKind } from './kinds';
import { ruleError, RuleError } from './errors';
import { activePlayer, passTargets, peekRefusal } from './queries';
import { ACTION_TYPES } from './types';
import type { Action, Game, PlayerId } from './types';

/**
 * Every check of rules 8.2 and section 5, in a fixed order so a given wrong action always gets
 * the same code. Returns null when `player` may take `action` now. Reads, never writes.
 */
export function checkAction(game: Game, player: PlayerId, action: Action): RuleError | null {
  if (game.phase !== 'playing') return ruleError('GAME_OVER');
  if (!game.order.includes(player)) return ruleError('NOT_A_PLAYER');
  if (!isActionType(action?.type)) return ruleError('UNKNOWN_ACTION');
  if (player !== activePlayer(game)) return ruleError('NOT_YOUR_TURN');
  const { round } = game;
  if (round.card === null && action.type !== 'offer') return ruleError('MUST_OFFER');
  if (round.card !== null && action.type === 'offer') return ruleError('CARD_IN_FLIGHT');

  switch (action.type) {
    case 'offer':
      if (!game.hands[player].includes(action.cardId)) return ruleError('CARD_NOT_IN_HAND');
      return targetRefusal(game, player, action.to) ?? (isKind(action.claim) ? null : ruleError('INVALID_CLAIM'));
    case 'call':
      if (round.peeked) return ruleError('ALREADY_PEEKED');
      return action.call === 'true' || action.call === 'false' ? null : ruleError('INVALID_CALL');
    case 'peek':
      return peekRefusal(game);
    case 'pass': {
      if (!round.peeked) return ruleError('MUST_PEEK_FIRST');
      const refusal = targetRefusal(game, player, action.to);
      if (refusal) return refusal;
      if (!passTargets(game).includes(action.to)) return ruleError('TARGET_ALREADY_SEEN');
      return isKind(action.claim) ? null : ruleError('INVALID_CLAIM');
    }
  }
}

function targetRefusal(game: Game, player: PlayerId, to: unknown): RuleError | null {
  if (typeof to !== 'string' || !game.order.includes(to)) return ruleError('UNKNOWN_PLAYER');
  if (to === player) return ruleError('CANNOT_TARGET_SELF');
  return null;
}

const ACTION_TYPE_SET: ReadonlySet<unknown> = new Set(ACTION_TYPES);
export function isActionType(value: unknown): value is Action['type'] {
  return ACTION_TYPE_SET.has(value);
}
