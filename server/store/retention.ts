import { log } from '../base/log';
import { recordsExpired, retentionFailures } from './metrics';
import type { GameStore } from './types';

export const DAY_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_SWEEP_MS = 60 * 60 * 1000;

export interface Retention {
  /** One sweep now; resolves to the records deleted (0 when it failed: it is logged and counted). */
  sweep(): Promise<number>;
  stop(): void;
}

/**
 * Deletes records older than `days` at start and then every `intervalMs`. The timer belongs to
 * the server process (not a room), is unref'd so it never keeps the process alive, and `stop`
 * clears it. Sweeps never overlap.
 */
export function startRetention(store: GameStore, days: number, opts: { intervalMs?: number; now?: () => number } = {}): Retention {
  const now = opts.now ?? Date.now;
  let running: Promise<number> | null = null;
  const sweep = (): Promise<number> => {
    running ??= store
      .deleteOlderThan(days * DAY_MS, now())
      .then(
        (deleted) => {
          if (deleted > 0) {
            recordsExpired.inc(deleted);
            log.info('records.expired', { deleted, retentionDays: days, engine: store.engine });
          }
          return deleted;
        },
        (error) => {
          retentionFailures.inc();
          log.warn('records.retention_failed', { retentionDays: days, engine: store.engine }, error);
          return 0;
        },
      )
      .finally(() => (running = null));
    return running;
  };
  void sweep();
  const timer = setInterval(() => void sweep(), opts.intervalMs ?? DEFAULT_SWEEP_MS).unref();
  return { sweep, stop: () => clearInterval(timer) };
}
