import { log } from '../ops/log';
import { describeStore, StoreConfig, storeConfigFromEnv } from './config';
import { openConfiguredStore } from './open';
import { Retention, startRetention } from './retention';
import type { GameStore } from './types';
import { RecordWriter, WriterOptions } from './writer';

/** Everything the server process runs for game records: the store, its writer and the retention sweep. */
export interface Records {
  readonly config: StoreConfig;
  readonly store: GameStore;
  /** `write(record)` at each game's end; also the source for `gamesRouter`. */
  readonly writer: RecordWriter;
  /** Stops the sweep, writes what is queued (up to `timeoutMs`), closes the store. */
  close(timeoutMs?: number): Promise<void>;
}

/**
 * Opens the configured store (migrating it), starts retention (a sweep now, then hourly) and a
 * writer. Throws at start on a bad configuration or an unreachable database, like other settings.
 */
export async function startRecords(
  env: Record<string, string | undefined> = process.env,
  opts: { writer?: WriterOptions; sweepMs?: number } = {},
): Promise<Records> {
  const config = storeConfigFromEnv(env);
  const store = await openConfiguredStore(config);
  const writer = new RecordWriter(store, opts.writer);
  const retention: Retention = startRetention(store, config.retentionDays, { intervalMs: opts.sweepMs });
  log.info('records.ready', { store: describeStore(config), retentionDays: config.retentionDays });
  return {
    config,
    store,
    writer,
    close: async (timeoutMs?: number) => {
      retention.stop();
      await writer.close(timeoutMs);
    },
  };
}
