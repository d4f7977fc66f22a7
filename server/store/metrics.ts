/**
 * Counters for the game records, on the project's registry (served at /metrics with the rest).
 * Importing this module registers them. docs/operations.md "Game records" says what to watch.
 */
import { Counter, Gauge } from 'prom-client';
import { registry } from '../base/metrics';

export const recordsSaved = new Counter({
  name: 'cockroach_records_saved_total',
  help: "Game records made durable on this process's disk (the SQLite store itself, or the outbox in front of PostgreSQL)",
  registers: [registry],
});

export const recordsDelivered = new Counter({
  name: 'cockroach_records_delivered_total',
  help: 'Game records delivered from the outbox to PostgreSQL',
  registers: [registry],
});

export const recordWriteFailures = new Counter({
  name: 'cockroach_record_write_failures_total',
  help: 'Failed attempts to write game records, each retried: where="disk" (this process\'s file), "postgres" (delivery)',
  labelNames: ['where'],
  registers: [registry],
});

export const recordsNotDurable = new Counter({
  name: 'cockroach_records_not_durable_total',
  help: 'Game records whose result went out before they were on disk (the disk kept failing past the wait; kept in memory and retried)',
  registers: [registry],
});

export const recordsDropped = new Counter({
  name: 'cockroach_records_dropped_total',
  help: 'Game records lost: "memory_full" (the disk failed so long that memory filled), "closed" (still not on disk when the process stopped)',
  labelNames: ['reason'],
  registers: [registry],
});

export const recordQueue = new Gauge({
  name: 'cockroach_record_queue',
  help: 'Game records in memory, not yet durable on disk',
  registers: [registry],
});

let queueAge: (() => number) | null = null;

/** The running writer's age (ms) of its oldest record not yet durable; `null` with the one going away (a newer writer's stays). */
export function setRecordQueueAge(next: (() => number) | null, leaving?: () => number): void {
  if (next === null && leaving !== undefined && queueAge !== leaving) return;
  queueAge = next;
}

new Gauge({
  name: 'cockroach_record_queue_oldest_seconds',
  help: 'Age of the oldest game record in memory, not yet durable on disk (0 when none): compare with the durability wait',
  registers: [registry],
  collect() {
    this.set((queueAge?.() ?? 0) / 1000);
  },
});

export const recordOutbox = new Gauge({
  name: 'cockroach_record_outbox',
  help: 'Game records durable in the outbox, waiting for PostgreSQL (0 without DATABASE_URL)',
  registers: [registry],
});

export const recordOutboxOldest = new Gauge({
  name: 'cockroach_record_outbox_oldest_seconds',
  help: 'Age of the oldest record waiting in the outbox (0 when it is empty)',
  registers: [registry],
});

export const recordFileLost = new Counter({
  name: 'cockroach_record_file_lost_total',
  help: 'The local database file was found deleted ("vanished") or swapped for another ("replaced") under the running server',
  labelNames: ['why'],
  registers: [registry],
});

export const recordsStoreOk = new Gauge({
  name: 'cockroach_records_store_ok',
  help: '1 while records can be made durable here; 0 while the local file is lost or a record has waited past its bound (/ready answers 503)',
  registers: [registry],
});

export const recordsQuarantined = new Counter({
  name: 'cockroach_records_quarantined_total',
  help: 'Game records set aside in the quarantine folder beside the local file, by who refused them: "disk" (not serializable, bad columns, or this file refused it), "postgres" (PostgreSQL refused it)',
  labelNames: ['where'],
  registers: [registry],
});

export const recordDiskTimeouts = new Counter({
  name: 'cockroach_record_disk_timeouts_total',
  help: 'Requests the disk worker did not answer in time (failed with TIMEOUT; a write is retried), by request',
  labelNames: ['op'],
  registers: [registry],
});

export const recordsExpired = new Counter({
  name: 'cockroach_records_expired_total',
  help: 'Game records deleted by retention (RECORD_RETENTION_DAYS)',
  registers: [registry],
});

export const retentionFailures = new Counter({
  name: 'cockroach_record_retention_failures_total',
  help: 'Retention sweeps that failed (retried at the next sweep)',
  registers: [registry],
});

for (const reason of ['memory_full', 'closed']) recordsDropped.inc({ reason }, 0);
for (const where of ['disk', 'postgres']) recordWriteFailures.inc({ where }, 0);
for (const where of ['disk', 'postgres']) recordsQuarantined.inc({ where }, 0);
for (const why of ['vanished', 'replaced']) recordFileLost.inc({ why }, 0);
recordsStoreOk.set(1);
