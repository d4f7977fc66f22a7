/**
 * The load tool's eyes inside the server process, loaded by node before the server starts
 * (`node --import <this file> build/index.js`; loadtest/lib/serverProcess.ts adds it when asked for
 * `stats`). The server knows nothing of it. Plain JavaScript, so that the compiled server still runs
 * without a TypeScript loader.
 *
 * It reads the process's stdin line by line; on `stats` (or `stats gc`: after a full collection,
 * when node runs with --expose-gc, i.e. the live heap) it prints one line on stdout,
 * `{"loadtestStats":{...}}`: the event-loop delay since the previous `stats` (then reset), RSS,
 * heap in use and where the RSS outside it is, and how many TypeScript files are loaded (0 for the
 * compiled server). No port: only the process holding the server's stdin can ask. (Not a signal:
 * Colyseus shuts down on SIGUSR2.)
 */
import { createRequire } from 'node:module';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { getHeapStatistics } from 'node:v8';

const ms = (ns) => +(ns / 1e6).toFixed(2);
const mb = (bytes) => +(bytes / 2 ** 20).toFixed(1);
// The one CommonJS module cache of the process: the server's modules, compiled or through tsx.
const moduleCache = createRequire(import.meta.url).cache;

const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();

createInterface({ input: process.stdin }).on('line', (line) => {
  const [command, option] = line.trim().split(' ');
  if (command !== 'stats') return;
  const gc = globalThis.gc;
  if (option === 'gc' && typeof gc === 'function') gc();
  const memory = process.memoryUsage();
  const heap = getHeapStatistics();
  const stats = {
    eventLoopDelayMs: { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) },
    rssMB: mb(memory.rss),
    heapUsedMB: mb(memory.heapUsed),
    // Where the RSS outside the live heap is: V8's committed pages, Buffers, V8's own malloc.
    heapTotalMB: mb(memory.heapTotal),
    heapPhysicalMB: mb(heap.total_physical_size),
    externalMB: mb(memory.external),
    arrayBuffersMB: mb(memory.arrayBuffers),
    v8MallocMB: mb(heap.malloced_memory),
    tsModules: Object.keys(moduleCache).filter((file) => file.endsWith('.ts')).length,
  };
  delay.reset();
  process.stdout.write(`${JSON.stringify({ loadtestStats: stats })}\n`);
});
