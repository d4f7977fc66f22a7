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

/** A record as it is stored: the columns retention and support search by, and its JSON. */
export interface RecordRow {
  gameId: string;
  startedMs: number;
  endedMs: number;
  json: string;
}

export function rowOf(record: FinishedGameRecord): RecordRow {
  return {
    gameId: record.gameId,
    startedMs: Date.parse(record.startedAt),
    endedMs: Date.parse(record.endedAt),
    json: JSON.stringify(record),
  };
}

/** An outbox row: when it was made durable here, so delivery goes oldest first. */
export interface OutboxRow extends RecordRow {
  addedMs: number;
}

/** This process's own file, as the writer uses it (disk.ts: the disk worker's side). */
export interface LocalRecords {
  readonly file: string;
  /** Makes rows durable in one transaction; resolves to how many were new. */
  put(rows: readonly RecordRow[]): Promise<number>;
  get(gameId: string): Promise<FinishedGameRecord | null>;
  /** The outbox's oldest rows. */
  list(limit: number): Promise<OutboxRow[]>;
  remove(gameIds: readonly string[]): Promise<number>;
  /** Sets rows aside (quarantine.ts): durable, out of every batch, never served. */
  quarantine(entries: readonly QuarantineEntry[]): Promise<void>;
  count(): Promise<number>;
  /** Notices (and recovers) a vanished or replaced file; rejects while it cannot. */
  check(): Promise<void>;
  close(): Promise<void>;
}

/** Where the outbox delivers (PostgreSQL). */
export interface DeliveryTarget {
  saveRows(rows: readonly RecordRow[]): Promise<void>;
  get(gameId: string): Promise<FinishedGameRecord | null>;
  close(): Promise<void>;
}

/** A row set aside (quarantine.ts): durable, out of every batch, never served. */
export interface QuarantineEntry {
  /** As the record gave it: it may itself be what is wrong (never a file name). */
  gameId: string;
  /** Who refused it: this process's file (`disk`, serializing included) or PostgreSQL (`postgres`). */
  where: 'disk' | 'postgres';
  code: string;
  message: string;
  /** The row as it was (its `json` is the record); null when the record could not be serialized. */
  row: RecordRow | null;
  /** The record as well as it could be written down, when `row` is null. */
  dump: string | null;
}
