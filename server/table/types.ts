import type { Action, CockroachResult, GameOptions, PlayerId, PlayerView } from '../rules';
import type { FinishedGameRecord } from '../fairness';
import type { Outcome, TableEvent } from './vocabulary';

export type { Outcome, Refusal, SeatEvent, TableEvent, TableRefusal } from './vocabulary';

/** What an input did: whether it applied (a refusal changes nothing) and what happened, in order. */
export interface Step {
  outcome: Outcome;
  events: TableEvent[];
}

/** A game that ended in this change: its record (to keep before the result is announced) and result. */
export interface FinishedGame {
  record: FinishedGameRecord;
  result: CockroachResult;
}

/** One applied input, whatever its source (the room, a timer): the room projects, patches and announces it. */
export interface TableChange {
  events: TableEvent[];
  finished: FinishedGame | null;
}

export interface TableHooks {
  /** Called once at the end of every input that applied, with the state already changed. */
  changed(change: TableChange): void;
  /** A bot decided its move: it goes through the same path as a player's message. */
  botMove(id: PlayerId, type: Action['type'], payload: Record<string, unknown>): void;
}

/** A practice bot as the table uses it: a function of its seat's view, never of the game. */
export interface TableBot {
  decide(view: PlayerView): Action;
  thinkMs(maxMs: number): number;
}

export interface TableSettings {
  options: GameOptions;
  isPrivate?: boolean;
  /** Epoch ms (the room's clock; tests move it). */
  now: () => number;
  botThinkMs: number;
  /** A dropped player's seat during a game before they count as away, and in the lobby before it is freed. */
  reconnectGraceMs: number;
  lobbyGraceMs: number;
  /** Tests only: a fixed server seed. Clients can never choose the seed. */
  seed?: () => string;
  /** Games this table plays at most (the room's bound on the records one room leaves). */
  maxGames: number;
  /** A shown name's longest length, in code points (a name made distinct is shortened to it). */
  nicknameMax: number;
}
