/**
 * The fault drills' harness (issue 23 item 7): a redis-server we can kill and start again on the
 * same port (empty: no persistence), `npm start` processes on it, raw matchmaking requests with
 * their status and time, and every log line the processes wrote.
 */
import { spawn, ChildProcess, spawnSync } from 'node:child_process';
import Redis from 'ioredis';
import { freePort, startServerProcess, ServerProcess } from '../../loadtest/lib/serverProcess';
import { Client } from 'colyseus.js';
import { CockroachState } from '../../server/schema/CockroachState';
import { Tracked } from '../support/server';
import { redisPing, sleep, socketPort } from '../ops/support';

export const ROOM = 'cockroach-poker';

export function hasRedisServer(): boolean {
  const probe = spawnSync('redis-server', ['--version'], { stdio: 'ignore' });
  return probe.error === undefined && probe.status === 0;
}

/** A redis-server on a fixed loopback port that can crash and come back empty. */
export class DrillRedis {
  private child: ChildProcess | null = null;
  private constructor(readonly port: number) {}

  static async start(): Promise<DrillRedis> {
    const redis = new DrillRedis(await freePort());
    await redis.up();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts it (empty) and resolves once it answers PING. */
  async up(): Promise<void> {
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    this.child = child;
    const deadline = Date.now() + 10_000;
    while (!(await redisPing('127.0.0.1', this.port, 200))) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server did not start on ${this.port}`);
      await sleep(25);
    }
  }

  /** A crash: SIGKILL, every connection reset, every key gone. Resolves once it is down. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }

  /** Its process id (SIGSTOP/SIGCONT: a Redis that stops answering without closing a connection). */
  pid(): number {
    if (!this.child?.pid) throw new Error('redis-server is not running');
    return this.child.pid;
  }

  client(): Redis {
    const client = new Redis(this.url, { maxRetriesPerRequest: 1, retryStrategy: (n) => Math.min(n * 100, 500) });
    client.on('error', () => undefined);
    return client;
  }
}

/** A server process with every stdout and stderr line it wrote since it listened. */
export interface DrillProcess {
  proc: ServerProcess;
  label: string;
  processId: string;
  endpoint: string;
  http: string;
  lines: string[];
}

export async function startDrillProcess(label: string, redisUrl: string, env: Record<string, string> = {}): Promise<DrillProcess> {
  const proc = await startServerProcess({
    REDIS_URL: redisUrl,
    PUBLIC_ADDRESS: '',
    LOG_LEVEL: 'info',
    OPS_ON_PUBLIC_PORT: '1',
    RATE_LIMITS: 'off',
    MESSAGE_BURST: '1000000',
    MESSAGES_PER_SECOND: '1000000',
    DRAIN_SECONDS: '0', // the drills' stop cuts running games at once
    ALLOW_PER_PROCESS_RECORDS: '1', // no PostgreSQL here; the drills read no record
    ...env,
  });
  const lines: string[] = [];
  for (const stream of [proc.child.stdout!, proc.child.stderr!]) {
    let tail = '';
    stream.on('data', (d: Buffer) => {
      const parts = (tail + d.toString()).split('\n');
      tail = parts.pop()!;
      lines.push(...parts.filter((l) => l !== ''));
    });
  }
  const http = `http://127.0.0.1:${proc.port}`;
  const ready = await fetch(`${http}/ready`);
  const processId = ((await ready.json()) as { processId: string }).processId;
  return { proc, label, processId, endpoint: proc.endpoint, http, lines };
}

/** For a drill's before(): its Redis and two processes A and B on it (CI fails where redis-server is missing; elsewhere the drill skips). */
export async function startDrillCluster(
  ctx: Mocha.Context,
  env: Record<string, string> = {},
): Promise<{ redis: DrillRedis; a: DrillProcess; b: DrillProcess }> {
  if (!hasRedisServer()) {
    if (process.env.CI) throw new Error('CI must run the drills: redis-server is missing');
    ctx.skip();
  }
  const redis = await DrillRedis.start();
  const [a, b] = await Promise.all([startDrillProcess('A', redis.url, env), startDrillProcess('B', redis.url, env)]);
  return { redis, a, b };
}

/**
 * A two-player game across the processes: the host creates on A (the room lands on either), the
 * guest joins through the other process, and the game starts. `track` keeps each client for after().
 */
export async function startCrossProcessGame(
  a: DrillProcess,
  b: DrillProcess,
  track: (c: Tracked) => Tracked,
): Promise<{ host: Tracked; guest: Tracked; owner: DrillProcess; other: DrillProcess }> {
  const host = track(new Tracked(await new Client(a.endpoint).create<CockroachState>(ROOM, { nickname: 'host' }, CockroachState), 'host'));
  const owner = socketPort(host.room) === a.proc.port ? a : b;
  const other = owner === a ? b : a;
  const guest = track(
    new Tracked(
      await new Client(other.endpoint).joinById<CockroachState>(host.room.roomId, { nickname: 'guest' }, CockroachState),
      'guest',
    ),
  );
  await host.until(() => host.state.players.size === 2, 'two seated');
  host.room.send('start', {});
  await host.until(() => host.state.phase === 'playing', 'started');
  return { host, guest, owner, other };
}

export interface Answer {
  status: number;
  body: { code?: string | number; error?: string; room?: { roomId: string; processId: string }; sessionId?: string } & Record<
    string,
    unknown
  >;
  ms: number;
}

/** One raw matchmaking request, as colyseus.js sends it. Network failures are status 0. */
export async function matchmake(
  http: string,
  method: string,
  target: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const started = Date.now();
  try {
    const res = await fetch(`${http}/matchmake/${method}/${target}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : {}, ms: Date.now() - started };
  } catch {
    return { status: 0, body: {}, ms: Date.now() - started };
  }
}

export async function listing(
  http: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; rooms: { roomId: string; processId: string }[] }> {
  try {
    const res = await fetch(`${http}/matchmake/${ROOM}`, {
      headers: { Accept: 'application/json', ...headers },
      signal: AbortSignal.timeout(15_000),
    });
    const body = (await res.json()) as unknown;
    return { status: res.status, rooms: Array.isArray(body) ? (body as { roomId: string; processId: string }[]) : [] };
  } catch {
    return { status: 0, rooms: [] };
  }
}

/** Polls `test` until true; resolves with the time it took. Fails past `ms`. */
export async function within(ms: number, what: string, test: () => boolean | Promise<boolean>, every = 100): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await test()) return Date.now() - started;
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms: ${what}`);
    await sleep(every);
  }
}

/** Prometheus text → the value of one unlabelled series (NaN when absent). */
export async function gauge(http: string, name: string): Promise<number> {
  const text = await (await fetch(`${http}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.slice(name.length + 1)) : NaN;
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
