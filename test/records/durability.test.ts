import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { chooseMove } from '../../loadtest/clientBot';
import { startServerProcess } from '../../loadtest/lib/serverProcess';
import { seedRng } from '../../server/rules';
import { setLogLevel, setLogSink } from '../../server/base/log';
import { BUSY_TIMEOUT_MS } from '../../server/store/disk';
import { registry } from '../../server/base/metrics';
import { bootTestServer, create, joinById, TestServer, Tracked } from '../support/server';
import { holdWriteLock } from '../store/sqliteLock';
import { exitCode, httpGet, waitFor } from '../ops/support';
import { endAll, fetchRecord, startBotGame } from './support';

async function metric(name: string, labels: Record<string, string> = {}): Promise<number> {
  const values = (await registry.getSingleMetric(name)!.get()).values;
  return values.filter((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x)).reduce((s, v) => s + v.value, 0);
}

/** The game ids in the file, read by a connection of the test's own. */
function idsOnDisk(file: string): string[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT game_id FROM games').pluck().all() as string[];
  } finally {
    db.close();
  }
}
const onDisk = (file: string, ids: string[]) => ids.every((id) => idsOnDisk(file).includes(id));

function summary(times: number[]): { median: number; p95: number; max: number } {
  const sorted = [...times].sort((x, y) => x - y);
  const at = (q: number) => sorted[Math.floor(q * (sorted.length - 1))];
  return { median: at(0.5), p95: at(0.95), max: sorted.at(-1)! };
}

/** Two people playing as fast as their patches come: the time from each move sent to the mover seeing it applied. */
async function bystanderRoundTrips(ts: TestServer): Promise<number[]> {
  const a = await create(ts, { nickname: 'by-a' }, 'by-a');
  const b = await joinById(ts, a.room.roomId, { nickname: 'by-b' }, 'by-b');
  await a.until(() => a.state.players.size === 2, 'seated');
  a.room.send('start', {});
  await Promise.all([a, b].map((c) => c.until(() => c.state.phase === 'playing', 'playing')));
  const rng = seedRng('bystander');
  const times: number[] = [];
  for (;;) {
    const step = Math.max(a.state.step, b.state.step);
    await Promise.all([a, b].map((c) => c.until(() => c.state.step === step, `${c.label} at step ${step}`)));
    if (a.state.phase !== 'playing') break;
    const mover = [a, b].find((c) => chooseMove(c.state, c.id, rng) !== null) as Tracked;
    const move = chooseMove(mover.state, mover.id, rng)!;
    const t0 = performance.now();
    mover.room.send(move.type, move.payload);
    await mover.until(() => mover.state.step > step, 'applied');
    times.push(performance.now() - t0);
  }
  await a.leave();
  await b.leave();
  return times;
}

