import { spawn, ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The load tool's agent inside the server process (loadtest/agent/stats.mjs). */
export const STATS_AGENT = pathToFileURL(path.resolve(__dirname, '..', 'agent', 'stats.mjs')).href;

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  /** The internal listener's port (OPS_PORT, for /metrics), when started with `{ metrics: true }`; else null. */
  opsPort: number | null;
  endpoint: string;
  /** True once the process exited without being asked to. */
  crashed(): boolean;
  rssMB(): number;
  /** CPU seconds (user + system) used so far. */
  cpuSeconds(): number;
  /** The same, split: user and system time, and the event loop's thread alone (the rest is GC helpers, workers, libuv). */
  cpuSplit(): { user: number; system: number; mainThread: number };
  /** Read and write system calls so far (/proc/<pid>/io: every socket read, every write or writev). */
  syscalls(): { reads: number; writes: number };
  /**
   * The server's own figures (event-loop delay since the last call, which it then resets); only
   * when started with `{ stats: true }`, else null. `gc`: collect garbage first (the server must
   * run with --expose-gc) to read the live heap.
   */
  stats(options?: { gc?: boolean }): Promise<ServerStats | null>;
  stop(): Promise<void>;
}

/** What loadtest/agent/stats.mjs prints. */
export interface ServerStats {
  eventLoopDelayMs: { p50: number; p99: number; max: number };
  rssMB: number;
  heapUsedMB: number;
  heapTotalMB: number;
  heapPhysicalMB: number;
  externalMB: number;
  arrayBuffersMB: number;
  v8MallocMB: number;
  /** TypeScript files in the module cache: 0 for the compiled server. */
  tsModules: number;
}

export interface ServerProcessOptions {
  /** Extra node flags before the script, e.g. ['--expose-gc']. */
  nodeArgs?: string[];
  /** Loads the stats agent into the server and keeps its stdin to ask for `stats()`. */
  stats?: boolean;
  /** Opens the internal listener (OPS_PORT) on a free port: /metrics, e.g. the records' queue. */
  metrics?: boolean;
  /** Another checkout whose server to run (its own node_modules); default this one. */
  root?: string;
  /** CPUs the server may run on (`taskset -c` list, e.g. '0'); default any. */
  cpus?: string;
}

/**
 * The node arguments that run `root`'s server as `npm start` does: build/index.js (built first when
 * missing or stale); a checkout from before issue 25 (no scripts/build.js) runs from source.
 */
export function serverEntry(root: string): string[] {
  const builder = path.join(root, 'scripts', 'build.js');
  if (existsSync(builder)) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    (require(builder) as { ensureBuilt(log?: (line: string) => void): boolean }).ensureBuilt(() => undefined);
    return [path.join('build', 'index.js')];
  }
  return ['--import', 'tsx', path.join('server', 'index.ts')];
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/**
 * Starts `npm start`'s server (the compiled one, see `serverEntry`) as a child process (so figures
 * are the server's own, not the bots'), on a free port, and resolves once it listens.
 */
export async function startServerProcess(env: Record<string, string> = {}, options: ServerProcessOptions = {}): Promise<ServerProcess> {
  const port = await freePort();
  let opsPort = options.metrics ? await freePort() : null;
  while (opsPort === port) opsPort = await freePort();
  const root = options.root ? path.resolve(options.root) : path.resolve(__dirname, '..', '..');
  const agent = options.stats ? ['--import', STATS_AGENT] : [];
  const argv = [process.execPath, ...(options.nodeArgs ?? []), ...agent, ...serverEntry(root)];
  // taskset execs node in its own process: the pid, /proc figures and signals stay the server's.
  const [command, ...args] = options.cpus ? ['taskset', '-c', options.cpus, ...argv] : argv;
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...env, ...(opsPort !== null ? { OPS_PORT: String(opsPort) } : {}), PORT: String(port) },
    stdio: [options.stats ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  const statsWaiters: ((s: ServerStats) => void)[] = [];
  let stdoutTail = '';
  child.stdout!.on('data', (d: Buffer) => {
    const lines = (stdoutTail + d.toString()).split('\n');
    stdoutTail = lines.pop()!;
    for (const line of lines) {
      if (line.startsWith('{"loadtestStats"')) statsWaiters.shift()?.(JSON.parse(line).loadtestStats);
    }
  });
  let stopping = false;
  let exited = false;
  child.on('exit', () => (exited = true));
  child.stderr!.on('data', (d) => process.stderr.write(`[server] ${d}`));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      if (d.toString().includes('listening')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`server exited early (${code})`)));
  });
  const procStat = () => readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const ticks = 100; // USER_HZ on Linux
  return {
    child,
    port,
    opsPort,
    endpoint: `ws://127.0.0.1:${port}`,
    crashed: () => exited && !stopping,
    rssMB: () => {
      const line = readFileSync(`/proc/${child.pid}/status`, 'utf8')
        .split('\n')
        .find((l) => l.startsWith('VmRSS:'));
      return line ? Number(line.split(/\s+/)[1]) / 1024 : NaN;
    },
    cpuSeconds: () => {
      const fields = procStat();
      return (Number(fields[11]) + Number(fields[12])) / ticks;
    },
    cpuSplit: () => {
      const fields = procStat();
      const main = readFileSync(`/proc/${child.pid}/task/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return {
        user: Number(fields[11]) / ticks,
        system: Number(fields[12]) / ticks,
        mainThread: (Number(main[11]) + Number(main[12])) / ticks,
      };
    },
    syscalls: () => {
      const io = readFileSync(`/proc/${child.pid}/io`, 'utf8');
      const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(io)?.[1] ?? NaN);
      return { reads: field('syscr'), writes: field('syscw') };
    },
    stats: (request = {}) => {
      if (!options.stats || exited) return Promise.resolve(null);
      return new Promise<ServerStats | null>((resolve) => {
        const waiter = (s: ServerStats) => (clearTimeout(timer), resolve(s));
        const timer = setTimeout(() => {
          statsWaiters.splice(statsWaiters.indexOf(waiter), 1);
          resolve(null);
        }, 10_000);
        statsWaiters.push(waiter);
        child.stdin!.write(request.gc ? 'stats gc\n' : 'stats\n');
      });
    },
    stop: () =>
      new Promise<void>((resolve) => {
        stopping = true;
        if (exited) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
