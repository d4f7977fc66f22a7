import { randomInt } from 'node:crypto';
import type { FinishedGameRecord } from '../fairness/record';
import { log } from '../ops/log';
import { recordQueue, recordsDropped, recordsSaved, recordWriteFailures } from './metrics';
import type { GameStore, RecordSource } from './types';

export interface WriterOptions {
  /** Attempts per record before it is given up (logged and counted). */
  maxAttempts?: number;
  /** First retry delay; doubles each attempt up to `maxDelayMs`, with jitter so processes spread out. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Records held while the store is down; beyond this, new records are dropped (and counted). */
  maxQueue?: number;
}

const CLOSING_RETRY_MS = 20;
const DEFAULTS: Required<WriterOptions> = { maxAttempts: 10, baseDelayMs: 250, maxDelayMs: 30_000, maxQueue: 10_000 };

/**
 * Writes game records behind the game's back. `write` only queues (it never throws and never
 * waits), so a slow or dead store cannot hold up or break a game; one record is written at a
 * time, retried with backoff, and every failure is logged and counted on /metrics. Records
 * still queued are served by `get`, so a result's gameId can be fetched at once.
 */
export class RecordWriter implements RecordSource {
  private readonly opts: Required<WriterOptions>;
  private readonly queue: FinishedGameRecord[] = [];
  private readonly queued = new Map<string, FinishedGameRecord>();
  private attempt = 0;
  private running = false;
  private closed = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private wakeRetry: (() => void) | null = null;
  private idle: (() => void)[] = [];

  constructor(
    readonly store: GameStore,
    opts: WriterOptions = {},
  ) {
    this.opts = { ...DEFAULTS, ...opts };
  }

  get pending(): number {
    return this.queue.length;
  }

  write(record: FinishedGameRecord): void {
    try {
      if (this.closed) {
        recordsDropped.inc({ reason: 'closed' });
        log.error('record.dropped', { gameId: record.gameId, reason: 'closed' });
        return;
      }
      if (this.queue.length >= this.opts.maxQueue) {
        recordsDropped.inc({ reason: 'queue_full' });
        log.error('record.dropped', { gameId: record.gameId, reason: 'queue_full', queued: this.queue.length });
        return;
      }
      this.queue.push(record);
      this.queued.set(record.gameId, record);
      recordQueue.set(this.queue.length);
      if (!this.running) {
        this.running = true;
        // Not in the caller's stack: the game's handler returns before any I/O starts.
        setImmediate(() => void this.drain());
      }
    } catch (error) {
      log.error('record.write_crashed', { gameId: record?.gameId }, error);
    }
  }

  async get(gameId: string): Promise<FinishedGameRecord | null> {
    return this.queued.get(gameId) ?? this.store.get(gameId);
  }

  /** Resolves once every queued record is written or given up. */
  flush(): Promise<void> {
    if (!this.running && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  /**
   * Stops taking records, retries what is queued at once for up to `timeoutMs`, then closes the
   * store; records still unwritten are logged and counted as dropped ("closed").
   */
  async close(timeoutMs = 5_000): Promise<void> {
    this.closed = true;
    this.wakeRetry?.();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.flush(), new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs).unref()))]);
    clearTimeout(timer);
    for (const record of this.queue.splice(0)) {
      recordsDropped.inc({ reason: 'closed' });
      log.error('record.dropped', { gameId: record.gameId, reason: 'closed' });
      this.queued.delete(record.gameId);
    }
    recordQueue.set(0);
    await this.store.close();
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const record = this.queue[0];
      try {
        await this.store.save(record);
        recordsSaved.inc();
        if (this.queue[0] === record) this.done(record);
      } catch (error) {
        if (this.queue[0] !== record) continue; // close() gave it up meanwhile
        this.attempt++;
        recordWriteFailures.inc();
        if (this.attempt >= this.opts.maxAttempts) {
          recordsDropped.inc({ reason: 'retries' });
          log.error(
            'record.dropped',
            { gameId: record.gameId, reason: 'retries', attempts: this.attempt, engine: this.store.engine },
            error,
          );
          this.done(record);
          continue;
        }
        // Closing cuts the backoff short but still waits on a timer, so close()'s deadline can fire.
        const delayMs = this.closed ? Math.min(this.backoff(this.attempt), CLOSING_RETRY_MS) : this.backoff(this.attempt);
        log.warn(
          'record.write_failed',
          { gameId: record.gameId, attempt: this.attempt, retryInMs: delayMs, engine: this.store.engine },
          error,
        );
        await this.sleep(delayMs);
      }
    }
    this.running = false;
    for (const resolve of this.idle.splice(0)) resolve();
  }

  private done(record: FinishedGameRecord): void {
    this.queue.shift();
    this.queued.delete(record.gameId);
    this.attempt = 0;
    recordQueue.set(this.queue.length);
  }

  private backoff(attempt: number): number {
    const ceiling = Math.min(this.opts.maxDelayMs, this.opts.baseDelayMs * 2 ** (attempt - 1));
    const half = Math.floor(ceiling / 2);
    return half + (half > 0 ? randomInt(half + 1) : 0);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.wakeRetry = () => {
        if (this.retryTimer) clearTimeout(this.retryTimer);
        this.retryTimer = null;
        this.wakeRetry = null;
        resolve();
      };
      // Unref'd: a queued record never keeps a finished process alive; close() flushes first.
      this.retryTimer = setTimeout(this.wakeRetry, ms).unref();
    });
  }
}