describe('records: a finished game is never lost (SQLite, the embedded default)', function () {
  this.timeout(60000);
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'records-durable-'));
    dirs.push(dir);
    return dir;
  };
  let lines: string[];
  beforeEach(() => {
    lines = [];
    setLogSink((line) => lines.push(line));
  });
  afterEach(() => setLogSink(null));
  after(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });
  const events = (name: string) => lines.map((l) => JSON.parse(l)).filter((l) => l.event === name);

  it("another process's write lock holds up no game (bystander round trip < 50 ms); /ready fails while records wait; they land once it is released", async () => {
    const dir = dataDir();
    const file = path.join(dir, 'games.sqlite');
    const ts = await bootTestServer({ botThinkMs: 50 }, { DATA_DIR: dir, RECORD_RETRY_MIN_MS: '20', RECORD_RETRY_MAX_MS: '100' });
    const ready = async () => (await httpGet(`http://127.0.0.1:${ts.server.port}/ready`)).status;
    try {
      const quiet = summary(await bystanderRoundTrips(ts)); // also warms the code paths up (JIT)
      const games = await Promise.all([0, 1, 2].map((i) => startBotGame(ts.endpoint, `locked${i}`)));
      const failures = await metric('cockroach_record_write_failures_total', { where: 'disk' });
      const lock = await holdWriteLock(file);
      let released = false;
      try {
        // The games end first (a game played out at once is CPU of its own); their writes keep
        // failing on the lock and being retried all through the bystander's game.
        const ids = await endAll(games);
        const times = await bystanderRoundTrips(ts);
        const locked = summary(times);
        console.log(
          `      bystander round trip, ${times.length} moves with the lock held: median ${locked.median.toFixed(1)}, p95 ${locked.p95.toFixed(1)}, max ${locked.max.toFixed(1)} ms` +
            ` (without: median ${quiet.median.toFixed(1)}, p95 ${quiet.p95.toFixed(1)}, max ${quiet.max.toFixed(1)} ms)`,
        );
        assert.ok(times.length >= 10, 'a real game was played meanwhile');
        // The target is < 50 ms, and on a quiet machine every move is under it. On a machine
        // shared with other test runs any move can be descheduled for longer (the unlocked
        // figures above show it), so the bounds asserted are the ones load cannot break but a
        // store call on the game loop would: each locked attempt would hold the loop for the
        // whole busy timeout (500 ms), several times a second, so the median and the max would
        // both jump past them.
        assert.ok(locked.median < 50, `bystander round trip median ${locked.median.toFixed(1)} ms`);
        assert.ok(locked.max < BUSY_TIMEOUT_MS, `bystander round trip max ${locked.max.toFixed(1)} ms`);
        for (const id of ids) assert.equal((await fetchRecord(ts.server.port, id)).status, 200, 'served from memory meanwhile');
        assert.deepEqual(
          idsOnDisk(file).filter((id) => ids.includes(id)),
          [],
          'none got past the lock',
        );
        assert.ok((await metric('cockroach_record_write_failures_total', { where: 'disk' })) > failures, 'the writes were refused');

        await waitFor(async () => (await ready()) === 503, '/ready fails once a record waited past its bound');
        const body = JSON.parse((await httpGet(`http://127.0.0.1:${ts.server.port}/ready`)).body);
        assert.equal(body.records, 'not_durable');
        assert.ok(events('record.not_durable').length >= 1);

        await lock.release();
        released = true;
        await waitFor(() => onDisk(file, ids), 'the records on disk once the lock is gone');
        await waitFor(async () => (await ready()) === 200, '/ready again');
        for (const id of ids) assert.equal((await fetchRecord(ts.server.port, id)).body.gameId, id);
      } finally {
        if (!released) await lock.release();
      }
    } finally {
      await ts.server.close();
    }
  });

  it('a database deleted under the running server is noticed (/metrics, a JSON log line), made again, and keeps every game', async () => {
    setLogLevel('info');
    const dir = dataDir();
    const env = { DATA_DIR: dir, RECORD_FILE_CHECK_MS: '100' };
    let ts = await bootTestServer({ botThinkMs: 50 }, env);
    setLogLevel('info');
    let before: string;
    let after: string;
    try {
      const vanished = await metric('cockroach_record_file_lost_total', { why: 'vanished' });
      [before] = await endAll([await startBotGame(ts.endpoint, 'before')]);
      await waitFor(() => onDisk(path.join(dir, 'games.sqlite'), [before]), 'on disk');
      fs.rmSync(dir, { recursive: true });
      await waitFor(async () => (await metric('cockroach_record_file_lost_total', { why: 'vanished' })) === vanished + 1, 'noticed');
      await waitFor(() => events('records.file_recovered').length === 1, 'recovered');
      const lost = events('records.file_lost');
      assert.deepEqual(
        lost.map((l) => [l.level, l.why, l.file]),
        [['error', 'vanished', path.join(dir, 'games.sqlite')]],
      );
      assert.equal(events('records.file_recovered')[0].salvaged, 1, 'the game from before, copied from the open connection');
      [after] = await endAll([await startBotGame(ts.endpoint, 'after')]);
    } finally {
      await ts.server.close();
    }
    ts = await bootTestServer({}, env);
    try {
      for (const id of [before, after]) assert.equal((await fetchRecord(ts.server.port, id)).status, 200, 'kept over a restart');
    } finally {
      await ts.server.close();
      setLogLevel('warn');
    }
  });

  it('/ready fails while the database cannot be made again, and recovers by itself once it can', async () => {
    const dir = dataDir();
    const data = path.join(dir, 'data');
    const ts = await bootTestServer({}, { DATA_DIR: data, RECORD_FILE_CHECK_MS: '100' });
    const ready = async () => httpGet(`http://127.0.0.1:${ts.server.port}/ready`);
    try {
      assert.equal((await ready()).status, 200);
      fs.rmSync(data, { recursive: true });
      fs.writeFileSync(data, 'a file where the data folder was');
      await waitFor(async () => (await ready()).status === 503, '/ready fails');
      assert.equal(JSON.parse((await ready()).body).records, 'file_lost');
      assert.equal(await metric('cockroach_records_store_ok'), 0);
      fs.rmSync(data);
      await waitFor(async () => (await ready()).status === 200, '/ready recovers');
      assert.ok(fs.existsSync(path.join(data, 'games.sqlite')), 'made again');
      assert.equal(await metric('cockroach_records_store_ok'), 1);
    } finally {
      await ts.server.close();
    }
  });

  it('`kill -9` right after games ended: every one is there after the restart', async () => {
    const dir = dataDir();
    const env = { DATA_DIR: dir, REDIS_URL: '', PUBLIC_ADDRESS: '', BOT_THINK_MS: '50' };
    let proc = await startServerProcess(env);
    try {
      const games = await Promise.all([0, 1, 2].map((i) => startBotGame(proc.endpoint, `killed${i}`)));
      const ids = await endAll(games);
      const exited = exitCode(proc);
      proc.child.kill('SIGKILL');
      assert.equal(await exited, null, 'killed, no clean exit');
      proc = await startServerProcess(env);
      for (const id of ids) {
        const { status, body } = await fetchRecord(proc.port, id);
        assert.equal(status, 200, `game ${id} after kill -9`);
        assert.equal(body.gameId, id);
      }
    } finally {
      await proc.stop();
    }
  });
});
