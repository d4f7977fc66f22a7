/**
 * Opt-in figures for the load-test runner (`LOADTEST_STATS=1`), off by default. The server then
 * reads its stdin line by line; on a line `stats` (or `stats gc`) it prints one JSON line on stdout,
 * `{"loadtestStats":{...}}`, with the event-loop delay since the previous `stats` (and resets
 * it), memory and CPU. No timers, no port: only the process that started the server (and holds
 * its stdin) can ask. (SIGUSR2 cannot be used: Colyseus shuts the server down on it.)
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { matchMaker } from 'colyseus';

export function startLoadtestStats(): void {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const ms = (ns: number) => +(ns / 1e6).toFixed(2);
  createInterface({ input: process.stdin }).on('line', (line) => {
    const [command, option] = line.trim().split(' ');
    if (command !== 'stats') return;
    // `stats gc` first collects garbage when node runs with --expose-gc: the live heap.
    const gc = (globalThis as { gc?: () => void }).gc;
    if (option === 'gc' && gc) gc();
    const mem = process.memoryUsage();
    const cpu = process.cpuUsage();
    const stats = {
      eventLoopDelayMs: { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) },
      rssMB: +(mem.rss / 2 ** 20).toFixed(1),
      heapUsedMB: +(mem.heapUsed / 2 ** 20).toFixed(1),
      cpuSeconds: +((cpu.user + cpu.system) / 1e6).toFixed(3),
      rooms: matchMaker.stats.local.roomCount,
      clients: matchMaker.stats.local.ccu,
      // TypeScript files loaded (through tsx): 0 for the compiled server that npm start runs.
      tsModules: Object.keys(require.cache).filter((file) => file.endsWith('.ts')).length,
    };
    delay.reset();
    process.stdout.write(`${JSON.stringify({ loadtestStats: stats })}\n`);
  });
}
