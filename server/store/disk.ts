import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { FinishedGameRecord } from '../fairness/record';
import { log } from '../base/log';
import type { DiskReply, DiskRequest, DiskWorkerData, FileEvent } from './diskWorker';
import type { FileKind } from './sqliteFile';
import { recordDiskTimeouts } from './metrics';
import type { QuarantineEntry } from './quarantine';
import { GameStore, LocalRecords, OutboxRow, RecordRow, rowOf } from './types';

/** A write waits this long for another process's lock before the attempt fails (and is retried). */
export const BUSY_TIMEOUT_MS = 500;
/**
 * A request the worker has not answered in this long fails (code TIMEOUT): a stuck fsync or a
 * hung worker holds no caller forever. Far above a normal answer (milliseconds; a migration at
 * start may wait 5 s for another process's lock; a lost file's salvage copies every row).
 */
export const REQUEST_TIMEOUT_MS = 15_000;
/** Opening starts the thread and migrates (waiting up to 5 s for another process doing it too). */
const OPEN_TIMEOUT_MS = 30_000;
/** `close` gives the worker this long to close the file and end. */
const CLOSE_TIMEOUT_MS = 2_000;

export interface DiskOptions {
  requestTimeoutMs?: number;
  openTimeoutMs?: number;
  /** Starts the worker thread (tests: a worker that stalls). */
  startWorker?: (data: DiskWorkerData) => Worker;
}

/** Omit<> of a union, member by member. */
type RequestBody = DiskRequest extends infer R ? (R extends DiskRequest ? Omit<R, 'id'> : never) : never;

export class DiskError extends Error {
  constructor(
    message: string,
    readonly code: string | null,
  ) {
    super(message);
    this.name = 'DiskError';
  }
}

/**
 * The main thread's side of a local SQLite file: every call is a message to the disk worker
 * (diskWorker.ts), so no database call, however slow or locked, runs on the game loop. The
 * worker is started by `open` and again after it dies; `onEvents` hears of a lost file.
 */
export class DiskStore implements GameStore, LocalRecords {
  readonly engine = 'sqlite';
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private closed = false;

  private constructor(
    readonly file: string,
    readonly kind: FileKind,
    private readonly onEvents: (events: FileEvent[]) => void,
    private readonly opts: DiskOptions,
  ) {}

