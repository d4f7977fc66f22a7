/**
 * Counters for the game records, on the project's registry (served at /metrics with the rest).
 * Importing this module registers them.
 */
import { Counter, Gauge } from 'prom-client';
import { registry } from '../ops/metrics';

export const recordsSaved = new Counter({
  name: 'cockroach_records_saved_total',
  help: 'Game records written to the store',
  registers: [registry],
});

export const recordWriteFailures = new Counter({
  name: 'cockroach_record_write_failures_total',
  help: 'Failed attempts to write a game record (each is retried until the attempts run out)',
  registers: [registry],
});

export const recordsDropped = new Counter({
  name: 'cockroach_records_dropped_total',
  help: 'Game records given up: "retries" (every attempt failed), "queue_full", "closed" (shutdown before written)',
  labelNames: ['reason'],
  registers: [registry],
});

export const recordQueue = new Gauge({
  name: 'cockroach_record_queue',
  help: 'Game records waiting to be written',
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

for (const reason of ['retries', 'queue_full', 'closed']) recordsDropped.inc({ reason }, 0);
