import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { setLogSink } from '../../server/base/log';
import { DiskOptions, DiskStore } from '../../server/store/disk';
import { recordDiskTimeouts } from '../../server/store/metrics';
import type { DiskWorkerData, FileEvent } from '../../server/store/diskWorker';
import { rowOf } from '../../server/store/types';
import { RecordWriter } from '../../server/store/writer';
import { copy, playGame } from '../fairness/games';
import { holdWriteLock } from './sqliteLock';

function removeDatabase(file: string): void {
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
}

const WORKER = path.resolve(__dirname, '../../server/store/diskWorker.ts');

/** The real disk worker, except that it never answers the first `stall` requests of `op` (an fsync that never returns). */
function stallingWorker(op: string, stall: number): DiskOptions['startWorker'] {
  return (data: DiskWorkerData) =>
    new Worker(
      `const port = require('node:worker_threads').parentPort;
      const on = port.on.bind(port);
      let stalled = 0;
      port.on = (event, listener) =>
        on(event, event !== 'message' ? listener : (m) => (m.op === ${JSON.stringify(op)} && stalled++ < ${stall} ? undefined : listener(m)));
      require('tsx/cjs');
      require(${JSON.stringify(WORKER)});`,
      { eval: true, workerData: data },
    );
}

/** The longest gap between 5 ms ticks of the event loop while `work` runs. */
async function loopGapWhile<T>(work: Promise<T>): Promise<{ value: T | Error; gapMs: number }> {
  let last = performance.now();
  let gapMs = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    gapMs = Math.max(gapMs, now - last);
    last = now;
  }, 5);
  const value = await work.catch((error: Error) => error);
  clearInterval(tick);
  return { value, gapMs };
}

