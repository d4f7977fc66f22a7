import type { PlayerId } from '../rules';
import { creatorSeat, SeatState, TableView } from './state';

type HostInputs = Pick<TableView, 'seats' | 'hostId' | 'lifecycle' | 'creator' | 'hostLeftSeq' | 'nextSeq' | 'awaitingCreator'>;

/** What the host rule decides after an input: who is host, and the successors' bound while the host is not present. */
export interface HostDecision {
  hostId: PlayerId | null;
  hostLeftSeq: number | null;
}

/** At the table and reachable: a person whose connection is up and who is not away. */
function present(seat: Readonly<SeatState> | undefined): boolean {
  return seat !== undefined && !seat.bot && seat.connected && !seat.away;
}

/**
 * The one host rule (issue 32 "The host stays the family's"; PROTOCOL v1 "Seats", v2 "Rooms
 * that last"), applied by the table after every input:
 * 1. The room's creator (by identity) is host whenever present.
 * 2. A present host keeps the role.
 * 3. A host whose connection dropped keeps it while the seat is held (through the game's grace;
 *    a non-creator's lobby seat only through the lobby grace): nobody else may act as host
 *    meanwhile, so a phone's blip hands nothing to anyone.
 * 4. Past that, the first present person in join order who was seated before the host left
 *    takes over; someone who sat down after the host left never does, so a stranger cannot
 *    wait for the family's phone to blip. With nobody like that, nobody is host (the lobby is
 *    taken out of the listing) until the creator or a successor is back. Only when the creator
 *    can never come back (an anonymous creator whose seat is gone) may anyone present take it.
 * A bot is never host. At the results screen an away host is past rule 3, so someone present can
 * always ask for a rematch.
 */
export function decideHost(state: HostInputs): HostDecision {
  // The creator is on their way in (their reservation is made): nobody else may take the role first.
  if (state.awaitingCreator) return { hostId: null, hostLeftSeq: 0 };
  const creator = creatorSeat(state);
  if (creator && present(creator)) return { hostId: creator.id, hostLeftSeq: null };
  const current = state.hostId === null ? undefined : state.seats.get(state.hostId);
  if (current && present(current)) return { hostId: current.id, hostLeftSeq: null };
  // With no creator who could come back (none, or an anonymous one whose seat is gone: nothing
  // would recognise them) there is no family to keep the role for: anyone present may take it.
  const bound = creatorCanReturn(state) ? (state.hostLeftSeq ?? state.nextSeq) : Infinity;
  if (current && !current.bot && !current.connected && !current.away) return { hostId: current.id, hostLeftSeq: bound };
  for (const seat of state.seats.values()) if (present(seat) && seat.seq < bound) return { hostId: seat.id, hostLeftSeq: null };
  return { hostId: null, hostLeftSeq: bound };
}

function creatorCanReturn(state: HostInputs): boolean {
  const creator = state.creator;
  return creator !== null && ('key' in creator || state.seats.has(creator.seat));
}

/** The host rule's answer alone (tools and tests that only ask who is host). */
export function hostOf(state: HostInputs): PlayerId | null {
  return decideHost(state).hostId;
}
