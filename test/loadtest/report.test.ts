/**
 * What `npm run loadtest` reports beyond latency (issue 36): the ramp, errors by kind, and the
 * records' queue read from /metrics; and the flags that choose decoding clients and a fixed rate.
 */
import assert from 'node:assert/strict';
import { parseArgs, UsageError } from '../../loadtest/lib/args';
import { Figures } from '../../loadtest/lib/figures';
import { joinFailureKind, JoinTimeout, withinJoinTimeout } from '../../loadtest/lib/joins';
import { metricValue, RecordsQueue } from '../../loadtest/lib/recordsQueue';
import { buildReport, Measured, summaryLines } from '../../loadtest/lib/report';
import { RUN_FLAGS } from '../../loadtest/lib/runOptions';
import { refusalText, ROOM_MESSAGES } from '../../server/protocol';

const metricsText = (queue: number, oldestSeconds: number | null, notDurable: number, saved: number) =>
  [
    '# HELP cockroach_record_queue Game records in memory, not yet durable on disk',
    `cockroach_record_queue ${queue}`,
    ...(oldestSeconds === null ? [] : [`cockroach_record_queue_oldest_seconds ${oldestSeconds}`]),
    `cockroach_records_not_durable_total ${notDurable}`,
    `cockroach_records_saved_total ${saved}`,
    'cockroach_record_write_failures_total{where="disk"} 0',
  ].join('\n');

function measured(overrides: Partial<Measured> = {}): Measured {
  return {
    rooms: 200,
    roomsAtEnd: 198,
    clients: 1188,
    pace: 'human',
    clientKind: 'decoding',
    windowSeconds: 20,
    rampSeconds: 12.34,
    rate: 50,
    batch: 25,
    records: null,
    server: null,
    botCpuMicros: 2e6,
    botCpuSystemMicros: 1e5,
    botLoopP99Ns: 5e6,
    crashed: false,
    ...overrides,
  };
}

describe('loadtest: the run report (ramp, errors by kind, records queue) and its flags', () => {
  it('takes decoding clients by default and a fixed opening rate as --rate; refuses what it does not know', () => {
    const none = parseArgs([], RUN_FLAGS);
    assert.deepEqual([none.clients, none.rate, none.batch], ['decoding', 0, 25]);
    const some = parseArgs(['--rooms', '2000', '--seconds', '40', '--clients', 'decoding', '--rate', '50'], RUN_FLAGS);
    assert.deepEqual([some.rooms, some.seconds, some.clients, some.rate], [2000, 40, 'decoding', 50]);
    assert.equal(parseArgs(['--clients=lean'], RUN_FLAGS).clients, 'lean');
    for (const [argv, message] of [
      [['--rate', '-1'], /--rate must be at least 0/],
      [['--rate', 'fast'], /--rate must be a number/],
      [['--clients', 'full'], /--clients must be one of decoding, lean/],
    ] as [string[], RegExp][])
      assert.throws(
        () => parseArgs(argv, RUN_FLAGS),
        (e: unknown) => e instanceof UsageError && message.test(e.message),
      );
  });

  it('names a failed join by what went wrong: timeout, expired seat, refusal code, socket error', () => {
    assert.equal(joinFailureKind('join', new JoinTimeout(20_000)), 'join timed out');
    const expired = Object.assign(new Error('seat reservation expired.'), { code: 4212 });
    assert.equal(joinFailureKind('join', expired), 'join: seat reservation expired');
    const busy = Object.assign(new Error(refusalText('SERVER_BUSY', ROOM_MESSAGES.SERVER_BUSY)), { code: 503 });
    assert.equal(joinFailureKind('create', busy), 'create refused SERVER_BUSY');
    assert.equal(joinFailureKind('join', Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })), 'join failed ECONNRESET');
    assert.equal(joinFailureKind('join', new TypeError('x')), 'join failed TypeError');
    assert.equal(joinFailureKind('join', undefined), 'join failed unknown');
  });

  it('gives up on a join after its time and leaves a room that comes later', async () => {
    let arrive!: (room: { leave(): Promise<number> }) => void;
    let left = 0;
    const late = withinJoinTimeout(new Promise<{ leave(): Promise<number> }>((resolve) => (arrive = resolve)), 20);
    await assert.rejects(late, JoinTimeout);
    arrive({ leave: async () => ++left });
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(left, 1, 'the late room is left');
    const room = { leave: async () => ++left };
    assert.equal(await withinJoinTimeout(Promise.resolve(room), 1000), room);
    await assert.rejects(withinJoinTimeout(Promise.reject(new Error('refused')), 1000), /refused/);
  });

  it('folds /metrics samples into the largest queue and wait seen, and the run’s not-durable and saved counts', () => {
    assert.equal(metricValue(metricsText(3, 0.25, 1, 9), 'cockroach_record_queue'), 3);
    assert.equal(metricValue(metricsText(3, null, 1, 9), 'cockroach_record_queue_oldest_seconds'), null);
    const q = new RecordsQueue(0);
    q.add(metricsText(0, 0, 2, 100)); // an earlier run's counts are not this run's
    q.add(metricsText(326, 4.2, 9, 180));
    q.add(metricsText(5, 0.05, 12, 400));
    assert.deepEqual(q.figures, { waitingMax: 326, oldestWaitMaxMs: 4200, notDurable: 10, saved: 300, samples: 3 });
    const old = new RecordsQueue(0);
    old.add(metricsText(1, null, 0, 0));
    assert.equal(old.figures.oldestWaitMaxMs, null, 'a server without the gauge says nothing of the wait');
  });

  it('reports the ramp, errors by kind and the records’ queue in the JSON and in the summary lines', () => {
    const f = new Figures();
    for (const kind of ['join: seat reservation expired', 'closed 1006', 'join: seat reservation expired', 'join refused SERVER_BUSY'])
      f.countError(kind);
    f.actions = 500;
    const records = { waitingMax: 326, oldestWaitMaxMs: 4200, notDurable: 10, saved: 300, samples: 5 };
    const report = buildReport(f, measured({ records }));
    assert.equal(report.rampSeconds, 12.3);
    assert.equal(report.rampRate, 50);
    assert.equal(report.rampBatch, null);
    assert.equal(report.errors, 4);
    assert.deepEqual(report.errorKinds, { 'join: seat reservation expired': 2, 'closed 1006': 1, 'join refused SERVER_BUSY': 1 });
    assert.deepEqual(report.records, records);
    const lines = summaryLines(report);
    assert.match(lines[0], /^loadtest: 200 rooms of decoding clients at human pace \(198 rooms, 1188 clients at the end\)$/);
    assert.match(lines[1], /ramp: 12\.3 s from the first room opened until all were filled \(50 rooms\/s\)/);
    assert.match(lines[3], /errors: 4 \(join: seat reservation expired: 2, closed 1006: 1, join refused SERVER_BUSY: 1\)/);
    assert.match(lines[4], /at most 326 waiting for the disk, oldest wait 4200 ms .*, 10 not durable in time, 300 saved/);
    assert.match(lines[5], /external server/);

    const batched = summaryLines(buildReport(new Figures(), measured({ rate: null })));
    assert.match(batched[1], /\(25 at a time\)/);
    assert.match(batched[3], /errors: 0; stalls 0, leaks 0$/);
    assert.match(batched[4], /records' queue: - \(external server\)/);
  });
});
