import type { Room } from 'colyseus';

type ClockTimer = Room['clock'];
type Delayed = ReturnType<ClockTimer['setTimeout']>;

/**
 * The active player's deadline, on the room's own clock: it dies with the room, and tests can
 * drive it by replacing `clock.now` and ticking.
 */
export class TurnClock {
  private timer: Delayed | null = null;

  constructor(private readonly clock: ClockTimer, private readonly onExpire: (step: number) => void) {}

  /**
   * Starts a fresh deadline `ms` from now for the turn at `step`; returns it in epoch ms.
   * The expiry names its step, so a timer can never act on a later turn.
   */
  restart(ms: number, step: number): number {
    this.stop();
    const timer = this.clock.setTimeout(() => {
      // Cleared before acting: acting broadcasts a patch, which ticks this same clock again,
      // and a still-active timer would fire a second time inside its own callback.
      timer.clear();
      if (this.timer === timer) this.timer = null;
      this.onExpire(step);
    }, ms);
    this.timer = timer;
    return this.now() + ms;
  }

  /** The clock's own time source (epoch ms; tests swap it for a fake one). */
  now(): number {
    return (this.clock as unknown as { now(): number }).now();
  }

  stop(): void {
    this.timer?.clear();
    this.timer = null;
  }
}
