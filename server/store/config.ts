import path from 'node:path';

/** Where records go and how long they stay (docs/operations.md lists the variables). */
export interface StoreConfig {
  engine: 'sqlite' | 'postgres';
  /** SQLite: the database file. */
  file: string | null;
  /** PostgreSQL: the connection URL (it may carry a password: never log it). */
  url: string | null;
  /** PostgreSQL: the outbox, this process's own file where records wait until PostgreSQL has them. */
  outboxFile: string | null;
  retentionDays: number;
  /** Retries of a failed write or delivery: the first delay, doubling up to the last. They never stop. */
  retryMinMs: number;
  retryMaxMs: number;
  /** On SIGTERM, how long delivery to PostgreSQL is tried before the process exits. */
  exitDeliverySeconds: number;
  /** How often the local file is checked for having been deleted or replaced. */
  fileCheckMs: number;
}

export const DEFAULT_RETENTION_DAYS = 30;
export const DEFAULT_DATA_DIR = './data';
export const DATABASE_FILE_NAME = 'games.sqlite';
export const OUTBOX_FILE_NAME = 'outbox.sqlite';

type Env = Record<string, string | undefined>;

function value(env: Env, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw.trim() === '' ? undefined : raw.trim();
}

/** A whole number in [min, max], or the default; throws naming the variable. */
function whole(env: Env, name: string, fallback: number, min: number, max: number, unit: string): number {
  const raw = value(env, name);
  const n = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new Error(`${name} must be a whole number of ${unit} from ${min} to ${max}, got "${raw}"`);
  return n;
}

/**
 * Throws with a sentence naming the variable when a value is wrong, so a bad deploy stops at
 * start. `multiProcess` (REDIS_URL is set): several processes answer `GET /api/games` behind one
 * address, so records need one place: PostgreSQL. Per-process SQLite files would answer for a
 * game on one process and 404 on the others; that start is refused unless
 * ALLOW_PER_PROCESS_RECORDS=1 (tests, development: docs/operations.md says why).
 */
export function storeConfigFromEnv(env: Env = process.env, opts: { multiProcess?: boolean } = {}): StoreConfig {
  const retentionDays = whole(env, 'RECORD_RETENTION_DAYS', DEFAULT_RETENTION_DAYS, 1, 36_500, 'days');
  const retryMinMs = whole(env, 'RECORD_RETRY_MIN_MS', 250, 1, 60_000, 'milliseconds');
  const retryMaxMs = whole(env, 'RECORD_RETRY_MAX_MS', 30_000, retryMinMs, 3_600_000, 'milliseconds');
  const exitDeliverySeconds = whole(env, 'RECORD_EXIT_DELIVERY_SECONDS', 10, 0, 600, 'seconds');
  const fileCheckMs = whole(env, 'RECORD_FILE_CHECK_MS', 5_000, 100, 3_600_000, 'milliseconds');
  const tuning = { retentionDays, retryMinMs, retryMaxMs, exitDeliverySeconds, fileCheckMs };
  const dataDir = value(env, 'DATA_DIR') ?? DEFAULT_DATA_DIR;
  const url = value(env, 'DATABASE_URL');
  if (url !== undefined) {
    if (!/^postgres(ql)?:\/\/\S+$/.test(url)) throw new Error('DATABASE_URL must be a postgres:// or postgresql:// URL');
    return { engine: 'postgres', file: null, url, outboxFile: path.join(dataDir, OUTBOX_FILE_NAME), ...tuning };
  }
  const allow = value(env, 'ALLOW_PER_PROCESS_RECORDS');
  if (allow !== undefined && allow !== '0' && allow !== '1') throw new Error(`ALLOW_PER_PROCESS_RECORDS must be 0 or 1, got "${allow}"`);
  if (opts.multiProcess && allow !== '1') {
    throw new Error(
      'REDIS_URL runs several processes behind one address, but without DATABASE_URL each would keep its game records in a SQLite file of its own, ' +
        'and GET /api/games/:id would find a game only on the process that ran it: set DATABASE_URL (PostgreSQL, one place for every process), ' +
        'or ALLOW_PER_PROCESS_RECORDS=1 (tests and development only)',
    );
  }
  const file = value(env, 'DATABASE_FILE') ?? path.join(dataDir, DATABASE_FILE_NAME);
  return { engine: 'sqlite', file, url: null, outboxFile: null, ...tuning };
}

/** For logs: the engine and the file, never the URL (it may hold a password). */
export function describeStore(config: StoreConfig): string {
  return config.engine === 'sqlite' ? `sqlite ${config.file}` : `postgres (outbox ${config.outboxFile})`;
}
