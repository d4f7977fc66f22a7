/**
 * Capacity benchmark: N six-player rooms of colyseus.js bots playing legal moves for S seconds.
 *
 *   npm run loadtest -- --rooms N --seconds S [--pace human|fast] [--clients decoding|lean]
 *                       [--batch 25 | --rate 50] [--seed loadtest] [--settle 5] [--max-ramp 60] [--idle] [--pin]
 *                       [--server-root DIR] [--endpoint ws://...]
 *
 * Without --endpoint the server runs as its own child process (figures are the server's, not the
 * bots'), with the stats agent loaded (loadtest/agent/stats.mjs) so it reports its event-loop
 * delay and heap; `--server-root` runs the server of another checkout with these bots (one side of
 * an A/B). Rooms are filled in batches (--batch rooms at a time), or opened at a fixed rate
 * (--rate rooms per second, each filled as soon as it opens); each host starts its game once six
 * are seated. A finished game is replaced by a new room. `human` pace: a bot that must act
 * waits 1–3 s (seeded); `fast`: at once. Every bot checks every patch it decodes for hidden
 * information (`leaks`); `--clients lean` bots stop decoding at the deal (lib/tables.ts). `--idle`
 * seats the bots but never starts the games: what idle lobbies cost the server. `--pin` gives the
 * server CPU 0 and the bots CPU 1.
 *
 * Figures cover the measuring window, which opens once every room is filled and --settle seconds
 * have passed (the joins of the ramp leave a backlog that is not the steady state); errors and leaks
 * cover the whole run, by kind (lib/joins.ts names the join failures). The records' queue comes
 * from the server's /metrics (lib/recordsQueue.ts). Progress lines go to stderr every 5 s, then a
 * summary (lib/report.ts summaryLines); the last line on stdout is one JSON object. The exit code is 1 on any error, leak, stall or server crash, or if nothing was played.
 *
 * Arguments: lib/runOptions.ts; table lifecycle: lib/tables.ts; figures: lib/figures.ts;
 * report: lib/report.ts.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Client } from 'colyseus.js';
import { seedRng } from '../server/rules';
import { Figures } from './lib/figures';
import { RecordsQueue } from './lib/recordsQueue';
import { buildReport, progressLine, summaryLines } from './lib/report';
import { runOptions } from './lib/runOptions';
import { Scheduler } from './lib/scheduler';
import { startServerProcess, ServerProcess } from './lib/serverProcess';
import { Fleet, SEATS } from './lib/tables';
import { FILE_HEADROOM, parseOpenFileLimit } from '../server/base/fileLimit';

const PROGRESS_MS = 5000;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The bots hold one socket per client, and the server (which inherits this limit) one per
 * client plus its headroom: stop before the ramp rather than count refused joins.
 */
function checkFileLimit(rooms: number): void {
  const soft = parseOpenFileLimit(readFileSync('/proc/self/limits', 'utf8'))?.soft ?? Infinity;
  const needed = rooms * SEATS + FILE_HEADROOM + 64;
  if (needed > soft) {
    console.error(
      `loadtest: ${rooms} rooms need about ${needed} open files per process; the limit is ${soft}: raise it (ulimit -n ${needed})`,
    );
    process.exit(2);
  }
}

