import { randomInt } from 'node:crypto';
import type { FinishedGameRecord } from '../fairness/record';
import { log } from '../base/log';
import type { FileEvent } from './diskWorker';
import { setRecordsHealth, RecordsHealth } from './health';
import {
  recordFileLost,
  recordOutbox,
  recordOutboxOldest,
  recordQueue,
  recordsDelivered,
  recordsDropped,
  recordsNotDurable,
  recordsQuarantined,
  recordsSaved,
  recordsStoreOk,
  recordWriteFailures,
  setRecordQueueAge,
} from './metrics';
import type { FileLoss } from './sqliteFile';
import { isRowError, QuarantineEntry, quarantineDir, rowOrProblem } from './quarantine';
import { LocalRecords, RecordRow, DeliveryTarget, RecordSource, rowOf, OutboxRow } from './types';

export interface WriterOptions {
  /** First retry delay; doubles each attempt up to `retryMaxMs`, with jitter so processes spread out. Retries never stop. */
  retryMinMs?: number;
  retryMaxMs?: number;
  /** How long `write` waits for the disk before it resolves `queued` (the failure logged and counted). */
  durableWaitMs?: number;
  /** Records held in memory while the disk fails; beyond this, new records are dropped (and counted). */
  maxMemory?: number;
  /** How often the local file is checked for having vanished or been replaced. */
  fileCheckMs?: number;
}

export interface CloseOptions {
  /** How long records still in memory get to reach the disk. */
  diskMs?: number;
  /** With PostgreSQL: how long delivery is tried before the process goes (the rest waits in the outbox). */
  deliveryMs?: number;
}

export const DEFAULT_WRITER: Required<WriterOptions> = {
  retryMinMs: 250,
  retryMaxMs: 30_000,
  durableWaitMs: 2_000,
  maxMemory: 10_000,
  fileCheckMs: 5_000,
};
/** A local disk that fails is tried at least this often, whatever `retryMaxMs` says. */
const DISK_RETRY_CAP_MS = 5_000;
/** While closing, retries come this fast: the deadline is what bounds them. */
const CLOSING_RETRY_MS = 100;
const DISK_BATCH = 200;
const DELIVERY_BATCH = 100;
/** After the deadlines, what is in flight gets this long to finish before the files close. */
const SETTLE_MS = 2_000;
const CLOSE_DISK_MS = 5_000;
const CLOSE_DELIVERY_MS = 10_000;

/** The longest `close(opts)` takes: its two deadlines and the settling steps after them (memory to PostgreSQL, the loops, PostgreSQL's pool). */
export function closeBoundMs(opts: CloseOptions = {}): number {
  return (opts.diskMs ?? CLOSE_DISK_MS) + (opts.deliveryMs ?? CLOSE_DELIVERY_MS) + 3 * SETTLE_MS;
}
const RECOVERY_LOG_EVERY_MS = 60_000;

/**
 * What `write` knows of a record when it resolves:
 * - `stored`: on this process's disk (the store, or the outbox in front of PostgreSQL), or in
 *   PostgreSQL itself: a restart, `kill -9` or power cut no longer loses it.
 * - `queued`: the disk did not take it within `durableWaitMs`. It is kept in memory, served by
 *   `get`, retried until the disk takes it (`durable()` resolves then) and, at close, offered to
 *   PostgreSQL; it is lost only if the process ends first.
 * - `dropped`: not kept (memory was full of records a failing disk would not take, or the
 *   writer was closed); logged and counted.
 * - `quarantined`: no store takes it (it cannot be serialized, or the file refused it alone): set
 *   aside in the quarantine folder, logged and counted, never served (quarantine.ts).
 */
export type WriteOutcome = 'stored' | 'queued' | 'dropped' | 'quarantined';

interface Pending {
  record: FinishedGameRecord;
  row: RecordRow | null;
  waiters: ((outcome: WriteOutcome) => void)[];
  timer: NodeJS.Timeout | null;
  /** Its write has already resolved `queued` (the wait ran out). */
  late: boolean;
  /** Date.now() when it was written: the queue's age on /metrics. */
  since: number;
}

