import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { startServerProcess, ServerProcess } from '../../loadtest/lib/serverProcess';
import { setLogLevel, setLogSink } from '../../server/base/log';
import { registry } from '../../server/base/metrics';
import { CockroachRoom } from '../../server/room/CockroachRoom';
import type { RecordWriter } from '../../server/store/writer';
import { bootTestServer } from '../support/server';
import { collectLines, exitCode, httpGet, waitFor } from '../ops/support';
import { requireTestPostgres, TestPostgres } from '../store/pgCluster';
import { endAll, fetchRecord, startBotGame } from './support';

async function metric(name: string, labels: Record<string, string> = {}): Promise<number> {
  const values = (await registry.getSingleMetric(name)!.get()).values;
  return values.filter((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x)).reduce((s, v) => s + v.value, 0);
}

/** Retries a tenth of a second to a fifth: a long outage is many attempts in a short test. */
const FAST_RETRY = { RECORD_RETRY_MIN_MS: '20', RECORD_RETRY_MAX_MS: '200' };
/** A child `npm start`: one process, bots quick, the records' settings from the test. */
const CHILD = { REDIS_URL: '', PUBLIC_ADDRESS: '', BOT_THINK_MS: '50', LOG_LEVEL: 'info', ...FAST_RETRY };

/**
 * A finished game is never lost with DATABASE_URL: each record is durable in this process's
 * outbox first, then delivered, however long PostgreSQL is away, across a deploy (SIGTERM) and a
 * `kill -9`. Against a throwaway cluster that the tests stop and start again.
 */
