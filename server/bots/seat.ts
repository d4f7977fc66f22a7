import { passTargetsFrom, peekRefusalFrom } from '../rules/queries';
import type { PlayerId } from '../rules/types';
import { activePlayerIn, passFactsIn, PlayerView } from '../rules/view';

/**
 * Whose view this is: while a game is playing, a view shows exactly one hand, the viewer's own.
 * A bot is never told its id separately, so it cannot be handed someone else's seat by mistake.
 */
export function viewerOf(view: PlayerView): PlayerId {
  if (view.phase !== 'playing') throw new Error('bot: the game is not being played');
  const own = view.order.filter((id) => view.players[id]?.hand !== undefined);
  if (own.length !== 1) throw new Error('bot: not a player view (no single own hand)');
  return own[0];
}

/** Who must act now: the rules' own rule, read from the view. */
export const toActIn = activePlayerIn;
export { passFactsIn };

/** The holder's choices, as the rules would list them. */
export interface HolderChoices {
  mustPass: boolean;
  canPeek: boolean;
  passTargets: PlayerId[];
}

export function holderChoices(view: PlayerView): HolderChoices {
  const facts = passFactsIn(view);
  return { mustPass: facts.peeked, canPeek: !facts.peeked && peekRefusalFrom(facts) === null, passTargets: passTargetsFrom(facts) };
}

/** The viewer's own card ids, in ascending order (object keys of integers keep that order). */
export function ownCards(view: PlayerView, me: PlayerId): number[] {
  return Object.keys(view.players[me].hand ?? {}).map(Number);
}
