/**
 * Start-up time and idle memory of the server process, one variant against another in
 * alternation (the machine is shared: alternating keeps a busy minute from landing on one side).
 *
 *   npx tsx loadtest/startup.ts [--runs 10] [--variants tsx,compiled] [--idle-seconds 3]
 *
 * Variants: `tsx` (node --import tsx server/index.ts, how npm start ran before issue 25),
 * `compiled` (node build/index.js: run `npm run build` first), `npm-start` (node scripts/start.js:
 * the compiled server plus npm start's staleness check). For each run: milliseconds from spawn to
 * the `listening` log line (and the CPU it used until then) and to the first `GET /health` answered, then RSS and V8 heap after
 * `--idle-seconds` of idling (and after a full GC). Prints one line per run and a median summary.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgsOrExit } from './lib/args';
import { freePort } from './lib/serverProcess';

const FLAGS = {
  runs: { kind: 'int', default: 10, min: 1 },
  variants: { kind: 'string', default: 'tsx,compiled' },
  'idle-seconds': { kind: 'number', default: 3, min: 0 },
} as const;

const ROOT = path.resolve(__dirname, '..');
const COMMANDS: Record<string, string[]> = {
  tsx: ['--import', 'tsx', 'server/index.ts'],
  compiled: ['build/index.js'],
  'npm-start': ['scripts/start.js'],
};

interface Sample {
  listeningMs: number;
  /** CPU (user + system) the process used until it listened: less sensitive to a busy machine than wall time. */
  cpuMs: number;
  healthMs: number;
  rssMB: number;
  rssAfterGcMB: number;
  heapMB: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function rssMB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return line ? Number(line.split(/\s+/)[1]) / 1024 : NaN;
}

function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // USER_HZ 100
}

async function once(variant: string, idleSeconds: number): Promise<Sample> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'startup-'));
  const started = performance.now();
  const child = spawn(process.execPath, ['--expose-gc', ...COMMANDS[variant]], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOADTEST_STATS: '1' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  const waitFor = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const m = pattern.exec(out);
        if (m) {
          child.stdout!.off('data', onData);
          resolve(m[0]);
        }
      };
      const onData = (d: Buffer) => ((out += d.toString()), check());
      child.stdout!.on('data', onData);
      child.once('exit', (code) => reject(new Error(`${variant}: server exited (${code})`)));
      check();
    });
  await waitFor(/"event":"listening"/);
  const listeningMs = performance.now() - started;
  const cpuMs = cpuMsOf(child.pid!);
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
  }
  const healthMs = performance.now() - started;
  await sleep(idleSeconds * 1000);
  const rss = rssMB(child.pid!);
  out = '';
  child.stdin!.write('stats gc\n');
  const stats = JSON.parse(await waitFor(/\{"loadtestStats".*\}\n/)).loadtestStats;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
  return { listeningMs, cpuMs, healthMs, rssMB: rss, rssAfterGcMB: stats.rssMB, heapMB: stats.heapUsedMB };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main() {
  const args = parseArgsOrExit(process.argv.slice(2), FLAGS);
  const variants = args.variants.split(',');
  for (const v of variants) if (!COMMANDS[v]) throw new Error(`unknown variant ${v} (${Object.keys(COMMANDS).join(', ')})`);
  const samples = new Map<string, Sample[]>(variants.map((v) => [v, []]));
  for (let run = 0; run < args.runs; run++) {
    for (const v of run % 2 ? [...variants].reverse() : variants) {
      const s = await once(v, args['idle-seconds']);
      samples.get(v)!.push(s);
      console.error(
        `${v} #${run + 1}: listening ${s.listeningMs.toFixed(0)} ms (cpu ${s.cpuMs} ms), /health ${s.healthMs.toFixed(0)} ms, rss ${s.rssMB.toFixed(1)} MB (after gc ${s.rssAfterGcMB} MB), heap ${s.heapMB} MB`,
      );
    }
  }
  const summary = Object.fromEntries(
    [...samples].map(([v, ss]) => [
      v,
      {
        runs: ss.length,
        listeningMs: {
          median: +median(ss.map((s) => s.listeningMs)).toFixed(0),
          min: +Math.min(...ss.map((s) => s.listeningMs)).toFixed(0),
        },
        cpuMs: { median: median(ss.map((s) => s.cpuMs)), min: Math.min(...ss.map((s) => s.cpuMs)) },
        healthMs: { median: +median(ss.map((s) => s.healthMs)).toFixed(0), min: +Math.min(...ss.map((s) => s.healthMs)).toFixed(0) },
        idleRssMB: +median(ss.map((s) => s.rssMB)).toFixed(1),
        idleRssAfterGcMB: +median(ss.map((s) => s.rssAfterGcMB)).toFixed(1),
        heapMB: +median(ss.map((s) => s.heapMB)).toFixed(1),
      },
    ]),
  );
  console.log(JSON.stringify({ loadavg: os.loadavg().map((x) => +x.toFixed(2)), ...summary }));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