async function main() {
  const opts = runOptions();
  const { rooms, seconds, batch, pace, idle, clients } = opts;
  const figures = new Figures();
  const scheduler = new Scheduler((error) => figures.countError('bot exception', error));

  checkFileLimit(rooms);
  // The bots' every thread on CPU 1 (the server's go on CPU 0 when it starts).
  if (opts.pin) execFileSync('taskset', ['-a', '-c', '-p', '1', String(process.pid)], { stdio: 'ignore' });
  const serverStart = performance.now();
  const server: ServerProcess | null = opts.endpoint
    ? null
    : await startServerProcess(
        // Every bot comes from one address: the edge's per-address limits would refuse the load
        // itself. Everything else stays at its default: the connection cap follows the file
        // limit (checked above), and the ramp's matchmaking (six per room, --batch rooms at a
        // time: 150) stays under MAX_PENDING_MATCHMAKES. Human pace stays within the per-client
        // message rate; fast bots would not.
        {
          RATE_LIMITS: 'off',
          ...(pace === 'fast' ? { MESSAGE_BURST: '100000', MESSAGES_PER_SECOND: '100000' } : {}),
        },
        {
          stats: true,
          metrics: true,
          cpus: opts.pin ? '0' : undefined,
          root: opts['server-root'],
          nodeArgs: ['--expose-gc'],
        },
      );
  const endpoint = opts.endpoint ?? server!.endpoint;
  const fleet = new Fleet(new Client(endpoint), { pace, idle, clients }, figures, scheduler, seedRng(`${opts.seed}-bots`));
  await sleep(1000);
  const baseline = (await server?.stats({ gc: true })) ?? null;
  const baselineRssMB = server?.rssMB() ?? NaN;
  const records = server?.opsPort ? new RecordsQueue(server.opsPort) : null;
  await records?.sample();

  const runStart = performance.now();
  let phase = 'ramp';
  let windowStart = runStart;
  const progress = setInterval(() => {
    fleet.checkStalls();
    console.error(
      progressLine(figures, {
        phase,
        seconds: (performance.now() - (phase === 'ramp' ? runStart : windowStart)) / 1000,
        serverSeconds: server ? (performance.now() - serverStart) / 1000 : null,
        rooms: fleet.tables.size,
        roomsAsked: rooms,
        clients: fleet.liveClients(),
        serverRssMB: server ? server.rssMB() : null,
        intervalSeconds: PROGRESS_MS / 1000,
      }),
    );
    if (server?.crashed()) figures.countError('server crashed');
    void records?.sample();
  }, PROGRESS_MS);

  // Ramp up: each room retried until it is filled; `batch` rooms at a time, or `rate` opened per second.
  const fill = async (slot: number) => {
    for (let tries = 0; tries < 5 && !(await fleet.openTable(slot)); tries++) await sleep(1000);
  };
  if (opts.rate > 0) {
    const filling: Promise<void>[] = [];
    for (let slot = 0; slot < rooms && !server?.crashed(); slot++) {
      const due = runStart + (slot * 1000) / opts.rate;
      if (due > performance.now()) await sleep(due - performance.now());
      filling.push(fill(slot));
    }
    await Promise.all(filling);
  } else {
    for (let first = 0; first < rooms && !server?.crashed(); first += batch) {
      await Promise.all(Array.from({ length: Math.min(batch, rooms - first) }, (_, i) => fill(first + i)));
    }
  }
  const rampSeconds = (performance.now() - runStart) / 1000;
  phase = 'settle';
  await sleep(opts.settle * 1000);

  // Measuring window.
  figures.resetWindow();
  // One reading of /proc per edge of the window: the total is user + system.
  const split0 = server?.cpuSplit() ?? null;
  const io0 = server?.syscalls() ?? null;
  const botCpu0 = process.cpuUsage();
  const botLoop = monitorEventLoopDelay({ resolution: 10 });
  botLoop.enable();
  await server?.stats(); // resets the server's event-loop histogram
  phase = 'window';
  windowStart = performance.now();
  await sleep(seconds * 1000);
  const windowSeconds = (performance.now() - windowStart) / 1000;
  const split1 = server?.cpuSplit() ?? null;
  const io1 = server?.syscalls() ?? null;
  const botCpu = process.cpuUsage(botCpu0);
  botLoop.disable();
  const endRssMB = server?.rssMB() ?? NaN;
  const stats = server ? await server.stats() : null;
  // The same rooms after a full GC: what they hold, without the garbage not yet collected.
  const live = server ? await server.stats({ gc: true }) : null;
  await records?.sample();
  const clientsAtEnd = fleet.liveClients();
  const roomsAtEnd = fleet.tables.size;
  fleet.checkStalls();
  figures.stopping = true;
  scheduler.stop();
  clearInterval(progress);

  const report = buildReport(figures, {
    rooms,
    roomsAtEnd,
    clients: clientsAtEnd,
    pace,
    clientKind: clients,
    windowSeconds,
    rampSeconds,
    rate: opts.rate > 0 ? opts.rate : null,
    batch,
    records: records?.figures ?? null,
    server: server
      ? {
          cpuSeconds: split0 && split1 ? split1.user + split1.system - (split0.user + split0.system) : NaN,
          cpuSystemSeconds: split0 && split1 ? split1.system - split0.system : NaN,
          cpuMainThreadSeconds: split0 && split1 ? split1.mainThread - split0.mainThread : NaN,
          syscalls: io0 && io1 ? { reads: io1.reads - io0.reads, writes: io1.writes - io0.writes } : null,
          endRssMB,
          baselineRssMB,
          stats,
          live,
          baseline,
        }
      : null,
    botCpuMicros: botCpu.user + botCpu.system,
    botCpuSystemMicros: botCpu.system,
    botLoopP99Ns: botLoop.percentile(99),
    crashed: server?.crashed() ?? false,
  });

  await fleet.closeAll();
  await server?.stop();
  for (const line of summaryLines(report)) console.error(line);
  console.log(JSON.stringify(report));
  // A finished game's record must reach the disk within the durability wait, and the ramp its limit.
  const rampOk = opts['max-ramp'] === 0 || rampSeconds <= opts['max-ramp'];
  if (!rampOk) console.error(`loadtest: the ramp took ${rampSeconds.toFixed(1)} s, over --max-ramp ${opts['max-ramp']}`);
  const durable = (report.records?.notDurable ?? 0) === 0;
  const ok = report.errors === 0 && report.leaks === 0 && !report.crashed && (report.actions > 0 || idle) && rampOk && durable;
  process.exit(ok ? 0 : 1);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
