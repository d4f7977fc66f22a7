/**
 * Whether this process can keep a finished game: /ready (server/ops/http.ts) asks, and answers
 * 503 while it cannot, so the load balancer sends new games elsewhere. The running RecordWriter
 * says; with no records kept (RECORDS=off) the answer is yes.
 */
export interface RecordsHealth {
  ok: boolean;
  /** `file_lost`: the local database file vanished or was replaced and could not be made again; `not_durable`: a record has waited in memory past its bound (the disk keeps failing). */
  problem: 'file_lost' | 'not_durable' | null;
}

let probe: (() => RecordsHealth) | null = null;

/** `null` with the probe that is going away: a newer writer's probe stays. */
export function setRecordsHealth(next: (() => RecordsHealth) | null, leaving?: () => RecordsHealth): void {
  if (next === null && leaving !== undefined && probe !== leaving) return;
  probe = next;
}

export function recordsHealth(): RecordsHealth {
  return probe ? probe() : { ok: true, problem: null };
}
