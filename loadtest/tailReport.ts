/**
 * Which process stalls: reads a load run's timeline (`npm run loadtest -- --timeline FILE`), lines
 * up the bots' and the server's seconds, and for every slow second (an action whose patch took
 * longer than --stall-ms) says what each process was doing in it and the second before: its
 * event-loop delay, its GC pauses (major ones apart), the games that ended.
 *
 *   npx tsx loadtest/tailReport.ts FILE [--stall-ms 50] [--phase window] [--seconds]
 *
 * `--seconds` prints every second, not only the slow ones.
 */
import { readFileSync } from 'node:fs';
import { parseArgsOrExit } from './lib/args';

const FLAGS = {
  'stall-ms': { kind: 'number', default: 50, min: 1, help: 'a second is slow when an action took longer than this' },
  'busy-ms': { kind: 'number', default: 40, min: 1, help: 'a process stalled when its event-loop delay reached this' },
  phase: { kind: 'string', default: 'window', help: 'settle, window, or all' },
  seconds: { kind: 'flag', help: 'print every second' },
} as const;

interface Sample {
  src: 'bots' | 'server';
  phase: string;
  t: number;
  loopMaxMs: number;
  gcMs: number;
  gcMaxMs: number;
  majorGcMs: number;
  cpuMs: number;
  heapMB: number;
  latencyMaxMs?: number;
  latencyP99Ms?: number;
  actions?: number;
  gamesEnded?: number;
}

const fmt = (x: number | undefined, d = 0) => (x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(d));

function main() {
  const argv = process.argv.slice(2);
  const file = argv.find((a) => !a.startsWith('--') && !/^\d/.test(a));
  const args = parseArgsOrExit(
    argv.filter((a) => a !== file),
    FLAGS,
  );
  if (!file) throw new Error('usage: tailReport.ts TIMELINE_FILE [--stall-ms 50]');
  const samples = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Sample);
  const bySecond = new Map<number, { bots?: Sample; server?: Sample }>();
  for (const s of samples) {
    if (args.phase !== 'all' && s.phase !== args.phase) continue;
    const sec = Math.round(s.t / 1000);
    const slot = bySecond.get(sec) ?? {};
    slot[s.src] = s;
    bySecond.set(sec, slot);
  }
  const seconds = [...bySecond.keys()].sort((a, b) => a - b);
  const first = seconds[0];
  const busy = args['busy-ms'];
  const row = (sec: number) => {
    const { bots, server } = bySecond.get(sec) ?? {};
    const prev = bySecond.get(sec - 1) ?? {};
    return { sec, bots, server, prev };
  };
  const rows = seconds.map(row);
  const slow = rows.filter((r) => (r.bots?.latencyMaxMs ?? 0) > args['stall-ms']);
  const stalled = (s: Sample | undefined) => (s?.loopMaxMs ?? 0) >= busy;
  const blame = (r: (typeof rows)[number]) => {
    const server = stalled(r.server) || stalled(r.prev.server);
    const bots = stalled(r.bots) || stalled(r.prev.bots);
    return server && bots ? 'both' : server ? 'server' : bots ? 'bots' : 'neither';
  };
  const major = (s: Sample | undefined) => (s?.majorGcMs ?? 0) > 0;

  const header =
    's | actions | latency p99/max ms | server loop max | server GC ms (max, major) | server CPU ms | server heap MB | games ended | bots loop max | bots GC ms (max, major) | bots CPU ms | bots heap MB | stalled';
  const line = (r: (typeof rows)[number]) =>
    [
      r.sec - first,
      r.bots?.actions,
      `${fmt(r.bots?.latencyP99Ms)}/${fmt(r.bots?.latencyMaxMs)}`,
      fmt(r.server?.loopMaxMs),
      `${fmt(r.server?.gcMs)} (${fmt(r.server?.gcMaxMs)}, ${fmt(r.server?.majorGcMs)})`,
      fmt(r.server?.cpuMs),
      fmt(r.server?.heapMB),
      r.server?.gamesEnded ?? '–',
      fmt(r.bots?.loopMaxMs),
      `${fmt(r.bots?.gcMs)} (${fmt(r.bots?.gcMaxMs)}, ${fmt(r.bots?.majorGcMs)})`,
      fmt(r.bots?.cpuMs),
      fmt(r.bots?.heapMB),
      (r.bots?.latencyMaxMs ?? 0) > args['stall-ms'] ? blame(r) : '',
    ].join(' | ');
  console.log(`${rows.length} seconds (${args.phase}), ${slow.length} slow (an action over ${args['stall-ms']} ms)\n`);
  console.log(header);
  for (const r of args.seconds ? rows : slow) console.log(line(r));

  const count = (pred: (r: (typeof rows)[number]) => boolean) => slow.filter(pred).length;
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
  console.log(`\nslow seconds by the process whose event loop stalled (≥ ${busy} ms, that second or the one before):`);
  for (const who of ['server', 'bots', 'both', 'neither']) console.log(`  ${who}: ${count((r) => blame(r) === who)}`);
  console.log('slow seconds with a major GC (that second or the one before):');
  console.log(
    `  server: ${count((r) => major(r.server) || major(r.prev.server))}, bots: ${count((r) => major(r.bots) || major(r.prev.bots))}`,
  );
  const majors = (src: 'bots' | 'server') => rows.map((r) => r[src]).filter((s): s is Sample => major(s));
  for (const src of ['server', 'bots'] as const) {
    const m = majors(src);
    console.log(
      `${src}: ${m.length} seconds with a major GC (pause total per second max ${fmt(Math.max(0, ...m.map((s) => s.majorGcMs)))} ms), GC pauses ${fmt(mean(rows.map((r) => r[src]?.gcMs ?? 0)), 1)} ms/s on average, event-loop max ≥ ${busy} ms in ${rows.filter((r) => stalled(r[src])).length} seconds`,
    );
  }
  const ends = (rs: typeof rows) => mean(rs.map((r) => r.server?.gamesEnded ?? 0));
  console.log(`games ended per second: ${fmt(ends(slow), 2)} in slow seconds, ${fmt(ends(rows), 2)} over all`);
}

main();
