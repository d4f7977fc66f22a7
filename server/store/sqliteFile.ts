import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS, Migration, OUTBOX_MIGRATIONS, pendingMigrations } from './migrations';
import type { OutboxRow, RecordRow } from './types';

/**
 * What a local file holds: `games`, the embedded store itself (SQLite alone: writing here IS the
 * save), or `outbox`, where a record waits on this process's disk until PostgreSQL has it.
 */
export type FileKind = 'games' | 'outbox';

/** Why a file is no longer the one that was opened. */
export type FileLoss = 'vanished' | 'replaced';

/** The columns copied when a lost file's rows are salvaged (a games row may still have its room). */
const COLUMNS: Record<FileKind, string> = {
  games: 'game_id, room_id, started_ms, ended_ms, record',
  outbox: 'game_id, started_ms, ended_ms, added_ms, record',
};
const SALVAGE_BATCH = 1000;

/**
 * One local SQLite file, synchronous (better-sqlite3). Only the disk worker (diskWorker.ts) uses
 * it, so no call here ever runs on the game loop. WAL with synchronous=FULL: a committed record
 * survives `kill -9` and a power cut. The file's identity (device and inode) is kept, so a file
 * deleted or swapped under the running server is noticed.
 */
export class SqliteFile {
  private readonly db: Database.Database;
  private readonly identity: { dev: number; ino: number };
  private readonly insert: Database.Statement;
  private readonly select: Database.Statement;

  constructor(
    readonly file: string,
    readonly kind: FileKind,
    busyTimeoutMs: number,
  ) {
    fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    this.db = new Database(file);
    try {
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = FULL');
      this.db.pragma('busy_timeout = 5000'); // while migrating: another process may be doing it too
      migrate(this.db, kind === 'games' ? MIGRATIONS : OUTBOX_MIGRATIONS);
      // Short from here on: a locked file fails the attempt and the writer retries, so reads
      // queued behind it on this thread wait at most this long.
      this.db.pragma(`busy_timeout = ${busyTimeoutMs}`);
      this.insert =
        kind === 'games'
          ? this.db.prepare(
              'INSERT OR IGNORE INTO games (game_id, started_ms, ended_ms, record) VALUES (@gameId, @startedMs, @endedMs, @json)',
            )
          : this.db.prepare(
              'INSERT OR IGNORE INTO outbox (game_id, started_ms, ended_ms, added_ms, record) VALUES (@gameId, @startedMs, @endedMs, @addedMs, @json)',
            );
      this.select = this.db.prepare(`SELECT record FROM ${kind} WHERE game_id = ?`).pluck();
      const stat = fs.statSync(file);
      this.identity = { dev: stat.dev, ino: stat.ino };
    } catch (error) {
      this.db.close();
      throw error;
    }
  }

  /** One transaction; returns how many rows were new. */
  put(rows: readonly RecordRow[], addedMs: number): number {
    let added = 0;
    this.db.transaction(() => {
      for (const row of rows) added += this.insert.run(this.kind === 'outbox' ? { ...row, addedMs } : row).changes;
    })();
    return added;
  }

  get(gameId: string): string | null {
    return (this.select.get(gameId) as string | undefined) ?? null;
  }

  /** The outbox's oldest rows. */
  list(limit: number): OutboxRow[] {
    return this.db
      .prepare(
        'SELECT game_id AS gameId, started_ms AS startedMs, ended_ms AS endedMs, added_ms AS addedMs, record AS json FROM outbox ORDER BY added_ms, rowid LIMIT ?',
      )
      .all(limit) as OutboxRow[];
  }

  remove(gameIds: readonly string[]): number {
    const statement = this.db.prepare(`DELETE FROM ${this.kind} WHERE game_id = ?`);
    let removed = 0;
    this.db.transaction(() => {
      for (const id of gameIds) removed += statement.run(id).changes;
    })();
    return removed;
  }

  expire(cutoffMs: number): number {
    return this.db.prepare(`DELETE FROM ${this.kind} WHERE ended_ms < ?`).run(cutoffMs).changes;
  }

  count(): number {
    return this.db.prepare(`SELECT count(*) FROM ${this.kind}`).pluck().get() as number;
  }

  appliedVersions(): number[] {
    return this.db.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all() as number[];
  }

  /** Null while the path still names the file this connection has open. */
  lost(): FileLoss | null {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(this.file);
    } catch {
      return 'vanished';
    }
    return stat.dev === this.identity.dev && stat.ino === this.identity.ino ? null : 'replaced';
  }

  /**
   * Copies every row this connection can still read (an unlinked file stays readable while it is
   * open) into `into`, keeping rows `into` already has. Returns how many were added.
   */
  salvageInto(into: SqliteFile): number {
    const columns = COLUMNS[this.kind];
    const placeholders = columns.split(',').map(() => '?');
    const insert = into.db.prepare(`INSERT OR IGNORE INTO ${this.kind} (${columns}) VALUES (${placeholders.join(', ')})`);
    const read = this.db.prepare(`SELECT rowid, ${columns} FROM ${this.kind} WHERE rowid > ? ORDER BY rowid LIMIT ?`).raw();
    let after = 0;
    let added = 0;
    for (;;) {
      const rows = read.all(after, SALVAGE_BATCH) as unknown[][];
      if (rows.length === 0) return added;
      into.db.transaction(() => {
        for (const [rowid, ...values] of rows) {
          added += insert.run(...values).changes;
          after = rowid as number;
        }
      })();
    }
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

function migrate(db: Database.Database, steps: readonly Migration[]): void {
  // IMMEDIATE takes the write lock first, so two processes starting at once apply each step once.
  db.transaction(() => {
    db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_ms INTEGER NOT NULL)');
    const applied = db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[];
    const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_ms) VALUES (?, ?, ?)');
    for (const step of pendingMigrations(applied, steps)) {
      db.exec(step.sqlite);
      record.run(step.version, step.name, Date.now());
    }
  }).immediate();
}
