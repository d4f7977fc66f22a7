import { performance } from 'node:perf_hooks';

interface Task {
  at: number;
  seq: number;
  run: () => void;
}

/**
 * One timer for thousands of bots: tasks wait in a binary min-heap by due time (performance.now()
 * ms, ties in insertion order) and a single setTimeout is armed for the earliest. Tasks already
 * due run on the next setImmediate, so "at once" adds no timer delay.
 */
export class Scheduler {
  private readonly heap: Task[] = [];
  private seq = 0;
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Infinity;
  private immediate = false;
  private stopped = false;

  constructor(private readonly onError: (error: unknown) => void = (e) => console.error(e)) {}

  get size(): number {
    return this.heap.length;
  }

  /** Runs `run` `delayMs` from now (0: as soon as the current I/O callbacks are done). */
  after(delayMs: number, run: () => void): void {
    if (this.stopped) return;
    this.push({ at: performance.now() + delayMs, seq: this.seq++, run });
    this.arm();
  }

  /** Drops every waiting task; nothing runs after this. */
  stop(): void {
    this.stopped = true;
    this.heap.length = 0;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private arm(): void {
    if (this.stopped || this.heap.length === 0) return;
    const next = this.heap[0].at;
    const now = performance.now();
    if (next <= now) {
      if (!this.immediate) {
        this.immediate = true;
        setImmediate(() => {
          this.immediate = false;
          this.drain();
        });
      }
      return;
    }
    if (this.timer && this.timerAt <= next) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = next;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerAt = Infinity;
      this.drain();
    }, next - now);
  }

  private drain(): void {
    const now = performance.now();
    while (!this.stopped && this.heap.length > 0 && this.heap[0].at <= now) {
      const task = this.pop();
      try {
        task.run();
      } catch (error) {
        this.onError(error);
      }
    }
    this.arm();
  }

  private before(a: Task, b: Task): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }

  private push(task: Task): void {
    const h = this.heap;
    h.push(task);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(h[i], h[parent])) break;
      [h[i], h[parent]] = [h[parent], h[i]];
      i = parent;
    }
  }

  private pop(): Task {
    const h = this.heap;
    const top = h[0];
    const last = h.pop()!;
    if (h.length > 0) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && this.before(h[l], h[m])) m = l;
        if (r < h.length && this.before(h[r], h[m])) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m], h[i]];
        i = m;
      }
    }
    return top;
  }
}
