/**
 * The table's timers, kept as absolute due times and run by whoever ticks the table.
 *
 * Colyseus's room clock (`@gamestdio/timer`) credits every timer with the whole interval since
 * the previous tick, including one created a moment ago, so a 15 s turn set just before a tick
 * fired up to a second early. Here a timer fires at the first `run(now)` at or after its due
 * time: never early, and at most one tick late.
 */
export interface TimerHandle {
  clear(): void;
}

/** A timer is its own handle: one object per timer, not an entry, a handle and a closure. */
class Entry implements TimerHandle {
  live = true;

  constructor(
    readonly due: number,
    readonly fn: () => void,
  ) {}

  clear(): void {
    this.live = false;
  }
}

export class Timers {
  /** Kept and compacted in place: a new array per run would outlive the young generation. */
  private readonly entries: Entry[] = [];

  constructor(private readonly now: () => number) {}

  /** Calls `fn` at the first run at or after `now() + ms`. */
  after(ms: number, fn: () => void): TimerHandle {
    return this.at(this.now() + ms, fn);
  }

  at(due: number, fn: () => void): TimerHandle {
    const entry = new Entry(due, fn);
    this.entries.push(entry);
    return entry;
  }

  /** Fires every due timer once, earliest first; a timer set by a callback waits for the next run. */
  run(now = this.now()): void {
    const entries = this.entries;
    if (entries.length === 0) return;
    let due: Entry[] | null = null;
    let kept = 0;
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i];
      if (!entry.live) continue;
      if (entry.due <= now) (due ??= []).push(entry);
      else entries[kept++] = entry;
    }
    entries.length = kept;
    if (due === null) return;
    due.sort((a, b) => a.due - b.due);
    for (const entry of due) {
      if (!entry.live) continue;
      entry.live = false;
      entry.fn();
    }
  }

  /** Live timers (tests and metrics: nothing left behind). */
  get size(): number {
    return this.entries.filter((e) => e.live).length;
  }

  clearAll(): void {
    for (const entry of this.entries) entry.live = false;
    this.entries.length = 0;
  }
}
