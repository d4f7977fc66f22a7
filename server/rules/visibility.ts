/**
 * Who may see what: the one rule, in one place. The rules' per-player view (`viewFor`), the
 * schema's `@filter`s (server/schema/CockroachState.ts), the projection of values everyone or
 * nobody may see (server/project.ts), the events each client is sent (`eventFor`) and the load
 * test's leak check (loadtest/lib/leakCheck.ts) all ask these predicates, so a change here is a
 * change everywhere.
 *
 * A viewer is a player id (a session id), or null for a spectator. `phase` is the table's
 * lifecycle: 'lobby', 'playing' or 'ended'.
 */
import type { Kind } from './kinds';
import type { CallValue, LossReason, PlayerId } from './types';

export type Viewer = PlayerId | null;

/**
 * A hand is private only while a game is played: its owner sees it; once the game has ended
 * every hand is public (rules 8.6); in the lobby there are no cards to hide (and the last game's,
 * being cleared at a rematch, were public already).
 */
export function maySeeHand(viewer: Viewer, owner: PlayerId, phase: string): boolean {
  return viewer === owner || phase !== 'playing';
}

/** The kind of the card in flight: only for those who have seen it (the starter, and every holder who peeked). */
export function maySeeCardInFlight(viewer: Viewer, seen: Iterable<PlayerId>): boolean {
  if (viewer === null) return false;
  // A loop rather than `includes`: the room's filter passes the schema's list, whose `includes`
  // copies it into a new array, for every client at every patch.
  for (const id of seen) if (id === viewer) return true;
  return false;
}

/** The id of the card in flight is never shown to anyone: it is in no hand, and an id must not give its kind away. */
export function maySeeCardInFlightId(): boolean {
  return false;
}

/** The two-player game's set-aside cards: nobody before the end, everyone after. */
export function maySeeRemoved(phase: string): boolean {
  return phase === 'ended';
}

/** The server's secret for a game (fairness.serverSeed): nobody before that game has ended. */
export function maySeeServerSeed(phase: string): boolean {
  return phase === 'ended';
}

/**
 * A game event as the rules produce it (server/rules/apply.ts), with everything anyone may know
 * about it; `eventFor` cuts it down for one viewer.
 */
export type GameEvent =
  | { type: 'offered'; from: PlayerId; to: PlayerId; claim: Kind; kind: Kind; seen: readonly PlayerId[] }
  | { type: 'peeked'; player: PlayerId; kind: Kind; seen: readonly PlayerId[] }
  | { type: 'passed'; from: PlayerId; to: PlayerId; claim: Kind; kind: Kind; seen: readonly PlayerId[] }
  | { type: 'revealed'; card: number; kind: Kind; claim: Kind; call: CallValue; caller: PlayerId; correct: boolean; takenBy: PlayerId }
  | { type: 'ended'; loser: PlayerId; reason: LossReason };

/**
 * What one viewer is told of a game event: the kind of the card in flight only when the viewer
 * has seen it (`kind` is absent otherwise), and never a card id.
 */
export type GameEventView =
  | { type: 'offered'; from: PlayerId; to: PlayerId; claim: Kind; kind?: Kind }
  | { type: 'peeked'; player: PlayerId; kind?: Kind }
  | { type: 'passed'; from: PlayerId; to: PlayerId; claim: Kind; kind?: Kind }
  | { type: 'revealed'; kind: Kind; claim: Kind; call: CallValue; caller: PlayerId; correct: boolean; takenBy: PlayerId }
  | { type: 'ended'; loser: PlayerId; reason: LossReason };

export function eventFor(event: GameEvent, viewer: Viewer): GameEventView {
  switch (event.type) {
    case 'offered':
    case 'passed': {
      const { type, from, to, claim } = event;
      return maySeeCardInFlight(viewer, event.seen) ? { type, from, to, claim, kind: event.kind } : { type, from, to, claim };
    }
    case 'peeked':
      return maySeeCardInFlight(viewer, event.seen)
        ? { type: 'peeked', player: event.player, kind: event.kind }
        : { type: 'peeked', player: event.player };
    case 'revealed': {
      // Turned up: its kind is public now. The id stays out (maySeeCardInFlightId).
      const { type, kind, claim, call, caller, correct, takenBy } = event;
      return { type, kind, claim, call, caller, correct, takenBy };
    }
    case 'ended':
      return { type: 'ended', loser: event.loser, reason: event.reason };
  }
}

const GAME_EVENT_TYPES: ReadonlySet<string> = new Set(['offered', 'peeked', 'passed', 'revealed', 'ended']);

/** Whether an event is one of the rules' game events (as opposed to the table's own). */
export function isGameEvent(event: { type: string }): event is GameEvent {
  return GAME_EVENT_TYPES.has(event.type);
}

/** Whether an event says something only some viewers may know (so one copy cannot serve everyone). */
export function isPartlyHidden(event: GameEvent): event is Extract<GameEvent, { seen: readonly PlayerId[] }> {
  return event.type === 'offered' || event.type === 'peeked' || event.type === 'passed';
}