/** A sleep that `wake()` cuts short; `idle()` sleeps until woken. */
class Sleeper {
  private wakeUp: (() => void) | null = null;
  private idleOnly = false;
  sleep(ms: number, idle = false): Promise<void> {
    return new Promise((resolve) => {
      const timer = idle ? null : setTimeout(() => done(), ms).unref();
      const done = () => {
        if (timer) clearTimeout(timer);
        this.wakeUp = null;
        resolve();
      };
      this.wakeUp = done;
      this.idleOnly = idle;
    });
  }
  idle(): Promise<void> {
    return this.sleep(0, true);
  }
  /** Ends any sleep (closing) or, with `idleOnly`, only a wait for work. */
  wake(idleOnly = false): void {
    if (!this.wakeUp || (idleOnly && !this.idleOnly)) return;
    this.wakeUp();
  }
}

function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), Math.max(0, ms)).unref()));
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/**
 * Where a finished game goes. `write` puts the record in memory and resolves `stored` once it is
 * durable on this process's disk (the SQLite store itself, or the outbox in front of PostgreSQL),
 * or `queued` when the disk has not taken it within `durableWaitMs` (it stays in memory and is
 * written when the disk takes it), so the room knows which it is telling its players. All disk work
 * runs on the disk worker's thread (disk.ts): a slow or locked file holds up no game. With
 * PostgreSQL, a delivery loop sends the outbox's records oldest first and deletes them from the
 * outbox once PostgreSQL has them, retrying with capped backoff for as long as it takes, and
 * again after a restart (the outbox is on disk). `get` finds a record wherever it is.
 */
export class RecordWriter implements RecordSource {
  private readonly opts: Required<WriterOptions>;
  private readonly memory = new Map<string, Pending>();
  private lateCount = 0;
  private outbox = 0;
  private oldestOutboxMs: number | null = null;
  private fileLost: FileLoss | null = null;
  private lastRecoveryLog = 0;
  private diskLoop: Promise<void> | null = null;
  private deliveryLoop: Promise<void> | null = null;
  private readonly diskSleep = new Sleeper();
  private readonly deliverySleep = new Sleeper();
  private diskAttempt = 0;
  private deliveryAttempt = 0;
  private deliveryFailingSince = 0;
  private waiters: { until: () => boolean; resolve: () => void }[] = [];
  private checkTimer: NodeJS.Timeout | null = null;
  private checking = false;
  private closing = false;
  private stopped = false;
  private closed: Promise<void> | null = null;
  private readonly health = (): RecordsHealth => this.healthNow();
  // `memory` keeps insertion order: its first record is the oldest still waiting.
  private readonly queueAge = (): number => {
    const oldest = this.memory.values().next().value;
    return oldest ? Date.now() - oldest.since : 0;
  };

  constructor(
    readonly disk: LocalRecords,
    readonly remote: DeliveryTarget | null = null,
    opts: WriterOptions = {},
  ) {
    this.opts = { ...DEFAULT_WRITER, ...opts };
  }

  /** Starts delivering what the outbox holds (records of an earlier run included) and watching the file. */
  start(): this {
    setRecordsHealth(this.health);
    setRecordQueueAge(this.queueAge);
    if (this.remote) this.deliveryLoop = this.runDelivery();
    this.checkTimer = setInterval(() => this.checkFile(), this.opts.fileCheckMs).unref();
    this.updateHealth();
    return this;
  }

  /** Records in memory, not yet durable. */
  get pending(): number {
    return this.memory.size;
  }

  /** Records durable in the outbox, waiting for PostgreSQL. */
  get undelivered(): number {
    return this.outbox;
  }

