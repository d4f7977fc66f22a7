import assert from 'node:assert/strict';
import type { FinishedGameRecord } from '../../server/fairness/record';
import { registry } from '../../server/base/metrics';
import { setLogLevel, setLogSink } from '../../server/base/log';
import { recordsHealth } from '../../server/store/health';
import { closeBoundMs, RecordWriter } from '../../server/store/writer';
import type { QuarantineEntry } from '../../server/store/quarantine';
import type { LocalRecords, OutboxRow, RecordRow, DeliveryTarget } from '../../server/store/types';
import { playGame } from '../fairness/games';

/** Fails its next `failures` calls of the named kind (synchronously or not), else works. */
class Faults {
  constructor(
    public failures = 0,
    private readonly throwSync = false,
  ) {}
  attempts = 0;
  check(what: string): Promise<void> | void {
    this.attempts++;
    if (this.failures <= 0) return;
    this.failures--;
    const error = Object.assign(new Error(`${what} refused`), { code: 'SQLITE_BUSY' });
    if (this.throwSync) throw error;
    return Promise.reject(error);
  }
}

/** This process's file, in memory: rows in the order they became durable. */
class FakeLocal implements LocalRecords {
  readonly file = '/tmp/fake.sqlite';
  readonly rows = new Map<string, OutboxRow>();
  closed = false;
  constructor(readonly faults = new Faults()) {}
  async put(rows: readonly RecordRow[]): Promise<number> {
    await this.faults.check('put');
    let added = 0;
    for (const row of rows) {
      if (this.rows.has(row.gameId)) continue;
      this.rows.set(row.gameId, { ...row, addedMs: Date.now() });
      added++;
    }
    return added;
  }
  async get(gameId: string): Promise<FinishedGameRecord | null> {
    const row = this.rows.get(gameId);
    return row ? JSON.parse(row.json) : null;
  }
  async list(limit: number): Promise<OutboxRow[]> {
    return [...this.rows.values()].slice(0, limit);
  }
  async remove(gameIds: readonly string[]): Promise<number> {
    let removed = 0;
    for (const id of gameIds) if (this.rows.delete(id)) removed++;
    return removed;
  }
  async count(): Promise<number> {
    return this.rows.size;
  }
  readonly quarantined: QuarantineEntry[] = [];
  async quarantine(entries: readonly QuarantineEntry[]): Promise<void> {
    await this.faults.check('quarantine');
    this.quarantined.push(...entries);
  }
  async check(): Promise<void> {}
  async close(): Promise<void> {
    this.closed = true;
  }
}

/** PostgreSQL, in memory. */
class FakeSink implements DeliveryTarget {
  readonly saved = new Map<string, string>();
  closed = false;
  private waiters: (() => void)[] = [];
  constructor(readonly faults = new Faults()) {}
  async saveRows(rows: readonly RecordRow[]): Promise<void> {
    await this.faults.check('postgres');
    for (const row of rows) if (!this.saved.has(row.gameId)) this.saved.set(row.gameId, row.json);
    for (const wake of this.waiters.splice(0)) wake();
  }
  async get(gameId: string): Promise<FinishedGameRecord | null> {
    const json = this.saved.get(gameId);
    return json ? JSON.parse(json) : null;
  }
  async close(): Promise<void> {
    this.closed = true;
  }
  async until(n: number): Promise<void> {
    while (this.saved.size < n) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }
}

async function metric(name: string, labels: Record<string, string> = {}): Promise<number> {
  const m = registry.getSingleMetric(name);
  assert.ok(m, `metric ${name} is registered`);
  const values = (await m.get()).values.filter((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x));
  return values.reduce((sum, v) => sum + v.value, 0);
}

const FAST = { retryMinMs: 1, retryMaxMs: 4, fileCheckMs: 60_000 };

