/**
 * Token buckets keyed by client: a burst of `capacity` is fine, then one token per
 * `refillMs`. Time comes from the caller so tests can drive it.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly capacity: number,
    private readonly refillMs: number,
    private readonly now: () => number,
  ) {}

  take(key: string): boolean {
    const bucket = this.refill(key);
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    return allowed;
  }

  /** Tokens this key has now, without taking one. */
  available(key: string): number {
    return this.buckets.has(key) ? this.refill(key).tokens : this.capacity;
  }

  private refill(key: string): { tokens: number; at: number } {
    const now = this.now();
    let bucket = this.buckets.get(key);
    if (!bucket) this.buckets.set(key, (bucket = { tokens: this.capacity, at: now }));
    bucket.tokens = Math.min(this.capacity, bucket.tokens + (now - bucket.at) / this.refillMs);
    bucket.at = now;
    return bucket;
  }

  forget(key: string): void {
    this.buckets.delete(key);
  }
}
