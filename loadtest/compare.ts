/**
 * Before/after load runs in one sitting: two trees (git revisions or directories), each run with
 * its own harness (`loadtest/run.ts` of that tree, so its bots decode its state), alternated or
 * in blocks, then one table with a row per run and the medians per tree.
 *
 *   npx tsx loadtest/compare.ts --a REV|DIR --b REV|DIR [--runs 3] [--order alternate|blocks]
 *                               [--label-a before] [--label-b after] [--env-a "K=V ..."] [--env-b "K=V ..."]
 *                               [--server-args-a "--v8-flag"] [--server-args-b "..."] [--timeline] [--harness own|here]
 *                               [--out DIR] -- <loadtest/run.ts flags, e.g. --rooms 300 --seconds 40>
 *
 * A revision is extracted with `git archive` into a scratch directory (nothing is added to the
 * repository); its node_modules is this checkout's, linked, when this checkout pins every package
 * it pins at the same version, else installed there with `npm ci`. `alternate` runs a, b, b, a, a, b, … (a busy
 * minute lands on both sides); `blocks` runs every a, then every b (back-to-back series);
 * `parallel` runs each a at the same time as a b (each with its own server and bots): both
 * sides share whatever else the machine is doing, second by second, at the price of sharing
 * the cores with each other (compare CPU per action and system calls, not latency).
 * `--env-a/--env-b` add environment variables to one side's runs (the harness passes its own
 * environment to the server: e.g. `NODE_PATH=...`). `--timeline` keeps each run's per-second
 * timeline (loadtest/tailReport.ts reads it). `--harness here` runs this checkout's bots against
 * each tree's server (`run.ts --server-root`): one load generator for both sides, and flags the
 * older harness lacks (`--clients lean`). Each run's stderr
 * goes to DIR/<n>-<label>.log, its JSON report to DIR/<n>-<label>.json; the table to stdout.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync, createWriteStream } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgsOrExit } from './lib/args';
import type { Report } from './lib/report';

const FLAGS = {
  a: { kind: 'optional', help: 'git revision or directory: the "before" tree' },
  b: { kind: 'optional', help: 'git revision or directory: the "after" tree' },
  runs: { kind: 'int', default: 3, min: 1, help: 'runs per tree' },
  order: { kind: 'choice', choices: ['alternate', 'blocks', 'parallel'], default: 'alternate' },
  'label-a': { kind: 'string', default: 'a' },
  'label-b': { kind: 'string', default: 'b' },
  'env-a': { kind: 'string', default: '' },
  'env-b': { kind: 'string', default: '' },
  'server-args-a': { kind: 'string', default: '', help: "node flags for a's server (run.ts --server-args), e.g. V8 flags" },
  'server-args-b': { kind: 'string', default: '' },
  out: { kind: 'optional', help: 'directory for the runs’ logs and reports (default: a new temp dir)' },
  harness: {
    kind: 'choice',
    choices: ['own', 'here'],
    default: 'own',
    help: "own: each tree's loadtest/run.ts; here: this checkout's, with --server-root TREE",
  },
  timeline: { kind: 'flag', help: 'each run also writes DIR/<n>-<label>.timeline.jsonl (trees whose harness has --timeline)' },
} as const;

const HERE = path.resolve(__dirname, '..');

export interface RunRow {
  n: number;
  label: string;
  started: string;
  loadavg: number;
  report: Partial<Report> | null;
  /** p99 of each 5-s slice of the measuring window, from the progress lines. */
  slices: number[];
  exitCode: number | null;
}

function git(args: string[], cwd = HERE): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
}

function lockedPackages(lockFile: string): Map<string, string | undefined> {
  const lock = JSON.parse(readFileSync(lockFile, 'utf8')) as { packages: Record<string, { version?: string }> };
  return new Map(
    Object.entries(lock.packages)
      .filter(([name]) => name !== '')
      .map(([name, p]) => [name, p.version]),
  );
}

/** Every package `tree` pins is in this checkout's node_modules at the same place and version (more is fine). */
function canLinkModules(tree: string): boolean {
  const here = lockedPackages(path.join(HERE, 'package-lock.json'));
  return [...lockedPackages(path.join(tree, 'package-lock.json'))].every(([name, version]) => here.has(name) && here.get(name) === version);
}

