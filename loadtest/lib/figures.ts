/**
 * What a load run counts. Errors, leaks, stalls and join-state sizes cover the whole run; the rest
 * covers the measuring window only (`resetWindow` when it opens).
 */
import { LatencyHistogram, SizeHistogram } from './latency';

export class Figures {
  /** Set once the window has closed: rooms still opening fail as the server stops. */
  stopping = false;

  // Whole run.
  errors = 0;
  readonly errorKinds: Record<string, number> = {};
  leaks = 0;
  readonly leakSamples: string[] = [];
  stalls = 0;
  readonly joinState = new SizeHistogram();

  // Measuring window.
  games = 0;
  actions = 0;
  readonly latency = new LatencyHistogram();
  /** The same as `latency`, since the previous progress line only. */
  readonly recentLatency = new LatencyHistogram();
  readonly fanout = new LatencyHistogram();
  readonly actionPatchBytes = new SizeHistogram();
  otherPatchBytes = 0;

  countError(kind: string, detail?: unknown): void {
    if (this.stopping) return;
    this.errors++;
    this.errorKinds[kind] = (this.errorKinds[kind] ?? 0) + 1;
    if (this.errorKinds[kind] <= 3 && detail !== undefined)
      console.error(`loadtest: ${kind}:`, detail instanceof Error ? detail.message : detail);
  }

  countLeaks(who: string, violations: readonly string[]): void {
    this.leaks += violations.length;
    for (const v of violations) if (this.leakSamples.length < 5) this.leakSamples.push(`${who}: ${v}`);
  }

  resetWindow(): void {
    this.games = 0;
    this.actions = 0;
    this.latency.reset();
    this.fanout.reset();
    this.actionPatchBytes.reset();
    this.otherPatchBytes = 0;
  }
}
