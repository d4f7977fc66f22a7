/**
 * Redis's health and the cluster's healing, in /metrics (docs/operations.md "Metrics"). Only a
 * process with REDIS_URL reports them: `cockroach_redis_up` is absent in the one-process mode.
 */
import { Counter, Gauge } from 'prom-client';
import { registry } from '../base/metrics';

interface Observed {
  redisUp(): boolean;
  processes(): { alive: number; dead: number };
}

let observed: Observed | null = null;
let metrics: { resyncs: Counter; resyncFailures: Counter; buried: Counter } | null = null;

function register(): { resyncs: Counter; resyncFailures: Counter; buried: Counter } {
  new Gauge({
    name: 'cockroach_redis_up',
    help: '1 while every Redis connection of this process is up and its last liveness beat went through, else 0',
    registers: [registry],
    collect() {
      this.set(observed?.redisUp() ? 1 : 0);
    },
  });
  new Gauge({
    name: 'cockroach_cluster_processes',
    help: 'Processes in Redis as this process saw them at its last beat, by state (alive: beating; dead: not yet buried)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const counts = observed?.processes() ?? { alive: 0, dead: 0 };
      this.set({ state: 'alive' }, counts.alive);
      this.set({ state: 'dead' }, counts.dead);
    },
  });
  const resyncs = new Counter({
    name: 'cockroach_redis_resyncs_total',
    help: 'Times this process put its listings, codes and flags back into Redis, by why (reconnected, wiped, expired, excluded)',
    labelNames: ['why'],
    registers: [registry],
  });
  for (const why of ['reconnected', 'wiped', 'expired', 'excluded']) resyncs.inc({ why }, 0);
  const resyncFailures = new Counter({
    name: 'cockroach_redis_resync_failures_total',
    help: 'Resyncs that failed and are tried again at the next beat, by reason (timeout: not done within 3 s; error: Redis refused)',
    labelNames: ['reason'],
    registers: [registry],
  });
  for (const reason of ['timeout', 'error']) resyncFailures.inc({ reason }, 0);
  const buried = new Counter({
    name: 'cockroach_processes_buried_total',
    help: 'Dead processes this process buried (listings removed, codes quarantined)',
    registers: [registry],
  });
  return { resyncs, resyncFailures, buried };
}

export const clusterMetrics = {
  /** The cluster of this process (registers the metrics the first time). */
  observe(cluster: Observed): void {
    observed = cluster;
    metrics ??= register();
  },
  resynced(why: string): void {
    metrics?.resyncs.inc({ why });
  },
  resyncFailed(reason: 'timeout' | 'error'): void {
    metrics?.resyncFailures.inc({ reason });
  },
  buried(): void {
    metrics?.buried.inc();
  },
};
