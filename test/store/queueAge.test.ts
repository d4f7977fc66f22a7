/**
 * The records' queue on /metrics: how old the oldest finished game waiting for the disk is (the
 * load tool reads it, issue 36). A disk that holds its first write shows the age growing; once the
 * disk takes it, 0.
 */
import assert from 'node:assert/strict';
import { registry } from '../../server/base/metrics';
import { setLogSink } from '../../server/base/log';
import { RecordWriter } from '../../server/store/writer';
import type { LocalRecords, RecordRow } from '../../server/store/types';
import { playGame } from '../fairness/games';

/** A disk whose writes wait until `release()`. */
class HeldDisk implements LocalRecords {
  readonly file = '/tmp/held.sqlite';
  private held: (() => void)[] = [];
  put(rows: readonly RecordRow[]): Promise<number> {
    return new Promise((resolve) => this.held.push(() => resolve(rows.length)));
  }
  release(): void {
    for (const go of this.held.splice(0)) go();
  }
  get = async () => null;
  list = async () => [];
  remove = async () => 0;
  count = async () => 0;
  check = async () => undefined;
  quarantine = async () => undefined;
  close = async () => undefined;
}

async function oldestSeconds(): Promise<number> {
  const metric = registry.getSingleMetric('cockroach_record_queue_oldest_seconds');
  assert.ok(metric, 'the gauge is registered');
  return (await metric.get()).values[0]?.value ?? NaN;
}

describe('store: the age of the oldest record waiting for the disk (cockroach_record_queue_oldest_seconds)', () => {
  it('grows while the disk holds a record and is 0 once it is durable', async () => {
    setLogSink(() => undefined);
    const disk = new HeldDisk();
    const writer = new RecordWriter(disk, null, { durableWaitMs: 60_000, fileCheckMs: 60_000 }).start();
    try {
      assert.equal(await oldestSeconds(), 0, 'nothing waits');
      const durable = writer.write(playGame(2, { botSeed: 'queue-age' }).record);
      const written = Date.now();
      while (Date.now() - written < 50) await new Promise((resolve) => setImmediate(resolve));
      const age = await oldestSeconds();
      assert.ok(age >= 0.05 && age < 5, `the record has waited about 50 ms (${age} s)`);
      while (writer.pending > 0) {
        disk.release();
        await new Promise((resolve) => setImmediate(resolve));
      }
      await durable;
      assert.equal(await oldestSeconds(), 0, 'durable: nothing waits');
    } finally {
      await writer.close({ diskMs: 10, deliveryMs: 10 });
      setLogSink(null);
    }
  });
});
