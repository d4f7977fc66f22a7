import assert from 'node:assert/strict';
import type { FinishedGameRecord } from '../../server/fairness/record';
import { registry } from '../../server/ops/metrics';
import { setLogSink } from '../../server/ops/log';
import { RecordWriter } from '../../server/store/writer';
import type { GameStore } from '../../server/store/types';
import { playGame } from '../fairness/games';

/** A store that fails its first `failures` saves (synchronously or not), then keeps what it is given. */
class FlakyStore implements GameStore {
  readonly engine = 'sqlite';
  readonly saved = new Map<string, FinishedGameRecord>();
  attempts = 0;
  closed = false;
  private wake: (() => void) | null = null;
  constructor(
    public failures: number,
    private readonly throwSync = false,
  ) {}
  save(record: FinishedGameRecord): Promise<void> {
    this.attempts++;
    if (this.failures > 0) {
      this.failures--;
      if (this.throwSync) throw new Error('disk on fire');
      return Promise.reject(new Error('connection refused'));
    }
    this.saved.set(record.gameId, record);
    this.wake?.();
    return Promise.resolve();
  }
  async get(gameId: string) {
    return this.saved.get(gameId) ?? null;
  }
  async deleteOlderThan() {
    return 0;
  }
  async close() {
    this.closed = true;
  }
  /** Resolves when `n` records are stored. */
  until(n: number): Promise<void> {
    return new Promise((resolve) => {
      this.wake = () => this.saved.size >= n && resolve();
      this.wake();
    });
  }
}

async function metric(name: string, labels: Record<string, string> = {}): Promise<number> {
  const m = registry.getSingleMetric(name);
  assert.ok(m, `metric ${name} is registered`);
  const values = (await m.get()).values.filter((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x));
  return values.reduce((sum, v) => sum + v.value, 0);
}

describe('store: RecordWriter (a slow or dead store never holds up a game)', () => {
  const records = Array.from({ length: 4 }, (_, i) => playGame(2, { botSeed: `writer-${i}` }).record);
  let lines: string[];
  beforeEach(() => {
    lines = [];
    setLogSink((line) => lines.push(line));
  });
  afterEach(() => setLogSink(null));
  const events = (name: string) => lines.map((l) => JSON.parse(l)).filter((l) => l.event === name);

  it('returns at once and writes later, even when the store throws synchronously', async () => {
    const store = new FlakyStore(2, true);
    const writer = new RecordWriter(store, { baseDelayMs: 1, maxDelayMs: 2 });
    writer.write(records[0]);
    assert.equal(store.attempts, 0, "no I/O in the caller's stack");
    assert.equal(writer.pending, 1);
    await writer.flush();
    assert.equal(store.attempts, 3);
    assert.ok(store.saved.has(records[0].gameId));
  });

  it('retries with backoff until the store comes back, in order, logging and counting each failure', async () => {
    const failuresBefore = await metric('cockroach_record_write_failures_total');
    const savedBefore = await metric('cockroach_records_saved_total');
    const store = new FlakyStore(3);
    const writer = new RecordWriter(store, { baseDelayMs: 1, maxDelayMs: 4 });
    for (const r of records) writer.write(r);
    await store.until(records.length);
    await writer.flush();
    assert.deepEqual(
      [...store.saved.keys()],
      records.map((r) => r.gameId),
    );
    assert.equal((await metric('cockroach_record_write_failures_total')) - failuresBefore, 3);
    assert.equal((await metric('cockroach_records_saved_total')) - savedBefore, records.length);
    const failed = events('record.write_failed');
    assert.deepEqual(
      failed.map((l) => l.attempt),
      [1, 2, 3],
    );
    assert.equal(failed[0].gameId, records[0].gameId);
    assert.equal(failed[0].errMessage, 'connection refused');
    assert.equal(await metric('cockroach_record_queue'), 0);
  });

  it('serves a record while it is still queued, then from the store', async () => {
    const store = new FlakyStore(1);
    const writer = new RecordWriter(store, { baseDelayMs: 50, maxDelayMs: 50 });
    writer.write(records[1]);
    assert.equal((await writer.get(records[1].gameId))?.gameId, records[1].gameId);
    assert.equal(store.saved.size, 0);
    await writer.flush();
    assert.equal((await writer.get(records[1].gameId))?.gameId, records[1].gameId);
    assert.equal(await writer.get('0'.repeat(64)), null);
  });

  it('gives a record up after its attempts, logs and counts it, and goes on with the next', async () => {
    const dropped = await metric('cockroach_records_dropped_total', { reason: 'retries' });
    const store = new FlakyStore(3);
    const writer = new RecordWriter(store, { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1 });
    writer.write(records[0]);
    writer.write(records[1]);
    await writer.flush();
    assert.deepEqual([...store.saved.keys()], [records[1].gameId]);
    assert.equal((await metric('cockroach_records_dropped_total', { reason: 'retries' })) - dropped, 1);
    assert.deepEqual(
      events('record.dropped').map((l) => [l.gameId, l.reason, l.attempts]),
      [[records[0].gameId, 'retries', 3]],
    );
  });

  it('drops (and counts) records beyond the queue bound instead of growing without limit', async () => {
    const full = await metric('cockroach_records_dropped_total', { reason: 'queue_full' });
    const store = new FlakyStore(0);
    const writer = new RecordWriter(store, { maxQueue: 2 });
    for (const r of records.slice(0, 3)) writer.write(r);
    assert.equal(writer.pending, 2);
    await writer.flush();
    assert.equal(store.saved.size, 2);
    assert.equal((await metric('cockroach_records_dropped_total', { reason: 'queue_full' })) - full, 1);
  });

  it('on close retries at once, gives up what the store still refuses by the deadline, and closes the store', async () => {
    const closedDrops = await metric('cockroach_records_dropped_total', { reason: 'closed' });
    const store = new FlakyStore(1_000_000);
    const writer = new RecordWriter(store, { maxAttempts: 1_000_000, baseDelayMs: 60_000, maxDelayMs: 60_000 });
    writer.write(records[2]);
    await new Promise((resolve) => setImmediate(resolve));
    await writer.close(50);
    assert.ok(store.closed);
    assert.ok(store.attempts > 1, 'the 60 s backoff was cut short');
    assert.equal((await metric('cockroach_records_dropped_total', { reason: 'closed' })) - closedDrops, 1);
    writer.write(records[3]);
    assert.equal(
      (await metric('cockroach_records_dropped_total', { reason: 'closed' })) - closedDrops,
      2,
      'a write after close is counted, not thrown',
    );
  });
});
