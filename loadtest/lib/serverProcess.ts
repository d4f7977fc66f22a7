import { spawn, ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export interface ServerProcess {
  child: ChildProcess;
  port: number;
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
   * The server's own figures (event-loop delay since the last call, which it then resets);
   * only when started with `{ stats: true }` (LOADTEST_STATS=1), else null. `gc`: collect
   * garbage first (the server must run with --expose-gc) to read the live heap.
   */
  stats(options?: { gc?: boolean }): Promise<ServerStats | null>;
  /**
   * Starts sampling the server's allocations (`promoted`: only those that outlive the young
   * generation), or stops and writes them to `file` (resolves once written).
   */
  allocations(file: string | null, kind?: 'all' | 'promoted'): Promise<void>;
  /** Asks for (or stops) the server's per-second timeline lines (server/loadtestStats.ts); each one goes to `onSample`. */
  timeline(onSample: ((sample: Record<string, unknown>) => void) | null): void;
  stop(): Promise<void>;
}

/** What server/loadtestStats.ts prints. */
export interface ServerStats {
  eventLoopDelayMs: { p50: number; p99: number; max: number };
  rssMB: number;
  heapUsedMB: number;
  heapTotalMB?: number;
  heapPhysicalMB?: number;
  externalMB?: number;
  arrayBuffersMB?: number;
  v8MallocMB?: number;
  cpuSeconds: number;
  rooms: number;
  clients: number;
}

export interface ServerProcessOptions {
  /** Extra node flags before the script, e.g. ['--cpu-prof', '--cpu-prof-dir=prof']. */
  nodeArgs?: string[];
  /** Sets LOADTEST_STATS=1 and keeps the server's stdin to ask for `stats()`. */
  stats?: boolean;
  /** Another checkout whose server to run (its own node_modules); default this one. */
  root?: string;
  /**
   * `build` (default): the compiled server as `npm start` runs it (build/index.js, built first when
   * missing or stale); a checkout from before issue 25 (no scripts/build.js) runs from source.
   * `source`: server/index.ts through tsx.
   */
  entry?: 'build' | 'source';
  /** CPUs the server may run on (`taskset -c` list, e.g. '0'); default any. */
  cpus?: string;
}

/** The node arguments that run `root`'s server: compiled when the checkout can build, else through tsx. */
export function serverEntry(root: string, entry: 'build' | 'source' = 'build'): string[] {
  const builder = path.join(root, 'scripts', 'build.js');
  if (entry === 'build' && existsSync(builder)) {
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
 * Starts `npm start`'s server (the compiled one, see `entry`) as a child process (so figures are
 * the server's own, not the bots'), on a free port, and resolves once it listens.
 */
export async function startServerProcess(env: Record<string, string> = {}, options: ServerProcessOptions = {}): Promise<ServerProcess> {
  const port = await freePort();
  const root = options.root ? path.resolve(options.root) : path.resolve(__dirname, '..', '..');
  const argv = [process.execPath, ...(options.nodeArgs ?? []), ...serverEntry(root, options.entry)];
  // taskset execs node in its own process: the pid, /proc figures and signals stay the server's.
  const [command, ...args] = options.cpus ? ['taskset', '-c', options.cpus, ...argv] : argv;
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...env, ...(options.stats ? { LOADTEST_STATS: '1' } : {}), PORT: String(port) },
    stdio: [options.stats ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  const statsWaiters: ((s: ServerStats) => void)[] = [];
  let onTimeline: ((sample: Record<string, unknown>) => void) | null = null;
  const allocationWaiters: (() => void)[] = [];
  let stdoutTail = '';
  child.stdout!.on('data', (d: Buffer) => {
    const lines = (stdoutTail + d.toString()).split('\n');
    stdoutTail = lines.pop()!;
    for (const line of lines) {
      if (line.startsWith('{"loadtestTimeline"')) onTimeline?.(JSON.parse(line).loadtestTimeline);
      if (line.startsWith('{"loadtestAllocations"')) allocationWaiters.shift()?.();
      if (!line.startsWith('{"loadtestStats"')) continue;
      statsWaiters.shift()?.(JSON.parse(line).loadtestStats);
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
    allocations: (file, kind = 'all') => {
      if (!options.stats || exited) return Promise.resolve();
      if (file === null) {
        child.stdin!.write(kind === 'promoted' ? 'allocations promoted\n' : 'allocations start\n');
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => {
        allocationWaiters.push(resolve);
        child.stdin!.write(`allocations stop ${path.resolve(file)}\n`);
      });
    },
    timeline: (onSample) => {
      if (!options.stats || exited) return;
      onTimeline = onSample;
      child.stdin!.write(onSample ? 'timeline\n' : 'timeline stop\n');
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
