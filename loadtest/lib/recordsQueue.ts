/**
 * The records' queue, read from the server's /metrics (server/store/metrics.ts): finished games
 * waiting in memory for the disk, how long the oldest has waited, and how many results went out
 * before their record was durable (the writer's durability wait ran out). Sampled at each progress
 * line and at the end: the largest queue and wait seen are lower bounds of the true peaks; the
 * not-durable count is exact.
 */

export interface RecordsQueueFigures {
  /** Most records seen waiting for the disk at once. */
  waitingMax: number;
  /** Longest wait seen of the oldest waiting record, ms (null: the server has no such gauge). */
  oldestWaitMaxMs: number | null;
  /** Results sent before their record was on disk, over the run. */
  notDurable: number;
  /** Records made durable over the run. */
  saved: number;
  samples: number;
}

/** `name`'s value in Prometheus text (a metric without labels), or null when absent. */
export function metricValue(text: string, name: string): number | null {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? null : Number(line.slice(name.length + 1));
}

export class RecordsQueue {
  private first: { notDurable: number; saved: number } | null = null;
  readonly figures: RecordsQueueFigures = { waitingMax: 0, oldestWaitMaxMs: null, notDurable: 0, saved: 0, samples: 0 };

  constructor(private readonly opsPort: number) {}

  /** One reading of /metrics; a failed one is skipped (the server may be busy or gone). */
  async sample(): Promise<void> {
    let text: string;
    try {
      const res = await fetch(`http://127.0.0.1:${this.opsPort}/metrics`, { signal: AbortSignal.timeout(5000) });
      if (!res.ok) return;
      text = await res.text();
    } catch {
      return;
    }
    this.add(text);
  }

  /** Folds one /metrics text into the figures. */
  add(text: string): void {
    const f = this.figures;
    const notDurable = metricValue(text, 'cockroach_records_not_durable_total') ?? 0;
    const saved = metricValue(text, 'cockroach_records_saved_total') ?? 0;
    this.first ??= { notDurable, saved };
    f.samples++;
    f.waitingMax = Math.max(f.waitingMax, metricValue(text, 'cockroach_record_queue') ?? 0);
    const oldest = metricValue(text, 'cockroach_record_queue_oldest_seconds');
    if (oldest !== null) f.oldestWaitMaxMs = Math.max(f.oldestWaitMaxMs ?? 0, Math.round(oldest * 1000));
    f.notDurable = notDurable - this.first.notDurable;
    f.saved = saved - this.first.saved;
  }
}
