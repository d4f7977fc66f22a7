import type { FinishedGameRecord } from '../fairness/record';

/** Where finished games are kept: SQLite (embedded, the default) or PostgreSQL (DATABASE_URL). */
export interface GameStore {
  readonly engine: 'sqlite' | 'postgres';
  /** Stores a record; saving the same gameId again keeps the first (a retry after a lost reply is harmless). */
  save(record: FinishedGameRecord): Promise<void>;
  get(gameId: string): Promise<FinishedGameRecord | null>;
  /** Deletes records whose game ended more than `ageMs` before `now`; returns how many. */
  deleteOlderThan(ageMs: number, now?: number): Promise<number>;
  close(): Promise<void>;
}

/** What the HTTP route reads from: a store, or the writer (which also knows records still queued). */
export interface RecordSource {
  get(gameId: string): Promise<FinishedGameRecord | null>;
}

/** The columns besides the record itself: what retention and support search by. */
export function rowOf(record: FinishedGameRecord): { gameId: string; startedMs: number; endedMs: number; json: string } {
  return {
    gameId: record.gameId,
    startedMs: Date.parse(record.startedAt),
    endedMs: Date.parse(record.endedAt),
    json: JSON.stringify(record),
  };
}
