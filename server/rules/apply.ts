import { Kind, KINDS } from './kinds';
import { checkAction } from './check';
import { RuleError } from './errors';
import { newRound } from './setup';
import type { Action, Game, LossReason, PlayerId } from './types';
import type { GameEvent } from './visibility';

export type ApplyResult = { ok: true; events: GameEvent[] } | { ok: false; error: RuleError };

/**
 * Checks `action` and, only if it is allowed, applies it to `game` in place. A refusal leaves
 * every field of `game` (the PRNG included) exactly as it was.
 */
export function applyAction(game: Game, player: PlayerId, action: Action): ApplyResult {
  const error = checkAction(game, player, action);
  if (error) return { ok: false, error };
  const events: GameEvent[] = [];
  const { round } = game;
  game.step++;
  switch (action.type) {
    case 'offer': {
      const hand = game.hands[player];
      hand.splice(hand.indexOf(action.cardId), 1);
      round.card = action.cardId;
      round.seen = [player];
      handTo(game, player, action.to, action.claim);
      events.push({ type: 'offered', from: player, to: action.to, claim: action.claim, kind: game.kinds[action.cardId], seen: [player] });
      break;
    }
    case 'peek':
      round.peeked = true;
      round.seen.push(player);
      events.push({ type: 'peeked', player, kind: game.kinds[round.card!], seen: [...round.seen] });
      break;
    case 'pass':
      handTo(game, player, action.to, action.claim);
      events.push({
        type: 'passed',
        from: player,
        to: action.to,
        claim: action.claim,
        kind: game.kinds[round.card!],
        seen: [...round.seen],
      });
      break;
    case 'call':
      resolveCall(game, player, action.call, events);
      break;
  }
  return { ok: true, events };
}

function handTo(game: Game, from: PlayerId, to: PlayerId, claim: Kind) {
  const { round } = game;
  round.holder = to;
  round.lastPasser = from;
  round.claim = claim;
  round.peeked = false;
  round.claims.push({ from, to, claim });
}

/** The card is turned up; whoever misjudged takes it face up and starts the next round. */
function resolveCall(game: Game, caller: PlayerId, call: 'true' | 'false', events: GameEvent[]) {
  const { round } = game;
  const card = round.card as number;
  const claim = round.claim!;
  const kind = game.kinds[card];
  const correct = (kind === claim) === (call === 'true');
  const takenBy = correct ? round.lastPasser! : caller;
  game.fronts[takenBy].push(card);
  game.lastReveal = { card, kind, claim, call, caller, correct, takenBy };
  events.push({ type: 'revealed', ...game.lastReveal });
  game.round = newRound(round.no + 1, takenBy);

  const reason = lossAfterLanding(game, takenBy);
  if (reason) {
    game.phase = 'ended';
    game.loser = takenBy;
    game.lossReason = reason;
    events.push({ type: 'ended', loser: takenBy, reason });
  }
}

/**
 * Loss checks, in the order RULINGS gives: the landed card first (`four` wins over `eightKinds`
 * when both hold), then the new starter's empty hand. Only the taker's front changed, and the
 * taker is the new starter, so only they can lose here.
 */
function lossAfterLanding(game: Game, taker: PlayerId): LossReason | null {
  const front = game.fronts[taker];
  const landed = game.kinds[front[front.length - 1]];
  const sameKind = front.reduce((n, id) => (game.kinds[id] === landed ? n + 1 : n), 0);
  if (sameKind >= game.options.loseCount) return 'four';
  if (game.options.eightKindsRule && KINDS.every((k) => front.some((id) => game.kinds[id] === k))) return 'eightKinds';
  if (game.hands[taker].length === 0) return 'emptyHand';
  return null;
}
