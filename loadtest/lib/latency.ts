import * as hdr from 'hdr-histogram-js';

/** Millisecond latencies kept in an HDR histogram at microsecond resolution. */
export class LatencyHistogram {
  private readonly histogram = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 120_000_000, numberOfSignificantValueDigits: 3 });

  record(ms: number): void {
    this.histogram.recordValue(Math.max(1, Math.round(ms * 1000)));
  }

  get count(): number {
    return this.histogram.totalCount;
  }

  summary(): { p50: number; p95: number; p99: number; max: number } {
    const at = (p: number) => +(this.histogram.getValueAtPercentile(p) / 1000).toFixed(2);
    return { p50: at(50), p95: at(95), p99: at(99), max: +(this.histogram.maxValue / 1000).toFixed(2) };
  }
}
