/**
 * Versioned schema steps, applied in order, each once, recorded in `schema_migrations`. Never
 * edit a step that has shipped: add the next number. Each step has one text per engine.
 */
export interface Migration {
  version: number;
  name: string;
  sqlite: string;
  postgres: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'games',
    // The whole record is one JSON column: one INSERT per game. ended_ms drives retention.
    sqlite: `
      CREATE TABLE games (
        game_id    TEXT PRIMARY KEY,
        room_id    TEXT NOT NULL,
        started_ms INTEGER NOT NULL,
        ended_ms   INTEGER NOT NULL,
        record     TEXT NOT NULL
      );
      CREATE INDEX games_ended_ms ON games (ended_ms);`,
    postgres: `
      CREATE TABLE games (
        game_id    TEXT PRIMARY KEY,
        room_id    TEXT NOT NULL,
        started_ms BIGINT NOT NULL,
        ended_ms   BIGINT NOT NULL,
        record     JSON NOT NULL
      );
      CREATE INDEX games_ended_ms ON games (ended_ms);`,
  },
  {
    version: 2,
    name: 'records without a room',
    // PROTOCOL v3: a record admits nobody, so new rows have no room. The column stays (NULL from
    // now on) so a server of the previous version still running during a deploy can write; old
    // rows keep theirs. SQLite cannot drop NOT NULL in place: the table is copied.
    sqlite: `
      CREATE TABLE games_v2 (
        game_id    TEXT PRIMARY KEY,
        room_id    TEXT,
        started_ms INTEGER NOT NULL,
        ended_ms   INTEGER NOT NULL,
        record     TEXT NOT NULL
      );
      INSERT INTO games_v2 (game_id, room_id, started_ms, ended_ms, record) SELECT game_id, room_id, started_ms, ended_ms, record FROM games;
      DROP TABLE games;
      ALTER TABLE games_v2 RENAME TO games;
      CREATE INDEX games_ended_ms ON games (ended_ms);`,
    postgres: `ALTER TABLE games ALTER COLUMN room_id DROP NOT NULL;`,
  },
];

/**
 * The outbox (a local SQLite file beside PostgreSQL: records wait there until PostgreSQL has
 * them). SQLite only; `postgres` is unused.
 */
export const OUTBOX_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'outbox',
    sqlite: `
      CREATE TABLE outbox (
        game_id    TEXT PRIMARY KEY,
        started_ms INTEGER NOT NULL,
        ended_ms   INTEGER NOT NULL,
        added_ms   INTEGER NOT NULL,
        record     TEXT NOT NULL
      );`,
    postgres: '',
  },
];

export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;

/** The steps after `applied`, or an error when the database is newer than this code. */
export function pendingMigrations(applied: readonly number[], steps: readonly Migration[] = MIGRATIONS): Migration[] {
  const newest = Math.max(0, ...applied);
  const latest = steps[steps.length - 1].version;
  if (newest > latest) {
    throw new Error(`the game database is at schema version ${newest}, newer than this server knows (${latest}); upgrade the server`);
  }
  const done = new Set(applied);
  return steps.filter((m) => !done.has(m.version));
}
