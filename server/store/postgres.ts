import { Pool, PoolClient } from 'pg';
import type { FinishedGameRecord } from '../fairness/record';
import { log } from '../base/log';
import { pendingMigrations } from './migrations';
import { GameStore, RecordRow, DeliveryTarget, rowOf } from './types';

/** Any constant: every process that migrates takes this lock, so each step runs once. */
const MIGRATION_LOCK = 0x636f636b; // "cock"

const GET = { name: 'cockroach-get-game', text: 'SELECT record::text AS record FROM games WHERE game_id = $1' };
const EXPIRE = { name: 'cockroach-expire-games', text: 'DELETE FROM games WHERE ended_ms < $1' };
/** undefined_table: the schema this process migrated is gone (a database restored, recreated, or a failover that lost it). */
const UNDEFINED_TABLE = '42P01';

/**
 * PostgreSQL (DATABASE_URL): many processes behind one load balancer write one history. Records
 * reach it from each process's outbox (writer.ts). A small pool with timeouts, so a slow
 * database makes a delivery fail (and the writer retry), never hang.
 */
export class PostgresStore implements GameStore, DeliveryTarget {
  readonly engine = 'postgres';
  private migrated: Promise<void> | null = null;

  private constructor(private readonly pool: Pool) {}

  /** Opens and migrates; rejects when the database cannot be reached (the CLI, tests). */
  static async open(url: string, opts: { max?: number } = {}): Promise<PostgresStore> {
    const store = PostgresStore.connect(url, opts);
    try {
      await store.migrate();
    } catch (error) {
      await store.close().catch(() => undefined);
      throw error;
    }
    return store;
  }

  /**
   * A pool that connects when first used: the server starts while PostgreSQL is away, and its
   * records wait in the outbox until it is back. The schema is brought up to date before the
   * first write (`migrate`, retried until it succeeds).
   */
  static connect(url: string, opts: { max?: number } = {}): PostgresStore {
    const pool = new Pool({
      connectionString: url,
      max: opts.max ?? 4,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
      statement_timeout: 10_000,
      query_timeout: 15_000,
      application_name: 'cockroach-poker',
    });
    // An idle client's connection dropping is reported here; without a listener it would crash the process.
    pool.on('error', (error) => log.warn('store.connection_lost', { engine: 'postgres' }, error));
    return new PostgresStore(pool);
  }

  /** Brings the schema up to date once; a failure is forgotten so the next call tries again. */
  migrate(): Promise<void> {
    this.migrated ??= migrate(this.pool).catch((error) => {
      this.migrated = null;
      throw error;
    });
    return this.migrated;
  }

  async save(record: FinishedGameRecord): Promise<void> {
    await this.saveRows([rowOf(record)]);
  }

  /** One statement for the whole batch; rows already there are kept (a retry after a lost reply is harmless). */
  async saveRows(rows: readonly RecordRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.migrate();
    const values: unknown[] = [];
    const tuples = rows.map((row, i) => {
      values.push(row.gameId, row.startedMs, row.endedMs, row.json);
      return `($${4 * i + 1}, $${4 * i + 2}, $${4 * i + 3}, $${4 * i + 4})`;
    });
    await this.pool
      .query(
        `INSERT INTO games (game_id, started_ms, ended_ms, record) VALUES ${tuples.join(', ')} ON CONFLICT (game_id) DO NOTHING`,
        values,
      )
      .catch((error) => this.schemaGone(error));
  }

  async get(gameId: string): Promise<FinishedGameRecord | null> {
    const { rows } = await this.pool.query<{ record: string }>({ ...GET, values: [gameId] }).catch((error) => this.schemaGone(error));
    return rows.length === 0 ? null : JSON.parse(rows[0].record);
  }

  async deleteOlderThan(ageMs: number, now = Date.now()): Promise<number> {
    const { rowCount } = await this.pool.query({ ...EXPIRE, values: [now - ageMs] }).catch((error) => this.schemaGone(error));
    return rowCount ?? 0;
  }

  /**
   * Rethrows; when the table is missing, the next call migrates again first. Without this, a
   * database that came back without our schema would refuse every delivery for as long as the
   * process lives, the records piling up in the outbox (the migration ran once, at the first write).
   */
  private schemaGone(error: unknown): never {
    if ((error as { code?: unknown })?.code === UNDEFINED_TABLE && this.migrated) {
      this.migrated = null;
      log.warn('store.schema_missing', { engine: 'postgres', msg: 'migrating again before the next write' });
    }
    throw error;
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  /** Tests and support: the schema versions applied. */
  async appliedVersions(): Promise<number[]> {
    const { rows } = await this.pool.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    return rows.map((r) => r.version);
  }
}

async function migrate(pool: Pool): Promise<void> {
  const client: PoolClient = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_ms BIGINT NOT NULL)',
    );
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
    for (const step of pendingMigrations(rows.map((r) => r.version))) {
      await client.query(step.postgres);
      await client.query('INSERT INTO schema_migrations (version, name, applied_ms) VALUES ($1, $2, $3)', [
        step.version,
        step.name,
        Date.now(),
      ]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
