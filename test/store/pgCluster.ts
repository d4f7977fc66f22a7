// A throwaway PostgreSQL cluster for tests: Debian's binaries (/usr/lib/postgresql/<v>/bin), a data
// dir and the unix socket in a temp folder, TCP on a free loopback port, fsync off. As root, the
// server runs as the `postgres` user (initdb refuses root). Stopped and deleted by stop().
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface TestPostgres {
  url: string;
  port: number;
  /** Stops the server, keeping its data (an outage). */
  pause(): Promise<void>;
  /** Starts it again on the same port with the same data. */
  resume(): Promise<void>;
  /** Stops it and deletes it. */
  stop(): Promise<void>;
}

function binDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length === 0 ? null : path.join(root, versions[0], 'bin');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

/** Starts a cluster, or says why it cannot (the caller skips, or fails under CI). */
export async function startTestPostgres(): Promise<TestPostgres | { reason: string }> {
  const bin = binDir();
  if (!bin) return { reason: 'no PostgreSQL server binaries under /usr/lib/postgresql/*/bin (Debian package postgresql)' };
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cockroach-pg-'));
  const data = path.join(dir, 'data');
  const as = (file: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(bin, file), ...args]) : run(path.join(bin, file), args);
  try {
    if (asRoot) await run('chown', ['-R', 'postgres:postgres', dir]);
    await as('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync']);
    const port = await freePort();
    // fsync off: a stop kills processes, not the machine, so what PostgreSQL handed the kernel survives.
    // synchronous_commit stays on (its default): with it off, a commit (our migration, a delivered
    // record) could still sit in WAL buffers when pause() kills the server, and come back without it.
    const serverOptions = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c full_page_writes=off`;
    const start = () => as('pg_ctl', ['-D', data, '-o', serverOptions, '-l', path.join(dir, 'server.log'), '-w', '-t', '30', 'start']);
    await start();
    return {
      url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
      port,
      pause: async () => void (await as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'])),
      resume: async () => void (await start()),
      stop: async () => {
        await as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    const logFile = path.join(dir, 'server.log');
    const tail = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(-500) : '';
    fs.rmSync(dir, { recursive: true, force: true });
    return { reason: `could not start PostgreSQL: ${(error as Error).message} ${tail}` };
  }
}

/** For a suite's before(): the cluster, or skip (fail under CI, where PostgreSQL must be there). */
export async function requireTestPostgres(ctx: Mocha.Context): Promise<TestPostgres> {
  const found = await startTestPostgres();
  if ('reason' in found) {
    if (process.env.CI) throw new Error(`CI must run the PostgreSQL tests, but: ${found.reason}`);
    console.log(`      SKIPPED (no PostgreSQL): ${found.reason}`);
    ctx.skip();
  }
  return found as TestPostgres;
}
