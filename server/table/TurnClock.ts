import type { TimerHandle, Timers } from './timers';

/**
 * The deadline of whoever must act. The expiry names its step, so a timer can never act on a
 * later turn.
 */
export class TurnClock {
  private timer: TimerHandle | null = null;
  private dueAt = 0;
  /** The step the running deadline is for; -1 when none runs. */
  step = -1;

  constructor(
    private readonly timers: Timers,
    private readonly now: () => number,
    private readonly onExpire: (step: number) => void,
  ) {}

  /** Starts a fresh deadline `ms` from now for the turn at `step`; returns it in epoch ms. */
  restart(ms: number, step: number): number {
    this.stop();
    this.dueAt = this.now() + ms;
    this.step = step;
    const timer = this.timers.at(this.dueAt, () => {
      if (this.timer === timer) {
        this.timer = null;
        this.step = -1;
      }
      this.onExpire(step);
    });
    this.timer = timer;
    return this.dueAt;
  }

  /** Epoch ms of the running deadline, 0 when nobody is on the clock. */
  get deadline(): number {
    return this.timer ? this.dueAt : 0;
  }

  stop(): void {
    this.timer?.clear();
    this.timer = null;
    this.step = -1;
  }
}
