/** Most addresses remembered per counter; past it the stalest half is forgotten (an address spray cannot grow memory). */
const MAX_KEYS = 50_000;

/**
 * Events per key in a sliding period (a minute by default), as two fixed half-period buckets (the
 * previous one weighted by how much of it is still inside the period). No timers: counting
 * happens on use.
 */
export class MinuteWindow {
  private readonly counts = new Map<string, { bucket: number; current: number; previous: number }>();
  private readonly half: number;

  constructor(
    private readonly limit: number,
    private readonly now: () => number = Date.now,
    periodMs = 60_000,
  ) {
    this.half = periodMs / 2;
  }

  /** Counts one event for `key`; false (and not counted) when the key is over its limit. 0 = no limit. */
  take(key: string): boolean {
    if (this.limit <= 0) return true;
    const half = this.half;
    const t = this.now();
    const bucket = Math.floor(t / half);
    let entry = this.counts.get(key);
    if (!entry) {
      if (this.counts.size >= MAX_KEYS) this.forgetOldest();
      entry = { bucket, current: 0, previous: 0 };
      this.counts.set(key, entry);
    } else if (entry.bucket !== bucket) {
      entry.previous = entry.bucket === bucket - 1 ? entry.current : 0;
      entry.current = 0;
      entry.bucket = bucket;
    }
    const weight = 1 - (t % half) / half;
    if (entry.current + entry.previous * weight + 1 > this.limit) return false;
    entry.current++;
    return true;
  }

  /** Would `take` succeed now? Counts nothing. */
  peek(key: string): boolean {
    if (this.limit <= 0) return true;
    const entry = this.counts.get(key);
    if (!entry) return true;
    const half = this.half;
    const t = this.now();
    const bucket = Math.floor(t / half);
    const current = entry.bucket === bucket ? entry.current : 0;
    const previous = entry.bucket === bucket ? entry.previous : entry.bucket === bucket - 1 ? entry.current : 0;
    return current + previous * (1 - (t % half) / half) + 1 <= this.limit;
  }

  /** Takes back one event counted in the current half (an action that turned out to be another kind). */
  giveBack(key: string): void {
    const entry = this.counts.get(key);
    if (entry && entry.bucket === Math.floor(this.now() / this.half) && entry.current > 0) entry.current--;
  }

  get size(): number {
    return this.counts.size;
  }

  private forgetOldest(): void {
    let n = 0;
    for (const key of this.counts.keys()) {
      if (n++ >= MAX_KEYS / 2) break;
      this.counts.delete(key);
    }
  }
}

/** The same over an hour (guest tokens, wrong room codes). */
export class HourWindow extends MinuteWindow {
  constructor(limit: number, now: () => number = Date.now) {
    super(limit, now, 3_600_000);
  }
}
