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

interface Entry {
  due: number;
  fn: () => void;
  live: boolean;
}

export class Timers {
  private entries: Entry[] = [];

  constructor(private readonly now: () => number) {}

  /** Calls `fn` at the first run at or after `now() + ms`. */
  after(ms: number, fn: () => void): TimerHandle {
    return this.at(this.now() + ms, fn);
  }

  at(due: number, fn: () => void): TimerHandle {
    const entry: Entry = { due, fn, live: true };
    this.entries.push(entry);
    return { clear: () => (entry.live = false) };
  }

  /** Fires every due timer once, earliest first; a timer set by a callback waits for the next run. */
  run(now = this.now()): void {
    if (this.entries.length === 0) return;
    const due = this.entries.filter((e) => e.live && e.due <= now).sort((a, b) => a.due - b.due);
    if (due.length === 0 && this.entries.every((e) => e.live)) return;
    this.entries = this.entries.filter((e) => e.live && e.due > now);
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
    this.entries = [];
  }
}
