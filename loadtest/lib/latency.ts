import * as hdr from 'hdr-histogram-js';

/** Millisecond latencies kept in an HDR histogram at microsecond resolution. */
export class LatencyHistogram {
  private readonly histogram = hdr.build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: 120_000_000,
    numberOfSignificantValueDigits: 3,
  });

  record(ms: number): void {
    this.histogram.recordValue(Math.max(1, Math.round(ms * 1000)));
  }

  reset(): void {
    this.histogram.reset();
  }

  get count(): number {
    return this.histogram.totalCount;
  }

  summary(): { p50: number; p95: number; p99: number; max: number } {
    const at = (p: number) => +(this.histogram.getValueAtPercentile(p) / 1000).toFixed(2);
    return { p50: at(50), p95: at(95), p99: at(99), max: +(this.histogram.maxValue / 1000).toFixed(2) };
  }
}

/** Whole-number sizes (bytes) in an HDR histogram, with their exact sum for the mean. */
export class SizeHistogram {
  private readonly histogram = hdr.build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: 100_000_000,
    numberOfSignificantValueDigits: 3,
  });
  private sum = 0;

  record(value: number): void {
    this.histogram.recordValue(Math.max(1, Math.round(value)));
    this.sum += value;
  }

  reset(): void {
    this.histogram.reset();
    this.sum = 0;
  }

  get count(): number {
    return this.histogram.totalCount;
  }

  summary(): { mean: number; p50: number; p99: number; max: number } {
    const n = this.histogram.totalCount;
    return {
      mean: n ? +(this.sum / n).toFixed(1) : 0,
      p50: n ? this.histogram.getValueAtPercentile(50) : 0,
      p99: n ? this.histogram.getValueAtPercentile(99) : 0,
      max: n ? this.histogram.maxValue : 0,
    };
  }
}
