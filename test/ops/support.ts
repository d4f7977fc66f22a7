import { spawn, spawnSync, ChildProcess } from 'node:child_process';
import net from 'node:net';
import { Client, Room } from 'colyseus.js';
import { CockroachState } from '../../server/schema/CockroachState';
import { seedRng, RngState } from '../../server/rules';
import { chooseMove } from '../../loadtest/clientBot';
import { freePort, ServerProcess } from '../../loadtest/lib/serverProcess';
import { Tracked } from '../support/server';

export const ROOM = 'cockroach-poker';

// ---------- Redis for the multi-process test ----------

export interface TestRedis {
  url: string;
  /** How it was found: a redis-server started by the test, or REDIS_URL. */
  source: 'spawned' | 'REDIS_URL';
  stop(): Promise<void>;
}

/** Sends PING over a raw socket; true on +PONG within `ms`. */
export function redisPing(host: string, port: number, ms = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), ms);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (d) => done(d.toString().startsWith('+PONG')));
    socket.once('error', () => done(false));
  });
}

function hasRedisServerBinary(): boolean {
  const probe = spawnSync('redis-server', ['--version'], { stdio: 'ignore' });
  return probe.error === undefined && probe.status === 0;
}

/**
 * A private redis-server on a free loopback port (no persistence), when the binary exists;
 * else the Redis at REDIS_URL if it answers PING; else null, with the reason. `port`: that port
 * instead (a Redis restarted empty where the old one was).
 */
export async function startTestRedis(atPort?: number): Promise<TestRedis | { reason: string }> {
  if (hasRedisServerBinary()) {
    const port = atPort ?? (await freePort());
    const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    let exited = false;
    child.on('exit', () => (exited = true));
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline && !exited) {
      if (await redisPing('127.0.0.1', port, 200)) {
        return {
          url: `redis://127.0.0.1:${port}`,
          source: 'spawned',
          stop: () =>
            new Promise<void>((resolve) => {
              if (exited) return resolve();
              child.once('exit', () => resolve());
              child.kill('SIGTERM');
            }),
        };
      }
      await sleep(50);
    }
    child.kill('SIGKILL');
    return { reason: `redis-server was found but did not answer on 127.0.0.1:${port}` };
  }
  const url = process.env.REDIS_URL;
  if (url) {
    const parsed = new URL(url);
    if (await redisPing(parsed.hostname, Number(parsed.port || 6379))) return { url, source: 'REDIS_URL', stop: async () => undefined };
    return { reason: `no redis-server binary, and REDIS_URL=${url} does not answer PING` };
  }
  return { reason: 'no redis-server binary on PATH and no REDIS_URL (install it: apt-get install -y redis-server)' };
}

/** For a suite's before(): a Redis, or skip (fail under CI, where redis-server must be there). */
export async function requireTestRedis(ctx: Mocha.Context, what = 'the Redis tests'): Promise<TestRedis> {
  const found = await startTestRedis();
  if ('reason' in found) {
    if (process.env.CI) throw new Error(`CI must run ${what}, but Redis is unavailable: ${found.reason}`);
    console.log(`      SKIPPED (no Redis): ${found.reason}`);
    ctx.skip();
  }
  return found as TestRedis;
}

// ---------- HTTP and metrics ----------

export async function httpGet(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; headers: Headers }> {
  const res = await fetch(url, { headers });
  return { status: res.status, body: await res.text(), headers: res.headers };
}

/** Prometheus text → { 'name{label="v"}': value } (labels as printed). */
export function parseMetrics(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    out.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return out;
}

export async function scrape(port: number): Promise<Map<string, number>> {
  const res = await httpGet(`http://127.0.0.1:${port}/metrics`);
  if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`);
  return parseMetrics(res.body);
}

/** Sum of every series of `name` whose labels include all of `labels`. */
export function metric(m: Map<string, number>, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const [key, value] of m) {
    const brace = key.indexOf('{');
    const base = brace < 0 ? key : key.slice(0, brace);
    if (base !== name) continue;
    if (Object.entries(labels).every(([k, v]) => key.includes(`${k}="${v}"`))) sum += value;
  }
  return sum;
}

// ---------- child processes ----------

/** Every stdout line of a child process from now on. */
export function collectLines(proc: ServerProcess): string[] {
  const lines: string[] = [];
  let tail = '';
  proc.child.stdout!.on('data', (d: Buffer) => {
    const parts = (tail + d.toString()).split('\n');
    tail = parts.pop()!;
    lines.push(...parts.filter((l) => l !== ''));
  });
  return lines;
}

export function exitCode(proc: ServerProcess): Promise<number | null> {
  if (proc.child.exitCode !== null) return Promise.resolve(proc.child.exitCode);
  return new Promise((resolve) => proc.child.once('exit', (code) => resolve(code)));
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function waitFor(test: () => boolean | Promise<boolean>, what: string, ms = 10000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

// ---------- clients ----------

export async function createAt(endpoint: string, options: Record<string, unknown>, label: string): Promise<Tracked> {
  return new Tracked(await new Client(endpoint).create<CockroachState>(ROOM, options, CockroachState), label);
}

export async function joinAt(endpoint: string, roomId: string, options: Record<string, unknown>, label: string): Promise<Tracked> {
  return new Tracked(await new Client(endpoint).joinById<CockroachState>(roomId, options, CockroachState), label);
}

/** The port of the process a client's WebSocket went to (its room's process). */
export function socketPort(room: Room): number {
  const url = (room.connection.transport as unknown as { ws: { url: string } }).ws.url;
  return Number(new URL(url).port);
}

/**
 * Plays the game in progress to its end with the client bot (each move chosen from the mover's
 * own decoded state), waiting after each move until every client has decoded it. `beforeMove`
 * may swap clients (reconnects); it gets the number of moves played so far.
 */
export async function playToEnd(
  clients: () => Tracked[],
  seed: string,
  beforeMove: (moves: number) => Promise<void> = async () => undefined,
): Promise<number> {
  const rng: RngState = seedRng(seed);
  let moves = 0;
  for (;;) {
    await beforeMove(moves);
    const all = clients();
    const step = Math.max(...all.map((c) => c.state.step));
    await Promise.all(all.map((c) => c.until(() => c.state.step === step, `${c.label} at step ${step}`)));
    if (all[0].state.phase !== 'playing') return moves;
    const mover = all.find((c) => chooseMove(c.state, c.id, rng) !== null);
    if (!mover) throw new Error(`nobody can move at step ${step}`);
    const move = chooseMove(mover.state, mover.id, rng)!;
    mover.room.send(move.type, move.payload);
    await Promise.all(
      all.map((c) => c.until(() => c.state.step > step || c.messagesOf('error').length > 0, `${c.label} past step ${step}`)),
    );
    const errors = all.flatMap((c) => c.messagesOf('error'));
    if (errors.length > 0) throw new Error(`refused: ${JSON.stringify(errors)}`);
    moves++;
  }
}