/** A tree to run: a directory as it is, or a revision extracted into a scratch directory. */
export function prepareTree(spec: string, scratch: string): string {
  if (existsSync(spec) && existsSync(path.join(spec, 'package.json'))) return path.resolve(spec);
  const sha = git(['rev-parse', '--verify', `${spec}^{commit}`]);
  const dir = path.join(scratch, sha.slice(0, 12));
  if (existsSync(path.join(dir, 'package.json'))) return dir;
  mkdirSync(dir, { recursive: true });
  execFileSync('sh', ['-c', `git -C "${HERE}" archive "${sha}" | tar -x -C "${dir}"`]);
  if (canLinkModules(dir)) {
    symlinkSync(path.join(HERE, 'node_modules'), path.join(dir, 'node_modules'));
  } else {
    console.error(`compare: ${spec} pins other packages: npm ci in ${dir}`);
    execFileSync('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' });
  }
  console.error(`compare: ${spec} = ${sha.slice(0, 12)} in ${dir}`);
  return dir;
}

function envOf(spec: string): Record<string, string> {
  return Object.fromEntries(
    spec
      .split(' ')
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
}

/** One run of `tree`'s own harness; resolves with its JSON report (null if it printed none). */
export function runOnce(
  tree: string,
  runArgs: string[],
  env: Record<string, string>,
  logFile: string,
): Promise<Omit<RunRow, 'n' | 'label'>> {
  const started = new Date().toISOString().slice(11, 19);
  const loadavg = +os.loadavg()[0].toFixed(2);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'loadtest/run.ts', ...runArgs], {
      cwd: tree,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const log = createWriteStream(logFile);
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => ((out += d), log.write(d)));
    child.stderr.on('data', (d) => ((err += d), log.write(d)));
    child.on('exit', (code) => {
      log.end();
      const last = out.trim().split('\n').pop() ?? '';
      let report: Partial<Report> | null = null;
      try {
        report = JSON.parse(last);
      } catch {
        report = null;
      }
      const slices = [...err.matchAll(/^loadtest window .*\(last \d+ s: p50 [\d.]+ p99 ([\d.]+) max/gm)].map((m) => Number(m[1]));
      resolve({ started, loadavg, report, slices, exitCode: code });
    });
  });
}

