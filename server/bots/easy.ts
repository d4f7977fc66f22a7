import { KINDS } from '../rules/kinds';
import { pick, randInt, RngState } from '../rules/rng';
import type { Action, PlayerId } from '../rules/types';
import type { PlayerView } from '../rules/view';
import { holderChoices, ownCards } from './seat';

/**
 * A uniform kind of move, then uniform parameters: the same distribution as the rules'
 * randomLegalAction, but drawn from the seat's view alone.
 */
export function easyMove(view: PlayerView, me: PlayerId, rng: RngState): Action {
  const claim = pick(rng, KINDS);
  if (!view.round.hasCard) {
    const to = pick(
      rng,
      view.order.filter((p) => p !== me),
    );
    return { type: 'offer', cardId: pick(rng, ownCards(view, me)), to, claim };
  }
  const choices = holderChoices(view);
  if (choices.mustPass) return { type: 'pass', to: pick(rng, choices.passTargets), claim };
  const choice = randInt(rng, choices.canPeek ? 3 : 2);
  if (choice === 2) return { type: 'peek' };
  return { type: 'call', call: choice === 0 ? 'true' : 'false' };
}