  /** Opens (creates, migrates) the file in a new worker; rejects when it cannot, as a bad setting at start does. */
  static async open(
    file: string,
    kind: FileKind,
    onEvents: (events: FileEvent[]) => void = () => undefined,
    opts: DiskOptions = {},
  ): Promise<DiskStore> {
    const store = new DiskStore(path.resolve(file), kind, onEvents, opts);
    try {
      await store.call({ op: 'open' }, opts.openTimeoutMs ?? OPEN_TIMEOUT_MS);
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }

  /** Makes records durable (one transaction); resolves to how many were new. */
  put(rows: readonly RecordRow[], addedMs = Date.now()): Promise<number> {
    return this.call({ op: 'put', rows: [...rows], addedMs }) as Promise<number>;
  }

  async save(record: FinishedGameRecord): Promise<void> {
    await this.put([rowOf(record)]);
  }

  async get(gameId: string): Promise<FinishedGameRecord | null> {
    const json = (await this.call({ op: 'get', gameId })) as string | null;
    return json === null ? null : JSON.parse(json);
  }

  /** The outbox's oldest rows. */
  list(limit: number): Promise<OutboxRow[]> {
    return this.call({ op: 'list', limit }) as Promise<OutboxRow[]>;
  }

  remove(gameIds: readonly string[]): Promise<number> {
    return this.call({ op: 'remove', gameIds: [...gameIds] }) as Promise<number>;
  }

  /** Sets rows aside in the quarantine folder beside the file (quarantine.ts). */
  async quarantine(entries: readonly QuarantineEntry[]): Promise<void> {
    await this.call({ op: 'quarantine', entries: [...entries] });
  }

  deleteOlderThan(ageMs: number, now = Date.now()): Promise<number> {
    return this.call({ op: 'expire', cutoffMs: now - ageMs }) as Promise<number>;
  }

  count(): Promise<number> {
    return this.call({ op: 'count' }) as Promise<number>;
  }

  /** Notices (and recovers) a vanished or replaced file; rejects while it is lost and cannot be made again. */
  async check(): Promise<void> {
    await this.call({ op: 'check' });
  }

  appliedVersions(): Promise<number[]> {
    return this.call({ op: 'versions' }) as Promise<number[]>;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const worker = this.worker;
    if (!worker) return;
    await this.send(worker, { op: 'close' }, CLOSE_TIMEOUT_MS).catch(() => undefined);
    // A thread stuck in a system call ends only when the call returns: the process does not wait for it.
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_TIMEOUT_MS).unref()));
    await Promise.race([
      worker.terminate().then(
        () => undefined,
        () => undefined,
      ),
      late,
    ]).finally(() => clearTimeout(timer));
  }

  private call(body: RequestBody, timeoutMs?: number): Promise<unknown> {
    if (this.closed) return Promise.reject(new DiskError('the record file is closed', 'CLOSED'));
    return this.send(this.worker ?? this.start(), body, timeoutMs);
  }

  /**
   * One request; fails with TIMEOUT when the worker has not answered within the bound. The
   * worker is kept: the request it is stuck on may still finish (every write is idempotent), and
   * a new thread on the same file would meet the same disk.
   */
  private send(worker: Worker, body: RequestBody, timeoutMs = this.opts.requestTimeoutMs ?? REQUEST_TIMEOUT_MS): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        if (!this.waiting.delete(id)) return;
        recordDiskTimeouts.inc({ op: body.op });
        log.warn('records.disk_timeout', { op: body.op, timeoutMs, file: this.file });
        reject(new DiskError(`the disk worker did not answer "${body.op}" within ${timeoutMs} ms (${this.file})`, 'TIMEOUT'));
      }, timeoutMs).unref();
      const done = (settle: () => void) => {
        clearTimeout(timer);
        settle();
      };
      this.waiting.set(id, {
        resolve: (value) => done(() => resolve(value)),
        reject: (error) => done(() => reject(error)),
      });
      worker.postMessage({ ...body, id });
    });
  }

  private start(): Worker {
    const data: DiskWorkerData = { file: this.file, kind: this.kind, busyTimeoutMs: BUSY_TIMEOUT_MS };
    const worker = (this.opts.startWorker ?? startDiskWorker)(data);
    // The worker never keeps a finished process alive; close() ends it when the server stops.
    worker.unref();
    worker.on('message', (reply: DiskReply) => this.answer(reply));
    worker.on('error', (error) => log.error('records.worker_failed', { file: this.file }, error));
    worker.on('exit', (code) => {
      if (this.worker === worker) this.worker = null;
      // Whatever was asked of a worker that died is failed, so the writer retries it in a new one.
      const pending = [...this.waiting.values()];
      this.waiting.clear();
      for (const p of pending) p.reject(new DiskError(`the disk worker stopped (exit ${code})`, 'WORKER_EXIT'));
    });
    this.worker = worker;
    return worker;
  }

  private answer(reply: DiskReply): void {
    if (reply.events.length > 0) {
      try {
        this.onEvents(reply.events);
      } catch (error) {
        log.error('records.event_failed', {}, error);
      }
    }
    const waiter = this.waiting.get(reply.id);
    if (!waiter) return;
    this.waiting.delete(reply.id);
    if (reply.ok) waiter.resolve(reply.value);
    else waiter.reject(new DiskError(reply.message, reply.code));
  }
}

/** The disk worker's thread. */
export function startDiskWorker(data: DiskWorkerData): Worker {
  const entry = path.join(__dirname, `diskWorker${path.extname(__filename)}`);
  // Under tsx (tests, `npm start` before a build) the worker must load TypeScript too.
  return entry.endsWith('.ts')
    ? new Worker(`require('tsx/cjs'); require(${JSON.stringify(entry)});`, { eval: true, workerData: data })
    : new Worker(entry, { workerData: data });
}