const median = (xs: (number | null | undefined)[]) => {
  const s = xs.filter((x): x is number => typeof x === 'number' && Number.isFinite(x)).sort((p, q) => p - q);
  if (s.length === 0) return NaN;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const f = (x: unknown, digits = 1) => (typeof x === 'number' && Number.isFinite(x) ? x.toFixed(digits) : '–');

/** The table of runs (markdown), then the medians per label. */
export function table(rows: RunRow[]): string {
  const head =
    '| # | tree | start (UTC) | load | actions/s | p50 ms | p99 ms | 5-s p99 slices | max ms | server CPU | CPU/action µs | writes/reads per action | RSS/room KB | heap/room KB | loop p99/max ms | bots CPU | games | errors |\n' +
    '|---:|---|---|---:|---:|---:|---:|---|---:|---:|---:|---|---:|---:|---|---:|---:|---:|';
  const lines = rows.map((r) => {
    const j: Partial<Report> = r.report ?? {};
    const sl = r.slices.length ? `${Math.round(Math.min(...r.slices))}–${Math.round(Math.max(...r.slices))}` : '–';
    return `| ${r.n} | ${r.label} | ${r.started} | ${f(r.loadavg, 2)} | ${f(j.actionsPerSec)} | ${f(j.latencyMs?.p50, 2)} | ${f(j.latencyMs?.p99)} | ${sl} | ${f(j.latencyMs?.max, 0)} | ${f(j.serverCpuPct)} % | ${f(j.serverCpuPerActionUs, 0)} | ${f(j.serverWritesPerAction, 2)}/${f(j.serverReadsPerAction, 2)} | ${f(j.rssPerRoomKB, 0)} | ${f(j.liveHeapPerRoomKB, 0)} | ${f(j.eventLoopDelayP99Ms, 0)}/${f(j.eventLoopDelayMaxMs, 0)} | ${f(j.botCpuPct)} % | ${j.games ?? '–'} | ${j.errors ?? 'no report'}${r.exitCode ? ` (exit ${r.exitCode})` : ''} |`;
  });
  const labels = [...new Set(rows.map((r) => r.label))];
  const med =
    '\n\nMedians:\n\n| tree | runs | p99 ms (each run) | runs with p99 ≤ 30 ms | CPU/action µs | writes/reads per action | server CPU | RSS/room KB | heap/room KB | errors (sum) |\n|---|---:|---|---:|---:|---|---:|---:|---:|---:|\n' +
    labels
      .map((label) => {
        const rs = rows.filter((r) => r.label === label).map((r): Partial<Report> => r.report ?? {});
        const p99s = rs.map((j) => j.latencyMs?.p99 as number);
        return `| ${label} | ${rs.length} | ${p99s.map((p) => f(p)).join(', ')} (median ${f(median(p99s))}) | ${p99s.filter((p) => p <= 30).length} of ${rs.length} | ${f(median(rs.map((j) => j.serverCpuPerActionUs)), 0)} | ${f(median(rs.map((j) => j.serverWritesPerAction)), 2)}/${f(median(rs.map((j) => j.serverReadsPerAction)), 2)} | ${f(median(rs.map((j) => j.serverCpuPct)))} % | ${f(median(rs.map((j) => j.rssPerRoomKB)), 0)} | ${f(median(rs.map((j) => j.liveHeapPerRoomKB)), 0)} | ${rs.reduce((s, j) => s + (j.errors ?? 0), 0)} |`;
      })
      .join('\n');
  return `${head}\n${lines.join('\n')}${med}\n`;
}

async function main() {
  const argv = process.argv.slice(2);
  const split = argv.indexOf('--');
  const own = split >= 0 ? argv.slice(0, split) : argv;
  const runArgs = split >= 0 ? argv.slice(split + 1) : [];
  const opts = parseArgsOrExit(own, FLAGS);
  if (!opts.a || !opts.b) throw new Error('compare: --a and --b are required');
  const scratch = path.join(os.tmpdir(), 'cockroach-compare');
  mkdirSync(scratch, { recursive: true });
  const trees = { a: prepareTree(opts.a, scratch), b: prepareTree(opts.b, scratch) };
  const out = opts.out ?? mkdtempSync(path.join(os.tmpdir(), 'compare-'));
  mkdirSync(out, { recursive: true });
  const sides: ('a' | 'b')[] = [];
  for (let i = 0; i < opts.runs; i++) {
    if (opts.order === 'blocks') continue;
    sides.push(...((i % 2 === 0 ? ['a', 'b'] : ['b', 'a']) as ('a' | 'b')[]));
  }
  if (opts.order === 'blocks') for (const side of ['a', 'b'] as const) for (let i = 0; i < opts.runs; i++) sides.push(side);
  const rows: RunRow[] = [];
  const hasTimeline = (tree: string) => {
    const options = path.join(tree, 'loadtest', 'lib', 'runOptions.ts');
    return existsSync(options) && readFileSync(options, 'utf8').includes('timeline:');
  };
  const runSide = async (n: number, side: 'a' | 'b') => {
    const label = side === 'a' ? opts['label-a'] : opts['label-b'];
    const env = envOf(side === 'a' ? opts['env-a'] : opts['env-b']);
    const serverArgs = side === 'a' ? opts['server-args-a'] : opts['server-args-b'];
    const harness = opts.harness === 'here' ? HERE : trees[side];
    const args = [
      ...runArgs,
      ...(opts.harness === 'here' ? ['--server-root', trees[side]] : []),
      ...(serverArgs ? ['--server-args', serverArgs] : []),
      ...(opts.timeline && hasTimeline(harness) ? ['--timeline', path.join(out, `${n}-${label}.timeline.jsonl`)] : []),
    ];
    if (os.loadavg()[0] > 1.5)
      console.error(`compare: the machine is busy (load average ${os.loadavg()[0].toFixed(2)}): latency figures will show it`);
    const row = { n, label, ...(await runOnce(harness, args, env, path.join(out, `${n}-${label}.log`))) };
    if (row.report) writeFileSync(path.join(out, `${n}-${label}.json`), `${JSON.stringify(row.report)}\n`);
    return row;
  };
  if (opts.order === 'parallel') {
    for (let i = 0; i < opts.runs; i++) {
      console.error(`compare: pair ${i + 1}/${opts.runs}: ${opts['label-a']} and ${opts['label-b']} at once`);
      rows.push(...(await Promise.all([runSide(2 * i + 1, 'a'), runSide(2 * i + 2, 'b')])));
    }
    sides.length = 0;
  }
  for (const [i, side] of sides.entries()) {
    console.error(`compare: run ${i + 1}/${sides.length}: ${side} (${trees[side]}) ${runArgs.join(' ')}`);
    const row = await runSide(i + 1, side);
    rows.push(row);
    console.error(
      `compare: ${row.label}: p99 ${f(row.report?.latencyMs?.p99)} ms, CPU/action ${f(row.report?.serverCpuPerActionUs, 0)} µs, errors ${row.report?.errors ?? '?'}`,
    );
  }
  const text = `a = ${opts['label-a']}: ${opts.a} (${trees.a})\nb = ${opts['label-b']}: ${opts.b} (${trees.b})\nrun flags: ${runArgs.join(' ')}\n\n${table(rows)}`;
  writeFileSync(path.join(out, 'table.md'), text);
  console.log(text);
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