  /**
   * Resolves `stored` once the record is durable on disk; never rejects. When the disk keeps
   * failing it resolves `queued` after `durableWaitMs` (logged `record.not_durable`, counted,
   * /ready fails) and the record stays in memory, retried until the disk takes it. `dropped`
   * when it is not kept at all (see WriteOutcome).
   */
  write(record: FinishedGameRecord): Promise<WriteOutcome> {
    try {
      if (this.stopped) {
        this.drop(record.gameId, 'closed');
        return Promise.resolve('dropped');
      }
      const known = this.memory.get(record.gameId);
      if (known) return known.late ? Promise.resolve('queued') : new Promise((resolve) => known.waiters.push(resolve));
      if (this.memory.size >= this.opts.maxMemory) {
        this.drop(record.gameId, 'memory_full');
        return Promise.resolve('dropped');
      }
      const pending: Pending = { record, row: null, waiters: [], timer: null, late: false, since: Date.now() };
      const durable = new Promise<WriteOutcome>((resolve) => pending.waiters.push(resolve));
      pending.timer = setTimeout(() => this.late(pending), this.opts.durableWaitMs).unref();
      this.memory.set(record.gameId, pending);
      recordQueue.set(this.memory.size);
      // Not in the caller's stack: the game's handler returns before any work starts.
      this.diskLoop ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.runDisk());
      return durable;
    } catch (error) {
      log.error('record.write_crashed', { gameId: record?.gameId }, error);
      return Promise.resolve(this.memory.has(record?.gameId) ? 'queued' : 'dropped');
    }
  }

  async get(gameId: string): Promise<FinishedGameRecord | null> {
    const pending = this.memory.get(gameId);
    if (pending) return pending.record;
    if (!this.remote) return this.disk.get(gameId);
    // With PostgreSQL a failing local file only hides what has not been delivered yet.
    const waiting = await this.disk.get(gameId).catch(() => null);
    return waiting ?? this.remote.get(gameId);
  }

  /** Resolves once nothing is in memory and (with PostgreSQL) the outbox is empty. */
  settled(): Promise<void> {
    return this.waitUntil(() => this.isSettled());
  }

  /** Resolves once nothing is waiting in memory for the disk. */
  durable(): Promise<void> {
    return this.waitUntil(() => this.memory.size === 0);
  }

  /**
   * Stops the file checks, gives records in memory `diskMs` to reach the disk and (with
   * PostgreSQL) the outbox `deliveryMs` to reach it, retrying fast; what memory still holds then
   * is offered to PostgreSQL directly, and what is left is logged and counted as dropped. The
   * outbox keeps what was not delivered for the next start. Closes the files. Once only.
   */
  close(opts: CloseOptions = {}): Promise<void> {
    this.closed ??= this.shutDown(opts.diskMs ?? CLOSE_DISK_MS, opts.deliveryMs ?? CLOSE_DELIVERY_MS);
    return this.closed;
  }

  private async shutDown(diskMs: number, deliveryMs: number): Promise<void> {
    this.closing = true;
    if (this.checkTimer) clearInterval(this.checkTimer);
    this.diskSleep.wake();
    this.deliverySleep.wake();
    await within(this.durable(), diskMs);
    if (this.remote) {
      await within(this.settled(), deliveryMs);
      if (this.memory.size > 0) await within(this.deliverFromMemory(), SETTLE_MS);
    }
    this.stopped = true;
    this.diskSleep.wake();
    this.deliverySleep.wake();
    await within(Promise.all([this.diskLoop, this.deliveryLoop]), SETTLE_MS);
    for (const pending of [...this.memory.values()]) {
      this.forget(pending, 'dropped');
      this.drop(pending.record.gameId, 'closed');
    }
    const left = { outbox: this.outbox, file: this.disk.file };
    if (this.remote && this.outbox > 0) log.warn('records.outbox_left', { ...left, msg: 'delivered at the next start from this DATA_DIR' });
    else log.info('records.closed', left);
    setRecordsHealth(null, this.health);
    setRecordQueueAge(null, this.queueAge);
    await this.disk.close();
    if (this.remote) await within(this.remote.close(), SETTLE_MS).catch(() => undefined);
  }

  /** The local file said it vanished, was replaced, recovered. */
  fileEvents(events: readonly FileEvent[]): void {
    for (const event of events) {
      if (event.type === 'lost') {
        this.fileLost = event.why;
        recordFileLost.inc({ why: event.why });
        log.error('records.file_lost', { why: event.why, file: this.disk.file });
      } else if (event.type === 'recovered') {
        this.fileLost = null;
        log.warn('records.file_recovered', {
          why: event.why,
          file: this.disk.file,
          salvaged: event.salvaged,
          salvageError: event.salvageError,
        });
        this.diskSleep.wake(); // records waiting in memory go now
        this.deliverySleep.wake(true); // and rows the recovery copied into the outbox
      } else if (Date.now() - this.lastRecoveryLog >= RECOVERY_LOG_EVERY_MS) {
        this.lastRecoveryLog = Date.now();
        log.error('records.file_recovery_failed', { why: event.why, file: this.disk.file, msg: event.message });
      }
    }
    this.updateHealth();
  }

  private checkFile(): void {
    if (this.checking || this.closing) return;
    this.checking = true;
    // A rejection is a lost file that cannot be made again: fileEvents has said so.
    this.disk
      .check()
      .catch(() => undefined)
      .finally(() => (this.checking = false));
  }

  private async runDisk(): Promise<void> {
    while (this.memory.size > 0 && !this.stopped) {
      const batch = [...this.memory.values()].slice(0, DISK_BATCH);
      try {
        // A record no store can take is set aside first: it would fail the batch at every retry.
        const bad: [Pending, QuarantineEntry][] = [];
        for (const pending of batch) {
          if (pending.row) continue;
          const made = rowOrProblem(pending.record);
          if ('row' in made) pending.row = made.row;
          else bad.push([pending, { ...made.problem, where: 'disk' }]);
        }
        if (bad.length > 0) await this.setAside(bad.map(([, entry]) => entry));
        for (const [pending] of bad) this.forget(pending, 'quarantined');
        const good = batch.filter((p) => p.row !== null && this.memory.get(p.record.gameId) === p);
        let added: number;
        try {
          added = await this.disk.put(good.map((p) => p.row!));
        } catch (error) {
          // One row the file refuses: each row alone, and the one that still fails goes aside.
          if (!isRowError(error) || good.length === 0) throw error;
          added = await this.putOneByOne(good);
        }
        for (const pending of good) this.forget(pending, 'stored');
        recordsSaved.inc(good.length);
        if (this.diskAttempt > 0) log.info('records.disk_resumed', { attempts: this.diskAttempt, file: this.disk.file });
        this.diskAttempt = 0;
        if (this.remote) {
          this.outbox += added;
          this.oldestOutboxMs ??= Date.now();
          this.deliverySleep.wake(true);
        }
      } catch (error) {
        this.diskAttempt++;
        recordWriteFailures.inc({ where: 'disk' });
        const delay = this.retryDelay(this.diskAttempt, Math.min(this.opts.retryMaxMs, DISK_RETRY_CAP_MS));
        log.warn(
          'record.write_failed',
          { where: 'disk', attempt: this.diskAttempt, retryInMs: delay, queued: this.memory.size, code: errorCode(error) },
          error,
        );
        this.updateHealth();
        await this.diskSleep.sleep(delay);
      }
      this.updateHealth();
    }
    this.diskLoop = null;
  }

  /** Puts each row alone; a row refused alone is set aside (and left out of `pendings`). Other failures throw. */
  private async putOneByOne(pendings: Pending[]): Promise<number> {
    let added = 0;
    for (const pending of [...pendings]) {
      try {
        added += await this.disk.put([pending.row!]);
      } catch (error) {
        if (!isRowError(error)) throw error;
        await this.setAside([
          {
            gameId: pending.record.gameId,
            where: 'disk',
            code: errorCode(error) ?? 'REFUSED',
            message: String((error as Error)?.message),
            row: pending.row,
            dump: null,
          },
        ]);
        this.forget(pending, 'quarantined');
        pendings.splice(pendings.indexOf(pending), 1);
      }
    }
    return added;
  }

  /** Delivers each row alone; a row PostgreSQL refuses alone moves from the outbox to quarantine. Other failures throw. */
  private async deliverOneByOne(rows: readonly OutboxRow[]): Promise<number> {
    let delivered = 0;
    for (const row of rows) {
      try {
        await this.remote!.saveRows([row]);
        delivered++;
      } catch (error) {
        if (!isRowError(error)) throw error;
        const { addedMs: _, ...plain } = row;
        await this.setAside([
          {
            gameId: row.gameId,
            where: 'postgres',
            code: errorCode(error)!,
            message: String((error as Error)?.message),
            row: plain,
            dump: null,
          },
        ]);
      }
    }
    return delivered;
  }

  /** Durable in the quarantine folder, then counted and logged; throws (retried) when the disk cannot. */
  private async setAside(entries: QuarantineEntry[]): Promise<void> {
    await this.disk.quarantine(entries);
    for (const entry of entries) {
      recordsQuarantined.inc({ where: entry.where });
      log.error('record.quarantined', {
        gameId: entry.gameId,
        where: entry.where,
        code: entry.code,
        msg: entry.message,
        folder: quarantineDir(this.disk.file),
      });
    }
  }

  private async runDelivery(): Promise<void> {
    let counted = false;
    while (!this.stopped) {
      let where: 'disk' | 'postgres' = 'disk';
      try {
        if (!counted) {
          this.outbox = await this.disk.count();
          counted = true;
          if (this.outbox > 0) log.info('records.outbox_found', { outbox: this.outbox, file: this.disk.file });
        }
        const rows = await this.disk.list(DELIVERY_BATCH);
        if (rows.length === 0) {
          this.outbox = 0;
          this.oldestOutboxMs = null;
          this.updateHealth();
          if (this.stopped) return; // closing found nothing left to deliver
          await this.deliverySleep.idle();
          continue;
        }
        this.oldestOutboxMs = rows[0].addedMs;
        where = 'postgres';
        let delivered = rows.length;
        try {
          await this.remote!.saveRows(rows);
        } catch (error) {
          // One row PostgreSQL refuses (a value out of range, a character it cannot store): each
          // row alone, the refused one set aside, so it no longer blocks the outbox.
          if (!isRowError(error)) throw error;
          delivered = await this.deliverOneByOne(rows);
        }
        where = 'disk';
        const removed = await this.disk.remove(rows.map((r) => r.gameId));
        this.outbox = Math.max(0, this.outbox - removed);
        recordsDelivered.inc(delivered);
        if (this.deliveryAttempt > 0) {
          log.info('records.delivery_resumed', {
            attempts: this.deliveryAttempt,
            outageSeconds: Math.round((Date.now() - this.deliveryFailingSince) / 1000),
            outbox: this.outbox,
          });
        }
        this.deliveryAttempt = 0;
      } catch (error) {
        if (this.stopped) return;
        if (this.deliveryAttempt === 0) this.deliveryFailingSince = Date.now();
        this.deliveryAttempt++;
        recordWriteFailures.inc({ where });
        const delay = this.retryDelay(this.deliveryAttempt, this.opts.retryMaxMs);
        log.warn(
          'record.delivery_failed',
          { where, attempt: this.deliveryAttempt, retryInMs: delay, outbox: this.outbox, code: errorCode(error) },
          error,
        );
        this.updateHealth();
        await this.deliverySleep.sleep(delay);
      }
      this.updateHealth();
    }
  }

  /** Closing with a disk that never took them: PostgreSQL is durable too. */
  private async deliverFromMemory(): Promise<void> {
    const batch = [...this.memory.values()];
    try {
      await this.remote!.saveRows(batch.map((p) => (p.row ??= rowOf(p.record))));
    } catch (error) {
      log.warn('record.delivery_failed', { where: 'postgres', attempt: 1, outbox: this.outbox, code: errorCode(error) }, error);
      return;
    }
    for (const pending of batch) this.forget(pending, 'stored');
    recordsDelivered.inc(batch.length);
    this.updateHealth();
  }

  private waitUntil(until: () => boolean): Promise<void> {
    if (until()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ until, resolve }));
  }

  /** Out of memory: durable, delivered (`stored`), or `dropped`. Its writer hears at once. */
  private forget(pending: Pending, outcome: WriteOutcome): void {
    if (this.memory.get(pending.record.gameId) !== pending) return;
    this.memory.delete(pending.record.gameId);
    if (pending.timer) clearTimeout(pending.timer);
    if (pending.late) this.lateCount--;
    for (const resolve of pending.waiters.splice(0)) resolve(outcome);
    recordQueue.set(this.memory.size);
  }

  private late(pending: Pending): void {
    pending.timer = null;
    if (this.memory.get(pending.record.gameId) !== pending) return;
    pending.late = true;
    this.lateCount++;
    recordsNotDurable.inc();
    log.error('record.not_durable', { gameId: pending.record.gameId, waitedMs: this.opts.durableWaitMs, queued: this.memory.size });
    for (const resolve of pending.waiters.splice(0)) resolve('queued');
    this.updateHealth();
  }

  private drop(gameId: string, reason: 'closed' | 'memory_full'): void {
    recordsDropped.inc({ reason });
    log.error('record.dropped', { gameId, reason, queued: this.memory.size });
  }

  private isSettled(): boolean {
    return this.memory.size === 0 && (this.remote === null || this.outbox === 0);
  }

  private healthNow(): RecordsHealth {
    if (this.fileLost !== null) return { ok: false, problem: 'file_lost' };
    if (this.lateCount > 0) return { ok: false, problem: 'not_durable' };
    return { ok: true, problem: null };
  }

  private updateHealth(): void {
    recordsStoreOk.set(this.healthNow().ok ? 1 : 0);
    recordOutbox.set(this.outbox);
    recordOutboxOldest.set(this.oldestOutboxMs === null ? 0 : Math.max(0, (Date.now() - this.oldestOutboxMs) / 1000));
    const ready = this.waiters.filter((w) => w.until());
    if (ready.length === 0) return;
    this.waiters = this.waiters.filter((w) => !ready.includes(w));
    for (const w of ready) w.resolve();
  }

  private retryDelay(attempt: number, cap: number): number {
    if (this.closing) return CLOSING_RETRY_MS;
    const ceiling = Math.min(cap, this.opts.retryMinMs * 2 ** Math.min(attempt - 1, 30));
    const half = Math.floor(ceiling / 2);
    return half + (half > 0 ? randomInt(half + 1) : 0);
  }
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' ? code : undefined;
}
