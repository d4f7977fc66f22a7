/**
 * Notices a silently lost network. A phone that loses its network often gets no close event
 * for a long time, and the server's own heartbeat is invisible to app code. So: any message or
 * patch from the server counts as a sign of life; after `pingIntervalMs` of silence the session
 * sends `ping` (the server answers `pong`, outside its rate limit); after `deadAfterMs` of
 * silence the connection is taken for dead.
 */
export interface LivenessOptions {
  /** Silence before a `ping` is sent; 0 turns the probe off. */
  pingIntervalMs: number;
  /** Silence after which the connection is taken for dead. */
  deadAfterMs: number;
}

export class Liveness {
  private lastHeard = Date.now();
  private lastPing = 0;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly options: LivenessOptions,
    private readonly sendPing: () => void,
    private readonly onDead: () => void,
  ) {}

  /** When the server was last heard from (epoch ms on this device). */
  get heardAt(): number {
    return this.lastHeard;
  }

  start(): void {
    this.lastHeard = Date.now();
    if (this.options.pingIntervalMs <= 0 || this.timer !== undefined) return;
    this.timer = setInterval(() => this.check(), Math.max(50, Math.min(500, this.options.pingIntervalMs / 2)));
    // In Node, a forgotten session must not keep the process alive.
    (this.timer as { unref?: () => void }).unref?.();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  heard(): void {
    this.lastHeard = Date.now();
  }

  private check(): void {
    const now = Date.now();
    const silent = now - this.lastHeard;
    if (silent >= this.options.deadAfterMs) {
      this.stop();
      this.onDead();
    } else if (silent >= this.options.pingIntervalMs && now - this.lastPing >= this.options.pingIntervalMs) {
      this.lastPing = now;
      this.sendPing();
    }
  }
}
