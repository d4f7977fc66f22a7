/**
 * Opt-in figures for the load-test runner (`LOADTEST_STATS=1`), off by default. The server then
 * reads its stdin line by line; on a line `stats` (or `stats gc`) it prints one JSON line on stdout,
 * `{"loadtestStats":{...}}`, with the event-loop delay since the previous `stats` (and resets
 * it), memory and CPU. On `timeline` it prints `{"loadtestTimeline":{...}}` every second (event-loop
 * delay, GC pauses, CPU, games ended and actions in that second) until `timeline stop`: the load
 * run lines it up with its own bots' second by second to see which process stalls (issue 25).
 * `allocations start` / `allocations stop FILE` samples every allocation in between, garbage
 * included (a .heapprofile: loadtest/allocSplit.ts reads it); `allocations promoted` starts
 * sampling only what outlives the young generation (what the scavenger copies and old-space
 * collections then sweep).
 * No port: only the process that started the server (and holds its stdin) can ask. (SIGUSR2
 * cannot be used: Colyseus shuts the server down on it.)
 */
import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { writeFileSync } from 'node:fs';
import { getHeapStatistics } from 'node:v8';
import { Session } from 'node:inspector';
import { createInterface } from 'node:readline';
import { localLoad } from './colyseus/stats';
import { registry } from './ops/metrics';

const ms = (ns: number) => +(ns / 1e6).toFixed(2);

export interface ProcessSample {
  /** Wall clock (ms since the epoch) at the end of the sample. */
  t: number;
  loopMaxMs: number;
  loopP99Ms: number;
  /** Main-thread GC pauses: total, longest, and the total of major (mark-compact) ones. */
  gcMs: number;
  gcMaxMs: number;
  majorGcMs: number;
  cpuMs: number;
  heapMB: number;
}

/** Event-loop delay, GC pauses and CPU of this process, sample by sample (each `take` resets). */
export class ProcessSampler {
  private readonly delay = monitorEventLoopDelay({ resolution: 5 });
  private gc = { ms: 0, max: 0, major: 0 };
  private cpu = process.cpuUsage();
  private readonly observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      this.gc.ms += entry.duration;
      this.gc.max = Math.max(this.gc.max, entry.duration);
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) this.gc.major += entry.duration;
    }
  });

  start(): this {
    this.delay.enable();
    this.observer.observe({ entryTypes: ['gc'] });
    return this;
  }

  stop(): void {
    this.delay.disable();
    this.observer.disconnect();
  }

  take(): ProcessSample {
    const cpu = process.cpuUsage(this.cpu);
    this.cpu = process.cpuUsage();
    const sample = {
      t: Date.now(),
      loopMaxMs: ms(this.delay.max),
      loopP99Ms: ms(this.delay.percentile(99)),
      gcMs: +this.gc.ms.toFixed(2),
      gcMaxMs: +this.gc.max.toFixed(2),
      majorGcMs: +this.gc.major.toFixed(2),
      cpuMs: +((cpu.user + cpu.system) / 1000).toFixed(1),
      heapMB: +(process.memoryUsage().heapUsed / 2 ** 20).toFixed(1),
    };
    this.delay.reset();
    this.gc = { ms: 0, max: 0, major: 0 };
    return sample;
  }
}

/** The sum of a counter's values whose labels match, from the metrics registry. */
async function counter(name: string, labels: Record<string, string> = {}): Promise<number> {
  const metric = registry.getSingleMetric(name);
  if (!metric) return 0;
  const { values } = await metric.get();
  return values
    .filter((v) => Object.entries(labels).every(([k, want]) => (v.labels as Record<string, unknown>)[k] === want))
    .reduce((sum, v) => sum + v.value, 0);
}

let profiler: Session | null = null;

async function allocations(action: string | undefined, file: string | undefined): Promise<void> {
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) => profiler!.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));
  if ((action === 'start' || action === 'promoted') && !profiler) {
    profiler = new Session();
    profiler.connect();
    await post('HeapProfiler.startSampling', {
      samplingInterval: 16384,
      includeObjectsCollectedByMinorGC: action === 'start',
      includeObjectsCollectedByMajorGC: true,
    });
  } else if (action === 'stop' && profiler && file) {
    const { profile } = (await post('HeapProfiler.stopSampling')) as { profile: unknown };
    profiler.disconnect();
    profiler = null;
    writeFileSync(file, JSON.stringify(profile));
    process.stdout.write(`${JSON.stringify({ loadtestAllocations: file })}\n`);
  }
}

export function startLoadtestStats(): void {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  let timeline: NodeJS.Timeout | null = null;
  createInterface({ input: process.stdin }).on('line', (line) => {
    const [command, option] = line.trim().split(' ');
    if (command === 'timeline') {
      if (timeline) clearInterval(timeline);
      timeline = null;
      if (option === 'stop') return;
      const sampler = new ProcessSampler().start();
      let last = { games: NaN, actions: NaN };
      timeline = setInterval(async () => {
        const sample = sampler.take();
        const now = {
          games: await counter('cockroach_games_total', { event: 'ended' }),
          actions: await counter('cockroach_actions_total'),
        };
        const delta = { gamesEnded: now.games - last.games, actions: now.actions - last.actions };
        last = now;
        if (Number.isNaN(delta.gamesEnded)) return; // the first second has no baseline
        process.stdout.write(`${JSON.stringify({ loadtestTimeline: { ...sample, ...delta } })}\n`);
      }, 1000);
      return;
    }
    if (command === 'allocations') {
      // `allocations start` / `allocations stop FILE`: every allocation sampled (also what GC
      // collected since: the garbage an action leaves), written as a .heapprofile.
      void allocations(option, line.trim().split(' ')[2]);
      return;
    }
    if (command !== 'stats') return;
    // `stats gc` first collects garbage when node runs with --expose-gc: the live heap.
    const gc = (globalThis as { gc?: () => void }).gc;
    if (option === 'gc' && gc) gc();
    const mem = process.memoryUsage();
    const heap = getHeapStatistics();
    const cpu = process.cpuUsage();
    const stats = {
      eventLoopDelayMs: { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) },
      rssMB: +(mem.rss / 2 ** 20).toFixed(1),
      heapUsedMB: +(mem.heapUsed / 2 ** 20).toFixed(1),
      // Where the RSS outside the live heap is: V8's committed pages, Buffers, V8's own malloc.
      heapTotalMB: +(mem.heapTotal / 2 ** 20).toFixed(1),
      heapPhysicalMB: +(heap.total_physical_size / 2 ** 20).toFixed(1),
      externalMB: +(mem.external / 2 ** 20).toFixed(1),
      arrayBuffersMB: +(mem.arrayBuffers / 2 ** 20).toFixed(1),
      v8MallocMB: +(heap.malloced_memory / 2 ** 20).toFixed(1),
      cpuSeconds: +((cpu.user + cpu.system) / 1e6).toFixed(3),
      ...localLoad(),
      // TypeScript files loaded (through tsx): 0 for the compiled server that npm start runs.
      tsModules: Object.keys(require.cache).filter((file) => file.endsWith('.ts')).length,
    };
    delay.reset();
    process.stdout.write(`${JSON.stringify({ loadtestStats: stats })}\n`);
  });
}