describe('records: PostgreSQL away, a deploy, a kill -9: every game reaches PostgreSQL', function () {
  this.timeout(90000);
  let pg: TestPostgres;
  const dirs: string[] = [];
  const procs: ServerProcess[] = [];
  const dataDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'records-pg-'));
    dirs.push(dir);
    return dir;
  };
  /** The ids among `ids` that PostgreSQL has. */
  const inPostgres = async (ids: string[]): Promise<string[]> => {
    const client = new Client({ connectionString: pg.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ game_id: string }>('SELECT game_id FROM games WHERE game_id = ANY($1)', [ids]);
      return rows.map((r) => r.game_id);
    } finally {
      await client.end();
    }
  };
  const allInPostgres = async (ids: string[]) => (await inPostgres(ids).catch(() => [])).length === ids.length;

  before(async function () {
    pg = await requireTestPostgres(this);
  });
  afterEach(async () => {
    await Promise.all(procs.splice(0).map((p) => p.stop()));
    await pg?.resume().catch(() => undefined); // running again for the next test (a no-op when it is)
  });
  after(async () => {
    await pg?.stop();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('an outage far past any old retry budget: games end, records wait in the outbox (served, /ready 200), and land when it is back', async () => {
    const lines: string[] = [];
    const ts = await bootTestServer({ botThinkMs: 50 }, { DATA_DIR: dataDir(), DATABASE_URL: pg.url, ...FAST_RETRY });
    setLogSink((line) => lines.push(line));
    setLogLevel('info');
    const writer = CockroachRoom.records as RecordWriter;
    // Each step has its own bound, well inside the test's: a step that hangs says which it was and what the writer held.
    const steps: string[] = [];
    const step = async <T>(what: string, work: Promise<T>, ms: number): Promise<T> => {
      const t = Date.now();
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const tail = lines.slice(-25).join('\n');
          reject(
            new Error(
              `${what}: not done in ${ms} ms (after ${steps.join(', ')}; memory ${writer.pending}, outbox ${writer.undelivered})\n${tail}`,
            ),
          );
        }, ms);
      });
      try {
        return await Promise.race([work, late]);
      } finally {
        clearTimeout(timer);
        steps.push(`${what} ${Date.now() - t} ms`);
      }
    };
    try {
      const games = await step('start', Promise.all([0, 1, 2].map((i) => startBotGame(ts.endpoint, `outage${i}`))), 20000);
      const failures = await metric('cockroach_record_write_failures_total', { where: 'postgres' });
      await step('pause', pg.pause(), 10000);
      const t0 = Date.now();
      const ids = await step('end', endAll(games), 15000);
      for (const id of ids) assert.equal((await fetchRecord(ts.server.port, id)).body.gameId, id, 'served from the outbox');
      assert.equal(await metric('cockroach_record_outbox'), 3);
      assert.equal((await httpGet(`http://127.0.0.1:${ts.server.port}/ready`)).status, 200, 'the outbox keeps them: still ready');
      // The old writer gave a record up for good after 10 attempts.
      await waitFor(
        async () => (await metric('cockroach_record_write_failures_total', { where: 'postgres' })) - failures >= 20,
        '20 failed deliveries',
        20000,
      );
      const outageMs = Date.now() - t0;
      await step('resume', pg.resume(), 15000);
      await step('settled', writer.settled(), 15000);
      assert.deepEqual((await inPostgres(ids)).sort(), [...ids].sort());
      assert.equal(await metric('cockroach_record_outbox'), 0);
      const resumed = lines.map((l) => JSON.parse(l)).filter((l) => l.event === 'records.delivery_resumed');
      assert.equal(resumed.length, 1);
      assert.ok(resumed[0].attempts >= 20);
      console.log(
        `      outage ${(outageMs / 1000).toFixed(1)} s, ${resumed[0].attempts} failed deliveries, then 3 of 3 records in PostgreSQL (${steps.join(', ')})`,
      );
      for (const id of ids) assert.equal((await fetchRecord(ts.server.port, id)).body.gameId, id, 'now from PostgreSQL');
    } finally {
      setLogSink(null);
      setLogLevel('warn');
      await ts.server.close();
    }
  });

  it('SIGTERM with PostgreSQL up: the games that end during the drain are in PostgreSQL when the process has exited', async () => {
    const proc = await startServerProcess({ ...CHILD, DATA_DIR: dataDir(), DATABASE_URL: pg.url, DRAIN_SECONDS: '60' });
    procs.push(proc);
    const games = await Promise.all([0, 1, 2].map((i) => startBotGame(proc.endpoint, `deploy${i}`)));
    const exited = exitCode(proc);
    proc.child.kill('SIGTERM');
    await waitFor(async () => (await httpGet(`http://127.0.0.1:${proc.port}/ready`)).status === 503, 'draining');
    const ids = await endAll(games);
    assert.equal(await exited, 0);
    assert.deepEqual((await inPostgres(ids)).sort(), [...ids].sort());
  });

  it('SIGTERM, then `kill -9` right after games ended, with PostgreSQL down: each process exits, and the next start from the DATA_DIR delivers every game', async () => {
    const dir = dataDir();
    await pg.pause();
    const env = { ...CHILD, DATA_DIR: dir, DATABASE_URL: pg.url, DRAIN_SECONDS: '60', RECORD_EXIT_DELIVERY_SECONDS: '1' };

    const drained = await startServerProcess(env);
    procs.push(drained);
    const lines = collectLines(drained);
    const deployed = await Promise.all([0, 1, 2].map((i) => startBotGame(drained.endpoint, `down${i}`)));
    const exited = exitCode(drained);
    drained.child.kill('SIGTERM');
    await waitFor(async () => (await httpGet(`http://127.0.0.1:${drained.port}/ready`)).status === 503, 'draining');
    const deployedIds = await endAll(deployed);
    assert.equal(await exited, 0, 'SIGTERM: exits in bounded time although PostgreSQL is away');
    const left = lines.map((l) => JSON.parse(l)).find((l) => l.event === 'records.outbox_left');
    assert.equal(left?.outbox, 3, 'the log says what waits in the outbox');

    const killed = await startServerProcess(env);
    procs.push(killed);
    const games = await Promise.all([0, 1, 2].map((i) => startBotGame(killed.endpoint, `kill${i}`)));
    const killedIds = await endAll(games);
    const gone = exitCode(killed);
    killed.child.kill('SIGKILL');
    assert.equal(await gone, null);

    await pg.resume();
    const next = await startServerProcess(env);
    procs.push(next);
    const all = [...deployedIds, ...killedIds];
    await waitFor(() => allInPostgres(all), 'all six delivered by the next start', 20000).catch(async (error) => {
      const there = await inPostgres(all).catch((): string[] => []);
      throw new Error(
        `${error.message}: missing ${JSON.stringify({ deployed: deployedIds.filter((id) => !there.includes(id)), killed: killedIds.filter((id) => !there.includes(id)) })}`,
      );
    });
  });
});
