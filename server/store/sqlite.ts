import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { FinishedGameRecord } from '../fairness/record';
import { pendingMigrations } from './migrations';
import { GameStore, rowOf } from './types';

/**
 * The embedded store: one SQLite file (better-sqlite3, synchronous; a save is one prepared
 * INSERT, tens of microseconds). WAL lets `npm run replay` read while the server writes.
 */
export class SqliteStore implements GameStore {
  readonly engine = 'sqlite';
  private readonly db: Database.Database;
  private readonly insert: Database.Statement;
  private readonly select: Database.Statement;
  private readonly expire: Database.Statement;

  constructor(readonly file: string) {
    if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    this.db = new Database(file);
    try {
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = NORMAL');
      this.db.pragma('busy_timeout = 5000'); // at start only: another process may be migrating
      migrate(this.db);
      // Short from here on: a save runs on the game loop; a locked file fails fast and the writer retries.
      this.db.pragma('busy_timeout = 200');
      this.insert = this.db.prepare(
        'INSERT OR IGNORE INTO games (game_id, started_ms, ended_ms, record) VALUES (@gameId, @startedMs, @endedMs, @json)',
      );
      this.select = this.db.prepare('SELECT record FROM games WHERE game_id = ?').pluck();
      this.expire = this.db.prepare('DELETE FROM games WHERE ended_ms < ?');
    } catch (error) {
      this.db.close();
      throw error;
    }
  }

  async save(record: FinishedGameRecord): Promise<void> {
    this.insert.run(rowOf(record));
  }

  async get(gameId: string): Promise<FinishedGameRecord | null> {
    const json = this.select.get(gameId) as string | undefined;
    return json === undefined ? null : JSON.parse(json);
  }

  async deleteOlderThan(ageMs: number, now = Date.now()): Promise<number> {
    return this.expire.run(now - ageMs).changes;
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  /** Tests and support: the schema versions applied. */
  appliedVersions(): number[] {
    return this.db.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all() as number[];
  }
}

function migrate(db: Database.Database): void {
  // IMMEDIATE takes the write lock first, so two processes starting at once apply each step once.
  db.transaction(() => {
    db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_ms INTEGER NOT NULL)');
    const applied = db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[];
    const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_ms) VALUES (?, ?, ?)');
    for (const step of pendingMigrations(applied)) {
      db.exec(step.sqlite);
      record.run(step.version, step.name, Date.now());
    }
  }).immediate();
}