describe('store: the disk worker (SQLite off the game loop; a lost file noticed and recovered)', function () {
  this.timeout(30000);
  let dir: string;
  const stores: DiskStore[] = [];
  const games = Array.from({ length: 4 }, (_, i) => playGame(2, { botSeed: `disk-${i}` }).record);
  const open = async (file: string, kind: 'games' | 'outbox' = 'games', opts: DiskOptions = {}) => {
    const events: FileEvent[] = [];
    const store = await DiskStore.open(file, kind, (e) => events.push(...e), opts);
    stores.push(store);
    return { store, events };
  };
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cockroach-disk-'));
  });
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('notices a deleted file, makes it again (migrated) and copies in every row the old connection still reads', async () => {
    const file = path.join(dir, 'data', 'games.sqlite');
    const { store, events } = await open(file);
    await store.save(games[0]);
    removeDatabase(file);
    await store.check();
    assert.deepEqual(events, [
      { type: 'lost', why: 'vanished' },
      { type: 'recovered', why: 'vanished', salvaged: 1 },
    ]);
    assert.ok(fs.existsSync(file));
    await store.save(games[1]);
    await store.close();
    const again = (await open(file)).store;
    assert.deepEqual(await again.get(games[0].gameId), copy(games[0]), 'the record from before the loss');
    assert.deepEqual(await again.get(games[1].gameId), copy(games[1]), 'the record after it');
    assert.deepEqual(await again.appliedVersions(), [1, 2]);
  });

  it('notices a deletion at the next write without waiting for a check, and a whole data folder removed', async () => {
    const file = path.join(dir, 'data', 'games.sqlite');
    const { store, events } = await open(file);
    await store.save(games[0]);
    fs.rmSync(path.join(dir, 'data'), { recursive: true });
    await store.save(games[1]);
    assert.deepEqual(
      events.map((e) => e.type),
      ['lost', 'recovered'],
    );
    await store.close();
    const again = (await open(file)).store;
    assert.ok(await again.get(games[0].gameId));
    assert.ok(await again.get(games[1].gameId));
  });

  it('notices a file replaced by another (a restored copy) and merges what the old one held into it', async () => {
    const file = path.join(dir, 'games.sqlite');
    const other = path.join(dir, 'restored.sqlite');
    const { store, events } = await open(file);
    await store.save(games[0]);
    const restored = (await open(other)).store;
    await restored.save(games[2]);
    await restored.close();
    removeDatabase(file);
    fs.renameSync(other, file);
    await store.save(games[1]);
    assert.deepEqual(events, [
      { type: 'lost', why: 'replaced' },
      { type: 'recovered', why: 'replaced', salvaged: 1 }, // recovered before the write, which went to the new file
    ]);
    for (const g of games.slice(0, 3)) assert.deepEqual(await store.get(g.gameId), copy(g));
  });

  it('while the file cannot be made again, refuses writes (FILE_LOST) but still reads, and recovers when it can', async () => {
    const data = path.join(dir, 'data');
    const file = path.join(data, 'games.sqlite');
    const { store, events } = await open(file);
    await store.save(games[0]);
    fs.rmSync(data, { recursive: true });
    fs.writeFileSync(data, 'not a folder'); // mkdir fails, whoever runs the test
    await assert.rejects(store.check(), (e: Error & { code?: string }) => e.code === 'FILE_LOST');
    await assert.rejects(store.save(games[1]), (e: Error & { code?: string }) => e.code === 'FILE_LOST');
    assert.deepEqual(await store.get(games[0].gameId), copy(games[0]), 'the old connection still reads');
    assert.deepEqual(
      events.map((e) => e.type),
      ['lost', 'recovery_failed', 'recovery_failed', 'recovery_failed'],
      'each call tries again',
    );
    fs.rmSync(data);
    await store.check();
    assert.deepEqual(events.at(-1), { type: 'recovered', why: 'vanished', salvaged: 1 });
    await store.save(games[1]);
    assert.ok(await store.get(games[1].gameId));
  });

  it("another process's write lock fails the write after the busy timeout, off the game loop; reads go on; it lands once released", async () => {
    const file = path.join(dir, 'games.sqlite');
    const { store } = await open(file);
    await store.save(games[0]);
    const lock = await holdWriteLock(file);
    try {
      const t0 = Date.now();
      const { value, gapMs } = await loopGapWhile(store.save(games[1]));
      assert.ok(value instanceof Error && (value as Error & { code?: string }).code === 'SQLITE_BUSY', String(value));
      assert.ok(Date.now() - t0 >= 400, 'it waited for the lock');
      assert.ok(gapMs < 50, `the event loop ran on (longest gap ${gapMs.toFixed(1)} ms)`);
      assert.deepEqual(await store.get(games[0].gameId), copy(games[0]), 'reads are not blocked by the writer');
    } finally {
      await lock.release();
    }
    await store.save(games[1]);
    assert.deepEqual(await store.get(games[1].gameId), copy(games[1]));
  });

  it('an outbox lists its oldest rows first and forgets delivered ones', async () => {
    const { store } = await open(path.join(dir, 'outbox.sqlite'), 'outbox');
    await store.put([rowOf(games[1])], 2000);
    await store.put([rowOf(games[0]), rowOf(games[2])], 1000);
    assert.equal(await store.put([rowOf(games[0])], 3000), 0, 'a record already there is kept');
    const listed = await store.list(2);
    assert.deepEqual(
      listed.map((r) => [r.gameId, r.addedMs]),
      [
        [games[0].gameId, 1000],
        [games[2].gameId, 1000],
      ],
    );
    assert.equal(listed[0].json, JSON.stringify(games[0]));
    assert.equal(await store.remove([games[0].gameId, games[2].gameId]), 2);
    assert.equal(await store.count(), 1);
    assert.deepEqual(await store.appliedVersions(), [1]);
  });

  it('a worker that dies is replaced by the next call', async () => {
    const { store } = await open(path.join(dir, 'games.sqlite'));
    await store.save(games[0]);
    const worker = (store as unknown as { worker: { terminate(): Promise<number> } }).worker;
    await worker.terminate();
    assert.deepEqual(await store.get(games[0].gameId), copy(games[0]));
  });

  it('a request the worker never answers fails with TIMEOUT and says which (logged, counted); the next one is answered', async () => {
    const { store } = await open(path.join(dir, 'games.sqlite'), 'games', { requestTimeoutMs: 300, startWorker: stallingWorker('put', 1) });
    const counted = async () => (await recordDiskTimeouts.get()).values.find((v) => v.labels.op === 'put')?.value ?? 0;
    const before = await counted();
    const lines: string[] = [];
    setLogSink((line) => lines.push(line));
    const t0 = Date.now();
    try {
      await assert.rejects(store.save(games[0]), (e: Error & { code?: string }) => {
        assert.equal(e.code, 'TIMEOUT');
        assert.match(e.message, /the disk worker did not answer "put" within 300 ms/);
        return true;
      });
    } finally {
      setLogSink(null);
    }
    assert.ok(Date.now() - t0 < 2000);
    assert.deepEqual(
      lines.map((l) => JSON.parse(l)).map((l) => [l.level, l.event, l.op]),
      [['warn', 'records.disk_timeout', 'put']],
    );
    assert.equal(await counted(), before + 1);
    await store.save(games[1]);
    assert.deepEqual(await store.get(games[1].gameId), copy(games[1]));
  });

  it('a worker that answers nothing: opening fails with TIMEOUT, and closing does not wait for it', async () => {
    const silent = (data: DiskWorkerData) =>
      new Worker(`require('node:worker_threads').parentPort.on('message', () => undefined);`, { eval: true, workerData: data });
    const lines: string[] = [];
    setLogSink((line) => lines.push(line));
    const t0 = Date.now();
    try {
      await assert.rejects(
        DiskStore.open(path.join(dir, 'games.sqlite'), 'games', undefined, { openTimeoutMs: 1000, startWorker: silent }),
        (e: Error & { code?: string }) => e.code === 'TIMEOUT',
      );
    } finally {
      setLogSink(null);
    }
    assert.ok(Date.now() - t0 < 6000, `${Date.now() - t0} ms`);
    assert.deepEqual(
      lines.map((l) => JSON.parse(l).op),
      ['open', 'close'],
    );
  });

  it('the writer keeps going past a write the worker never answered: retried, on disk', async () => {
    const lines: string[] = [];
    setLogSink((line) => lines.push(line));
    try {
      const { store } = await open(path.join(dir, 'games.sqlite'), 'games', {
        requestTimeoutMs: 300,
        startWorker: stallingWorker('put', 1),
      });
      const writer = new RecordWriter(store, null, { retryMinMs: 1, retryMaxMs: 4, durableWaitMs: 10_000, fileCheckMs: 60_000 }).start();
      await writer.write(games[3]);
      assert.deepEqual(await store.get(games[3].gameId), copy(games[3]));
      const failed = lines.map((l) => JSON.parse(l)).filter((l) => l.event === 'record.write_failed');
      assert.deepEqual(
        failed.map((l) => [l.where, l.code]),
        [['disk', 'TIMEOUT']],
      );
      await writer.close({ diskMs: 10 });
    } finally {
      setLogSink(null);
    }
  });
});
