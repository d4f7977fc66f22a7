import { log } from '../base/log';
import { describeStore, StoreConfig, storeConfigFromEnv } from './config';
import { DiskStore } from './disk';
import type { FileEvent } from './diskWorker';
import { PostgresStore } from './postgres';
import { Retention, startRetention } from './retention';
import type { GameStore } from './types';
import { closeBoundMs, CloseOptions, RecordWriter, WriterOptions } from './writer';

/** At start, PostgreSQL gets this long to answer before the server starts without it (records wait in the outbox). */
const POSTGRES_START_MS = 5_000;

/** Everything the server process runs for game records: the local file, the writer, delivery, retention. */
export interface Records {
  readonly config: StoreConfig;
  /** The store of record: the SQLite file (through its disk worker), or PostgreSQL. */
  readonly store: GameStore;
  /** `write(record)` at each game's end; also the source for `gamesRouter` (memory, outbox, store). */
  readonly writer: RecordWriter;
  /**
   * Stops the sweep; records in memory get to the disk, and with PostgreSQL the outbox is
   * delivered for up to RECORD_EXIT_DELIVERY_SECONDS; closes the files. Once; later calls wait for the first.
   */
  close(opts?: CloseOptions): Promise<void>;
  /** The longest `close()` takes at these settings (the drain's exit backstop waits past it). */
  readonly closeMs: number;
}

/**
 * Opens this process's file (migrating it) in the disk worker, starts the writer (and with
 * DATABASE_URL delivery from the outbox to PostgreSQL, including whatever an earlier run left
 * there) and retention (a sweep now, then hourly). Throws at start on a bad setting (per-process
 * SQLite with `multiProcess` among them) or a file that cannot be opened; PostgreSQL being away
 * does not stop the start.
 */
export async function startRecords(
  env: Record<string, string | undefined> = process.env,
  opts: { writer?: WriterOptions; sweepMs?: number; multiProcess?: boolean } = {},
): Promise<Records> {
  const config = storeConfigFromEnv(env, { multiProcess: opts.multiProcess });
  let writer: RecordWriter | null = null;
  const onEvents = (events: FileEvent[]) => writer?.fileEvents(events);
  let store: GameStore;
  let disk: DiskStore;
  let remote: PostgresStore | null = null;
  if (config.engine === 'sqlite') {
    disk = await DiskStore.open(config.file!, 'games', onEvents);
    store = disk;
  } else {
    disk = await DiskStore.open(config.outboxFile!, 'outbox', onEvents);
    remote = PostgresStore.connect(config.url!);
    store = remote;
    try {
      await reachPostgres(remote);
    } catch (error) {
      await disk.close();
      await remote.close().catch(() => undefined);
      throw error;
    }
  }
  writer = new RecordWriter(disk, remote, {
    retryMinMs: config.retryMinMs,
    retryMaxMs: config.retryMaxMs,
    fileCheckMs: config.fileCheckMs,
    ...opts.writer,
  }).start();
  const retention: Retention = startRetention(store, config.retentionDays, { intervalMs: opts.sweepMs });
  log.info('records.ready', { store: describeStore(config), retentionDays: config.retentionDays });
  const running = writer;
  return {
    config,
    store,
    writer: running,
    close: (closeOpts?: CloseOptions) => {
      retention.stop();
      return running.close({ deliveryMs: config.exitDeliverySeconds * 1000, ...closeOpts });
    },
    closeMs: closeBoundMs({ deliveryMs: config.exitDeliverySeconds * 1000 }),
  };
}

/**
 * Migrates PostgreSQL now when it answers. A schema newer than this server stops the start (a
 * deploy of old code over new data); an unreachable database does not: delivery keeps trying.
 */
async function reachPostgres(remote: PostgresStore): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const slow = new Promise<'slow'>((resolve) => (timer = setTimeout(() => resolve('slow'), POSTGRES_START_MS).unref()));
  const migrated = remote.migrate().then(
    () => null,
    (error: Error) => error,
  );
  const outcome = await Promise.race([migrated, slow]).finally(() => clearTimeout(timer));
  if (outcome === null) return;
  if (outcome instanceof Error && /newer than this server knows/.test(outcome.message)) throw outcome;
  log.warn(
    'records.postgres_unavailable',
    { msg: 'starting anyway: records wait in the outbox until PostgreSQL answers' },
    outcome === 'slow' ? undefined : outcome,
  );
}
