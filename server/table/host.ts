import type { PlayerId } from '../rules';
import type { TableView } from './state';

/**
 * The one host rule (PROTOCOL v1 "Seats", v2 "Rooms that last"). The host keeps the role while
 * seated and a person, except that at the results screen a host who is away gives it up, so
 * someone present can always ask for a rematch. Otherwise the first seated human in join order
 * who is connected and not away becomes host; with nobody like that, nobody is host until
 * someone comes back. A bot is never host. The table applies it after every input.
 */
export function hostOf(state: Pick<TableView, 'seats' | 'hostId' | 'lifecycle'>): PlayerId | null {
  const current = state.hostId === null ? undefined : state.seats.get(state.hostId);
  if (current && !current.bot && !(state.lifecycle === 'ended' && current.away)) return current.id;
  for (const seat of state.seats.values()) if (!seat.bot && seat.connected && !seat.away) return seat.id;
  return null;
}