describe('store: RecordWriter (durable on disk first, then delivered; a slow store holds up no game)', () => {
  const records = Array.from({ length: 5 }, (_, i) => playGame(2, { botSeed: `writer-${i}` }).record);
  let lines: string[];
  const writers: RecordWriter[] = [];
  const writer = (local: LocalRecords, sink: DeliveryTarget | null, opts = {}) => {
    const w = new RecordWriter(local, sink, { ...FAST, ...opts }).start();
    writers.push(w);
    return w;
  };
  beforeEach(() => {
    lines = [];
    setLogSink((line) => lines.push(line));
    setLogLevel('info'); // info lines are read here; a test server earlier in the process may have set warn
  });
  afterEach(async () => {
    await Promise.all(writers.splice(0).map((w) => w.close({ diskMs: 10, deliveryMs: 10 })));
    setLogSink(null);
    setLogLevel('warn');
  });
  const events = (name: string) => lines.map((l) => JSON.parse(l)).filter((l) => l.event === name);

  it("resolves write() once the record is on disk, after retries far past the old budget of 10; no I/O in the caller's stack", async () => {
    const failures = await metric('cockroach_record_write_failures_total', { where: 'disk' });
    const saved = await metric('cockroach_records_saved_total');
    const local = new FakeLocal(new Faults(25, true));
    const w = writer(local, null);
    let durable = false;
    const written = w.write(records[0]).then((outcome) => ((durable = true), outcome));
    assert.equal(local.faults.attempts, 0, "nothing in the caller's stack");
    assert.equal(w.pending, 1);
    assert.equal(await written, 'stored');
    assert.ok(durable && local.rows.has(records[0].gameId), 'durable when it resolves');
    assert.equal(local.faults.attempts, 26);
    assert.equal((await metric('cockroach_record_write_failures_total', { where: 'disk' })) - failures, 25);
    assert.equal((await metric('cockroach_records_saved_total')) - saved, 1);
    const failed = events('record.write_failed');
    assert.deepEqual(
      failed.slice(0, 3).map((l) => [l.where, l.attempt, l.code]),
      [
        ['disk', 1, 'SQLITE_BUSY'],
        ['disk', 2, 'SQLITE_BUSY'],
        ['disk', 3, 'SQLITE_BUSY'],
      ],
    );
    assert.equal(events('records.disk_resumed').length, 1);
  });

  it('on a disk that keeps failing, resolves "queued" after the bounded wait (logged, counted, not ready), keeps the record and lands it later', async () => {
    const late = await metric('cockroach_records_not_durable_total');
    const local = new FakeLocal(new Faults(1_000_000));
    const w = writer(local, null, { durableWaitMs: 30 });
    const t0 = Date.now();
    assert.equal(await w.write(records[1]), 'queued');
    assert.equal(await w.write(records[1]), 'queued', 'the same record written again says the same');
    assert.ok(Date.now() - t0 >= 25, 'it waited for the disk');
    assert.equal(local.rows.size, 0);
    assert.equal((await metric('cockroach_records_not_durable_total')) - late, 1);
    assert.deepEqual(
      events('record.not_durable').map((l) => l.gameId),
      [records[1].gameId],
    );
    assert.deepEqual(recordsHealth(), { ok: false, problem: 'not_durable' });
    assert.equal(await metric('cockroach_records_store_ok'), 0);
    assert.equal((await w.get(records[1].gameId))?.gameId, records[1].gameId, 'served from memory meanwhile');

    local.faults.failures = 0;
    await w.durable();
    assert.ok(local.rows.has(records[1].gameId));
    assert.deepEqual(recordsHealth(), { ok: true, problem: null });
    assert.equal(await metric('cockroach_records_store_ok'), 1);
  });

  it('on a disk slower than the wait: "queued" (not "stored") while the write is in flight; on disk once it ends', async () => {
    let release!: () => void;
    const slow = new Promise<void>((resolve) => (release = resolve));
    const local = new FakeLocal();
    const put = local.put.bind(local);
    local.put = async (rows) => {
      await slow;
      return put(rows);
    };
    const w = writer(local, null, { durableWaitMs: 30 });
    assert.equal(await w.write(records[2]), 'queued');
    assert.equal(local.rows.size, 0, 'it was not on disk when the promise said so');
    assert.deepEqual(recordsHealth(), { ok: false, problem: 'not_durable' });
    release();
    await w.durable();
    assert.ok(local.rows.has(records[2].gameId), 'it lands later');
    assert.deepEqual(recordsHealth(), { ok: true, problem: null });
    assert.equal(await w.write(records[3]), 'stored', 'a disk back to speed: stored within the wait');
  });

  it('delivers the outbox to PostgreSQL oldest first through an outage of any length, then empties the outbox', async () => {
    const delivered = await metric('cockroach_records_delivered_total');
    const pgFailures = await metric('cockroach_record_write_failures_total', { where: 'postgres' });
    const local = new FakeLocal();
    const sink = new FakeSink(new Faults(40));
    const w = writer(local, sink);
    for (const r of records) await w.write(r);
    assert.equal(await metric('cockroach_record_outbox'), records.length, 'durable in the outbox');
    for (const r of records) assert.equal((await w.get(r.gameId))?.gameId, r.gameId, 'found in the outbox');
    await sink.until(records.length);
    await w.settled();
    assert.deepEqual(
      [...sink.saved.keys()],
      records.map((r) => r.gameId),
    );
    assert.equal(local.rows.size, 0, 'the outbox is emptied once PostgreSQL has them');
    assert.equal(await metric('cockroach_record_outbox'), 0);
    assert.equal((await metric('cockroach_records_delivered_total')) - delivered, records.length);
    assert.equal((await metric('cockroach_record_write_failures_total', { where: 'postgres' })) - pgFailures, 40);
    const resumed = events('records.delivery_resumed');
    assert.equal(resumed.length, 1);
    assert.equal(resumed[0].attempts, 40);
    for (const r of records) assert.equal((await w.get(r.gameId))?.gameId, r.gameId, 'then from PostgreSQL');
  });

  it('delivers what an earlier run left in the outbox as soon as it starts', async () => {
    const local = new FakeLocal();
    const sink = new FakeSink();
    await local.put(records.slice(0, 3).map((r) => ({ gameId: r.gameId, startedMs: 0, endedMs: 0, json: JSON.stringify(r) })));
    const w = writer(local, sink);
    await sink.until(3);
    await w.settled();
    assert.equal(local.rows.size, 0);
    assert.deepEqual(
      events('records.outbox_found').map((l) => l.outbox),
      [3],
    );
  });

  it('drops (and counts) records past the memory bound instead of growing without limit', async () => {
    const full = await metric('cockroach_records_dropped_total', { reason: 'memory_full' });
    const local = new FakeLocal(new Faults(1_000_000));
    const w = writer(local, null, { maxMemory: 2, durableWaitMs: 10 });
    assert.deepEqual(await Promise.all(records.slice(0, 3).map((r) => w.write(r))), ['queued', 'queued', 'dropped']);
    assert.equal(w.pending, 2);
    assert.equal((await metric('cockroach_records_dropped_total', { reason: 'memory_full' })) - full, 1);
  });

  it('on close with a dead disk, hands what memory holds to PostgreSQL; with both dead, logs and counts the loss', async () => {
    const dropped = await metric('cockroach_records_dropped_total', { reason: 'closed' });
    const sink = new FakeSink();
    const viaPostgres = new RecordWriter(new FakeLocal(new Faults(1_000_000)), sink, { ...FAST, durableWaitMs: 10 }).start();
    await viaPostgres.write(records[2]);
    await viaPostgres.close({ diskMs: 20, deliveryMs: 20 });
    assert.ok(sink.saved.has(records[2].gameId));
    assert.ok(sink.closed);

    const local = new FakeLocal(new Faults(1_000_000));
    const nowhere = new RecordWriter(local, new FakeSink(new Faults(1_000_000)), { ...FAST, durableWaitMs: 10 }).start();
    const lost = nowhere.write(records[3]);
    await nowhere.close({ diskMs: 20, deliveryMs: 20 });
    assert.equal(await lost, 'queued');
    assert.ok(local.closed);
    assert.equal((await metric('cockroach_records_dropped_total', { reason: 'closed' })) - dropped, 1);
    assert.equal(await nowhere.write(records[4]), 'dropped');
    assert.equal(
      (await metric('cockroach_records_dropped_total', { reason: 'closed' })) - dropped,
      2,
      'a write after close is counted, not thrown',
    );
    assert.deepEqual(
      events('record.dropped').map((l) => [l.gameId, l.reason]),
      [
        [records[3].gameId, 'closed'],
        [records[4].gameId, 'closed'],
      ],
    );
  });

  it('on close with PostgreSQL away, retries fast until the deadline and leaves the rest in the outbox for the next start', async () => {
    const local = new FakeLocal();
    const sink = new FakeSink(new Faults(1_000_000));
    const w = new RecordWriter(local, sink, { ...FAST, retryMinMs: 60_000, retryMaxMs: 60_000 }).start();
    await w.write(records[0]);
    const attempts = sink.faults.attempts;
    const t0 = Date.now();
    await w.close({ diskMs: 100, deliveryMs: 300 });
    assert.ok(Date.now() - t0 < 3000, 'bounded');
    assert.ok(sink.faults.attempts - attempts >= 2, 'the minute-long backoff was cut short');
    assert.ok(local.rows.has(records[0].gameId), 'still in the outbox');
    assert.deepEqual(
      events('records.outbox_left').map((l) => l.outbox),
      [1],
    );
  });

  it('close() ends within closeBoundMs, which the exit backstop of the drain waits past, when neither the disk nor PostgreSQL answers', async () => {
    const never = () => new Promise<never>(() => undefined);
    const local = new FakeLocal();
    const sink = new FakeSink();
    const w = new RecordWriter(local, sink, FAST).start();
    local.put = never;
    local.list = never;
    sink.saveRows = never;
    sink.close = never;
    void w.write(records[0]);
    const opts = { diskMs: 200, deliveryMs: 300 };
    const t0 = Date.now();
    await w.close(opts);
    const took = Date.now() - t0;
    assert.ok(took >= 500 && took <= closeBoundMs(opts) + 500, `${took} ms, bound ${closeBoundMs(opts)} ms`);
    assert.deepEqual(
      events('record.dropped').map((l) => [l.gameId, l.reason]),
      [[records[0].gameId, 'closed']],
      'what never reached a disk is said and counted',
    );
  });

  it('says a lost file on /metrics and in the log, and is not ready until it is recovered', async () => {
    const vanished = await metric('cockroach_record_file_lost_total', { why: 'vanished' });
    const w = writer(new FakeLocal(), null);
    w.fileEvents([{ type: 'lost', why: 'vanished' }]);
    assert.deepEqual(recordsHealth(), { ok: false, problem: 'file_lost' });
    assert.equal((await metric('cockroach_record_file_lost_total', { why: 'vanished' })) - vanished, 1);
    w.fileEvents([{ type: 'recovered', why: 'vanished', salvaged: 7 }]);
    assert.deepEqual(recordsHealth(), { ok: true, problem: null });
    assert.deepEqual(
      lines.map((l) => JSON.parse(l)).map((l) => [l.event, l.why, l.salvaged]),
      [
        ['records.file_lost', 'vanished', undefined],
        ['records.file_recovered', 'vanished', 7],
      ],
    );
  });
});
