/**
 * The issue 20 drill, run by hand (not part of npm test: it takes the outage's length):
 *
 *   npx tsx test/records/outageDrill.ts [--minutes 5] [--every 5]
 *
 * A throwaway PostgreSQL cluster and `npm start` as a child process with DATABASE_URL and the
 * production retry settings. Games end all the time (a host and a bot, watched; one every
 * `--every` seconds). PostgreSQL is stopped for `--minutes`; during the outage the server is
 * deployed (SIGTERM, restarted from the same DATA_DIR) and later killed (`kill -9`, restarted).
 * Then PostgreSQL comes back, and the drill waits until every game that ended is in it. Prints
 * one JSON line of figures (docs/operations.md "Game records" quotes them); exit 1 if any game
 * is missing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { startServerProcess, ServerProcess } from '../../loadtest/lib/serverProcess';
import { exitCode, httpGet, metric, scrape, sleep, waitFor } from '../ops/support';
import { startTestPostgres } from '../store/pgCluster';
import { startBotGame } from './support';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? fallback : Number(process.argv[i + 1]);
}

const say = (msg: string) => process.stderr.write(`[drill ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);

async function main(): Promise<number> {
  const minutes = arg('minutes', 5);
  const everySeconds = arg('every', 5);
  const pg = await startTestPostgres();
  if ('reason' in pg) throw new Error(pg.reason);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'records-drill-'));
  const env = {
    DATA_DIR: dir,
    DATABASE_URL: pg.url,
    REDIS_URL: '',
    PUBLIC_ADDRESS: '',
    OPS_ON_PUBLIC_PORT: '1',
    BOT_THINK_MS: '200',
    DRAIN_SECONDS: '30',
    LOG_LEVEL: 'warn',
  };
  let proc: ServerProcess = await startServerProcess(env);
  const ended: string[] = [];
  let failures = 0;
  let peakOutbox = 0;
  let deployed = false;
  let killed = false;
  const sample = async () => {
    try {
      const m = await scrape(proc.port);
      peakOutbox = Math.max(peakOutbox, metric(m, 'cockroach_record_outbox'));
      return m;
    } catch {
      return null;
    }
  };
  const endOne = async (label: string) => {
    const game = await startBotGame(proc.endpoint, label);
    ended.push(await game.end());
  };

  try {
    for (let i = 0; i < 3; i++) await endOne(`before${i}`);
    say(`${ended.length} games before the outage; stopping PostgreSQL for ${minutes} min`);
    await pg.pause();
    const outageStart = Date.now();
    const outageMs = minutes * 60_000;
    while (Date.now() - outageStart < outageMs) {
      await endOne(`during${ended.length}`);
      const m = await sample();
      if (m) failures = Math.max(failures, metric(m, 'cockroach_record_write_failures_total', { where: 'postgres' }));
      const elapsed = Date.now() - outageStart;
      if (!deployed && elapsed > outageMs * 0.4) {
        deployed = true;
        const running = await startBotGame(proc.endpoint, 'drained');
        const exited = exitCode(proc);
        proc.child.kill('SIGTERM');
        await waitFor(async () => (await httpGet(`http://127.0.0.1:${proc.port}/ready`)).status === 503, 'draining');
        ended.push(await running.end()); // a game that ends during the drain
        const code = await exited;
        say(`deploy: SIGTERM, exit ${code}; ${ended.length} games so far; restarting from the same DATA_DIR`);
        proc = await startServerProcess(env);
      } else if (deployed && !killed && elapsed > outageMs * 0.7) {
        killed = true;
        const exited = exitCode(proc);
        proc.child.kill('SIGKILL');
        await exited;
        say(`kill -9 right after a game ended; ${ended.length} games so far; restarting`);
        proc = await startServerProcess(env);
      }
      await sleep(everySeconds * 1000);
    }
    const duringOutage = ended.length - 3;
    const before = await sample();
    const outbox = before ? metric(before, 'cockroach_record_outbox') : NaN;
    say(`PostgreSQL back after ${((Date.now() - outageStart) / 1000).toFixed(0)} s; ${outbox} records in the outbox`);
    await pg.resume();
    const back = Date.now();
    const client = new Client({ connectionString: pg.url });
    let present = 0;
    for (;;) {
      try {
        if (client.listenerCount('error') === 0) {
          client.on('error', () => undefined);
          await client.connect();
        }
        const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM games WHERE game_id = ANY($1)', [ended]);
        present = rows[0].n;
      } catch {
        present = 0;
      }
      if (present === ended.length || Date.now() - back > 120_000) break;
      await sleep(250);
    }
    const deliveredAfterS = (Date.now() - back) / 1000;
    await client.end().catch(() => undefined);
    const after = await sample();
    const figures = {
      outageMinutes: minutes,
      gamesEnded: ended.length,
      gamesEndedDuringOutage: duringOutage,
      deploysDuringOutage: deployed ? 1 : 0,
      kill9DuringOutage: killed ? 1 : 0,
      inPostgres: present,
      missing: ended.length - present,
      deliveredSecondsAfterPostgresBack: Math.round(deliveredAfterS * 10) / 10,
      peakOutbox,
      deliveryFailuresLastProcess: after ? metric(after, 'cockroach_record_write_failures_total', { where: 'postgres' }) : failures,
      dropped: after ? metric(after, 'cockroach_records_dropped_total') : NaN,
    };
    process.stdout.write(`${JSON.stringify(figures)}\n`);
    return figures.missing === 0 ? 0 : 1;
  } finally {
    await proc.stop();
    await pg.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`drill failed: ${(error as Error).stack}\n`);
    process.exit(2);
  },
);
