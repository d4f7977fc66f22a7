import path from 'node:path';

/** Where records go and how long they stay (docs/operations.md lists the variables). */
export interface StoreConfig {
  engine: 'sqlite' | 'postgres';
  /** SQLite: the database file. */
  file: string | null;
  /** PostgreSQL: the connection URL (it may carry a password: never log it). */
  url: string | null;
  retentionDays: number;
}

export const DEFAULT_RETENTION_DAYS = 30;
export const DEFAULT_DATA_DIR = './data';
export const DATABASE_FILE_NAME = 'games.sqlite';

type Env = Record<string, string | undefined>;

function value(env: Env, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw.trim() === '' ? undefined : raw.trim();
}

/** Throws with a sentence naming the variable when a value is wrong, so a bad deploy stops at start. */
export function storeConfigFromEnv(env: Env = process.env): StoreConfig {
  const days = value(env, 'RECORD_RETENTION_DAYS');
  const retentionDays = days === undefined ? DEFAULT_RETENTION_DAYS : Number(days);
  if (!Number.isInteger(retentionDays) || retentionDays < 1 || retentionDays > 36_500) {
    throw new Error(`RECORD_RETENTION_DAYS must be a whole number of days from 1 to 36500, got "${days}"`);
  }
  const url = value(env, 'DATABASE_URL');
  if (url !== undefined) {
    if (!/^postgres(ql)?:\/\/\S+$/.test(url)) throw new Error('DATABASE_URL must be a postgres:// or postgresql:// URL');
    return { engine: 'postgres', file: null, url, retentionDays };
  }
  const file = value(env, 'DATABASE_FILE') ?? path.join(value(env, 'DATA_DIR') ?? DEFAULT_DATA_DIR, DATABASE_FILE_NAME);
  return { engine: 'sqlite', file, url: null, retentionDays };
}

/** For logs: the engine and the file, never the URL (it may hold a password). */
export function describeStore(config: StoreConfig): string {
  return config.engine === 'sqlite' ? `sqlite ${config.file}` : 'postgres';
}
