import { StoreConfig, storeConfigFromEnv } from './config';
import { DiskStore } from './disk';
import { PostgresStore } from './postgres';
import type { GameStore } from './types';

/**
 * Opens the configured store and brings its schema up to date: PostgreSQL when DATABASE_URL is
 * set, else the SQLite file (DATABASE_FILE, or games.sqlite under DATA_DIR, default ./data), run
 * by its disk worker. For tools (npm run replay) and tests; the server runs startRecords.
 */
export function openStore(env: Record<string, string | undefined> = process.env): Promise<GameStore> {
  return openConfiguredStore(storeConfigFromEnv(env));
}

export async function openConfiguredStore(config: StoreConfig): Promise<GameStore> {
  if (config.engine === 'postgres') return PostgresStore.open(config.url!);
  return DiskStore.open(config.file!, 'games');
}
