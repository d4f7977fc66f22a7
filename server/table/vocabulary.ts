import type { Action, GameEvent, PlayerId, RuleError } from '../rules';

/**
 * The table's own words: what it refuses and what happens at it besides the game. The wire
 * (server/protocol.ts) has its own for clients; server/commands/tableWords.ts translates, and a
 * compile-time check there fails when the two drift apart. The table imports nothing of the wire,
 * so a change to what clients are told never reaches the authority, and the other way round.
 */
export const TABLE_REFUSALS = [
  // An input that is not a move the table can take.
  'BAD_PAYLOAD',
  'STALE_ACTION',
  'NOT_PLAYING',
  'ALREADY_STARTED',
  'NOT_IN_LOBBY',
  'GAME_NOT_OVER',
  'NOT_ENOUGH_PLAYERS',
  'TOO_MANY_GAMES',
  // Who may do it.
  'SPECTATOR',
  'NOT_HOST',
  'NOT_CREATOR',
  'NOT_A_BOT',
  // Whom it is about: nobody of that id at the table (or not a person), or oneself (a kick of
  // another connection of one's own identity included).
  'NOBODY_THERE',
  'ONESELF',
  // Who may sit or watch (server/table/admission.ts).
  'KICKED',
  'LOCKED',
  'ALREADY_SEATED',
  'LATE_JOIN',
  'ROOM_FULL',
  'SPECTATORS_FULL',
] as const;
export type TableRefusal = (typeof TABLE_REFUSALS)[number];

/** A refusal of the table's own, or of the rules (which carry their own code and sentence). */
export type Refusal = TableRefusal | RuleError;

export type Outcome = { ok: true } | { ok: false; code: Refusal };

/**
 * What happened at the table besides the game's own events: seats, presence, host, watchers, the
 * lock, the start, a rematch, and a move the rules made for someone (the clock ran out, or the
 * player is away).
 */
export type SeatEvent =
  | { type: 'seated'; player: PlayerId; bot: boolean }
  | { type: 'left'; player: PlayerId; reason: 'left' | 'grace' | 'rematch' | 'removed' | 'kicked' }
  | { type: 'dropped'; player: PlayerId }
  | { type: 'away'; player: PlayerId; reason: 'grace' | 'left' }
  | { type: 'returned'; player: PlayerId }
  | { type: 'hostChanged'; host: PlayerId | null }
  | { type: 'watching'; watcher: PlayerId }
  | { type: 'stoppedWatching'; watcher: PlayerId; reason: 'left' | 'kicked' | 'replaced' }
  | { type: 'locked'; by: PlayerId; reason: 'lock' | 'kick' }
  | { type: 'unlocked'; by: PlayerId }
  | { type: 'started'; order: PlayerId[] }
  | { type: 'defaultMove'; player: PlayerId; move: Action['type']; reason: 'clock' | 'away' }
  | { type: 'rematch' };

/** Everything that happens at a table: the rules' game events and the table's own. */
export type TableEvent = GameEvent | SeatEvent;
