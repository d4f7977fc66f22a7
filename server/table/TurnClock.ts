import type { TimerHandle, Timers } from './timers';

/**
 * The timer of whoever must act. The expiry names its step, so a timer can never act on a later
 * turn. The deadline itself is kept in the table's state (`deadline`), nowhere else.
 */
export class TurnClock {
  private timer: TimerHandle | null = null;
  /** The step the running timer is for; -1 when none runs. */
  step = -1;

  constructor(
    private readonly timers: Timers,
    private readonly onExpire: (step: number) => void,
  ) {}

  /** Runs the timer for the turn at `step` until `dueAt` (epoch ms). */
  restart(dueAt: number, step: number): void {
    this.stop();
    this.step = step;
    const timer = this.timers.at(dueAt, () => {
      if (this.timer === timer) {
        this.timer = null;
        this.step = -1;
      }
      this.onExpire(step);
    });
    this.timer = timer;
  }

  stop(): void {
    this.timer?.clear();
    this.timer = null;
    this.step = -1;
  }
}
