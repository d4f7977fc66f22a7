/**
 * Capacity benchmark: N six-player rooms of colyseus.js bots playing legal moves for S seconds.
 *
 *   npm run loadtest -- --rooms N --seconds S [--pace human|fast] [--endpoint ws://...]
 *                       [--batch 25] [--seed loadtest] [--cpu-prof DIR] [--server-args "--trace-gc ..."]
 *                       [--server-log FILE] [--idle] [--settle 5]
 *
 * Without --endpoint the server runs as its own child process (figures are the server's, not the
 * bots'), with LOADTEST_STATS=1 so it reports its event-loop delay. Rooms are filled in batches
 * (--batch rooms at a time); each host starts its game once six are seated. A finished game is
 * replaced by a new room. `human` pace: a bot that must act waits 1–3 s (seeded); `fast`: at once.
 * Every bot checks every patch it decodes for hidden information (`leaks`). `--idle` seats the bots
 * but never starts the games: what idle lobbies cost the server.
 *
 * Figures cover the measuring window, which opens once every room is filled and --settle seconds
 * have passed (the joins of the ramp leave a backlog that is not the steady state); errors and leaks
 * cover the whole run. Progress lines go to stderr every 5 s; the last line on stdout is one JSON
 * object. The exit code is 1 on any error, leak, stall or server crash, or if nothing was played.
 */
import { createWriteStream } from 'node:fs';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Client, Room } from 'colyseus.js';
import { randInt, seedRng } from '../server/rules';
import { CockroachState } from '../server/schema/CockroachState';
import { chooseMove } from './clientBot';
import { hiddenInfoViolations, PatchChange } from './lib/leakCheck';
import { LatencyHistogram, SizeHistogram } from './lib/latency';
import { Scheduler } from './lib/scheduler';
import { startServerProcess, ServerProcess, ServerStats } from './lib/serverProcess';

const ROOM = 'cockroach-poker';
const SEATS = 6;
const ROOM_STATE = 14;
const ROOM_STATE_PATCH = 15;
const PROGRESS_MS = 5000;

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function intArg(name: string, fallback: number): number {
  const raw = arg(name);
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
  return value;
}

const rooms = intArg('rooms', 20);
const seconds = intArg('seconds', 15);
const batch = intArg('batch', 25);
const pace = arg('pace') ?? 'human';
if (pace !== 'human' && pace !== 'fast') throw new Error('--pace must be human or fast');
const seed = arg('seed') ?? 'loadtest';
const cpuProfDir = arg('cpu-prof');
const serverArgs = (arg('server-args') ?? '').split(' ').filter(Boolean);
const serverLog = arg('server-log');
const idle = process.argv.includes('--idle');
const settleSeconds = Number(arg('settle') ?? 5);
if (!(settleSeconds >= 0)) throw new Error('--settle must be a number of seconds');
const externalEndpoint = arg('endpoint');
/** A playing room that shows no progress this long is stalled (human turns take at most 3 s). */
const STALL_MS = pace === 'human' ? 15_000 : 10_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Bot {
  table: Table;
  seat: number;
  room: Room<CockroachState>;
  id: string;
  /** Highest step this client has decoded. */
  lastStep: number;
  /** Step of the last counted action patch (bytes attribution). */
  byteStep: number;
  /** Step a move is already scheduled for, so one patch never schedules two. */
  scheduledStep: number;
  joinStateSeen: boolean;
  resultSeen: boolean;
  leaving: boolean;
  changes: PatchChange[];
}

/** An action sent and not yet seen by all six clients. */
interface Pending {
  step: number;
  t0: number;
  actor: Bot;
  actorDone: boolean;
  othersLeft: number;
}

interface Table {
  slot: number;
  bots: Bot[];
  pending: Pending[];
  seated: boolean;
  startSent: boolean;
  ended: boolean;
  closing: boolean;
  stalled: boolean;
  lastProgress: number;
}

const NO_CHANGES: PatchChange[] = [];
const rng = seedRng(`${seed}-bots`);
const scheduler = new Scheduler((error) => countError('bot exception', error));
const tables = new Set<Table>();
let client!: Client;
let stopping = false;

// Whole-run counters.
let errors = 0;
const errorKinds: Record<string, number> = {};
let leaks = 0;
const leakSamples: string[] = [];
let stalls = 0;
const joinState = new SizeHistogram();

// Measuring-window figures (reset when the window opens).
let games = 0;
let actions = 0;
const latency = new LatencyHistogram();
/** The same, for the progress line: since the previous line only. */
const recentLatency = new LatencyHistogram();
const fanout = new LatencyHistogram();
const actionPatchBytes = new SizeHistogram();
let otherPatchBytes = 0;

function countError(kind: string, detail?: unknown): void {
  if (stopping) return; // rooms still opening when the window closed fail as the server stops
  errors++;
  errorKinds[kind] = (errorKinds[kind] ?? 0) + 1;
  if (errorKinds[kind] <= 3 && detail !== undefined) console.error(`loadtest: ${kind}:`, detail instanceof Error ? detail.message : detail);
}

function humanDelay(): number {
  return pace === 'human' ? 1000 + randInt(rng, 2001) : 0;
}

function attach(table: Table, room: Room<CockroachState>, seat: number): Bot {
  const bot: Bot = {
    table, seat, room, id: room.sessionId, lastStep: 0, byteStep: 0, scheduledStep: -1,
    joinStateSeen: false, resultSeen: false, leaving: false, changes: NO_CHANGES,
  };
  const state = room.state;
  const decode = state.decode.bind(state);
  state.decode = ((...args: Parameters<CockroachState['decode']>) => {
    const changes = decode(...args);
    bot.changes = changes as unknown as PatchChange[];
    return changes;
  }) as CockroachState['decode'];
  // Registered after colyseus.js's own onmessage: runs once the frame is decoded.
  const ws = (room.connection.transport as unknown as { ws: { addEventListener(t: string, f: (ev: { data: ArrayBuffer }) => void): void } }).ws;
  ws.addEventListener('message', (ev) => onFrame(bot, ev.data));
  room.onStateChange(() => onPatch(bot));
  room.onMessage('error', (m: { code?: string }) => onRefused(bot, m));
  room.onMessage('result', () => onResult(bot));
  room.onMessage('*', (type) => countError(`unexpected message ${String(type)}`));
  room.onLeave((code) => {
    if (!bot.leaving && !stopping) countError(`closed ${code}`);
  });
  room.onError((code, message) => countError(`room error ${code}`, message));
  return bot;
}

function onFrame(bot: Bot, data: ArrayBuffer): void {
  const size = data.byteLength;
  const code = size > 0 ? new Uint8Array(data, 0, 1)[0] : -1;
  if (code === ROOM_STATE && !bot.joinStateSeen) {
    bot.joinStateSeen = true;
    joinState.record(size);
  } else if (code === ROOM_STATE_PATCH) {
    const step = bot.room.state.step;
    if (step > bot.byteStep) {
      bot.byteStep = step;
      actionPatchBytes.record(size);
    } else otherPatchBytes += size;
  }
}

function onPatch(bot: Bot): void {
  const table = bot.table;
  const state = bot.room.state;
  const now = performance.now();
  const step = state.step;
  if (step > bot.lastStep) {
    let settled = false;
    for (const p of table.pending) {
      if (p.step < bot.lastStep || p.step >= step) continue;
      if (p.actor === bot) {
        p.actorDone = true;
        actions++;
        latency.record(now - p.t0);
        recentLatency.record(now - p.t0);
      } else if (--p.othersLeft === 0) fanout.record(now - p.t0);
      if (p.actorDone && p.othersLeft === 0) settled = true;
    }
    if (settled) table.pending = table.pending.filter((p) => !(p.actorDone && p.othersLeft === 0));
    bot.lastStep = step;
    table.lastProgress = now;
  }

  const violations = hiddenInfoViolations(state, bot.id, bot.changes);
  bot.changes = NO_CHANGES;
  if (violations.length > 0) {
    leaks += violations.length;
    for (const v of violations) if (leakSamples.length < 5) leakSamples.push(`${bot.id}: ${v}`);
  }

  if (stopping || table.closing) return;
  if (state.phase === 'lobby') return maybeStart(table);
  if (state.phase !== 'playing') return;
  const round = state.round;
  const active = round.hasCard ? round.holder : round.starter;
  if (active !== bot.id || bot.scheduledStep === step) return;
  bot.scheduledStep = step;
  scheduler.after(humanDelay(), () => act(bot, step));
}

function act(bot: Bot, step: number): void {
  const table = bot.table;
  const state = bot.room.state;
  if (stopping || table.closing || state.phase !== 'playing' || state.step !== step) return;
  const move = chooseMove(state, bot.id, rng);
  if (!move) return;
  table.pending.push({ step, t0: performance.now(), actor: bot, actorDone: false, othersLeft: table.bots.length - 1 });
  bot.room.send(move.type, move.payload);
}

/** A refused action: counted, and the bot tries again so its room does not stall. */
function onRefused(bot: Bot, message: { code?: string }): void {
  countError(`refused ${message?.code ?? '?'}`);
  const table = bot.table;
  table.pending = table.pending.filter((p) => p.actor !== bot || p.actorDone);
  bot.scheduledStep = -1;
  scheduler.after(pace === 'human' ? 1000 : 10, () => onPatch(bot));
}

function maybeStart(table: Table): void {
  const host = table.bots[0];
  if (idle || !table.seated || table.startSent || !host || host.room.state.players.size < SEATS) return;
  table.startSent = true;
  host.room.send('start', {});
}

function onResult(bot: Bot): void {
  const table = bot.table;
  bot.resultSeen = true;
  if (!table.ended) {
    table.ended = true;
    games++;
  }
  if (table.bots.every((b) => b.resultSeen)) void replace(table);
}

async function leaveAll(bots: Bot[]): Promise<void> {
  for (const b of bots) b.leaving = true;
  // One timer for the whole table, not one per bot: a leave the server never confirms gives up.
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all(bots.map((b) => b.room.leave(true).catch(() => undefined))),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, 5000))),
  ]);
  clearTimeout(timer);
}

/** Fills one slot with a new six-player room; false if a join failed (counted as errors). */
async function openTable(slot: number): Promise<boolean> {
  const table: Table = {
    slot, bots: [], pending: [], seated: false, startSent: false, ended: false, closing: false, stalled: false, lastProgress: performance.now(),
  };
  let host: Room<CockroachState>;
  try {
    host = await client.create<CockroachState>(ROOM, { nickname: `b${slot}-0` }, CockroachState);
  } catch (error) {
    countError('create failed', error);
    return false;
  }
  table.bots.push(attach(table, host, 0));
  tables.add(table);
  const joins = await Promise.allSettled(
    Array.from({ length: SEATS - 1 }, (_, i) => client.joinById<CockroachState>(host.roomId, { nickname: `b${slot}-${i + 1}` }, CockroachState)),
  );
  for (const [i, j] of joins.entries()) {
    if (j.status === 'fulfilled') table.bots.push(attach(table, j.value, i + 1));
    else countError('join failed', j.reason);
  }
  if (table.bots.length < SEATS || stopping) {
    await close(table);
    return false;
  }
  table.seated = true;
  table.lastProgress = performance.now();
  maybeStart(table);
  return true;
}

async function close(table: Table): Promise<void> {
  table.closing = true;
  tables.delete(table);
  await leaveAll(table.bots);
}

/** A finished (or failed) game leaves; a new room takes its slot. */
async function replace(table: Table): Promise<void> {
  if (table.closing) return;
  await close(table);
  while (!stopping && !(await openTable(table.slot))) await sleep(1000);
}

function liveClients(): number {
  let n = 0;
  for (const t of tables) n += t.bots.length;
  return n;
}

/** Playing rooms with no progress for STALL_MS are counted once as stalled (an error). */
function checkStalls(): void {
  const now = performance.now();
  for (const t of tables) {
    if (t.stalled || t.closing || !t.seated || now - t.lastProgress < STALL_MS) continue;
    const phase = t.bots[0]?.room.state.phase;
    if (phase === 'ended' || (idle && phase === 'lobby')) continue;
    t.stalled = true;
    stalls++;
    countError('stalled room', `room ${t.bots[0]?.room.roomId} step ${t.bots[0]?.room.state.step} phase ${t.bots[0]?.room.state.phase}`);
  }
}

async function main() {
  const serverStart = performance.now();
  const server: ServerProcess | null = externalEndpoint
    ? null
    : await startServerProcess(
        // Human pace stays within the default per-client rate limit; fast bots would not.
        pace === 'fast' ? { MESSAGE_BURST: '100000', MESSAGES_PER_SECOND: '100000' } : {},
        { stats: true, nodeArgs: ['--expose-gc', ...serverArgs, ...(cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : [])] },
      );
  const endpoint = externalEndpoint ?? server!.endpoint;
  if (server && serverLog) {
    const out = createWriteStream(serverLog);
    server.child.stdout!.pipe(out);
    server.child.stderr!.pipe(out);
  }
  client = new Client(endpoint);
  await sleep(1000);
  const baseline = await server?.stats({ gc: true });
  const baselineRssMB = server?.rssMB() ?? NaN;

  const runStart = performance.now();
  let phase = 'ramp';
  let windowStart = runStart;
  const progress = setInterval(() => {
    checkStalls();
    const t = (performance.now() - (phase === 'ramp' ? runStart : windowStart)) / 1000;
    const l = latency.summary();
    const r = recentLatency.summary();
    recentLatency.reset();
    console.error(
      `loadtest ${phase} ${t.toFixed(0)}s${server ? ` (server +${((performance.now() - serverStart) / 1000).toFixed(0)}s)` : ''}: rooms ${tables.size}/${rooms}, clients ${liveClients()}, games ${games}, actions ${actions} ` +
        `(${(actions / Math.max(t, 0.001)).toFixed(0)}/s), latency p50 ${l.p50} p99 ${l.p99} ms (last ${PROGRESS_MS / 1000} s: p50 ${r.p50} p99 ${r.p99} max ${r.max}), ` +
        `errors ${errors}, leaks ${leaks}` +
        (server ? `, server rss ${server.rssMB().toFixed(0)} MB` : ''),
    );
    if (server?.crashed()) countError('server crashed');
  }, PROGRESS_MS);

  // Ramp up: `batch` rooms at a time, each retried until it is filled.
  for (let first = 0; first < rooms && !server?.crashed(); first += batch) {
    const slots = Array.from({ length: Math.min(batch, rooms - first) }, (_, i) => first + i);
    await Promise.all(slots.map(async (slot) => {
      for (let tries = 0; tries < 5 && !(await openTable(slot)); tries++) await sleep(1000);
    }));
  }
  const rampSeconds = (performance.now() - runStart) / 1000;
  phase = 'settle';
  await sleep(settleSeconds * 1000);

  // Measuring window.
  games = 0;
  actions = 0;
  latency.reset();
  fanout.reset();
  actionPatchBytes.reset();
  otherPatchBytes = 0;
  const cpu0 = server?.cpuSeconds() ?? NaN;
  const botCpu0 = process.cpuUsage();
  const botLoop = monitorEventLoopDelay({ resolution: 10 });
  botLoop.enable();
  await server?.stats(); // resets the server's event-loop histogram
  phase = 'window';
  windowStart = performance.now();
  await sleep(seconds * 1000);
  const windowSeconds = (performance.now() - windowStart) / 1000;
  const cpu1 = server?.cpuSeconds() ?? NaN;
  const botCpu = process.cpuUsage(botCpu0);
  botLoop.disable();
  const endRssMB = server?.rssMB() ?? NaN;
  const serverStats: ServerStats | null = server ? await server.stats() : null;
  // The same rooms after a full GC: what they hold, without the garbage not yet collected.
  const live: ServerStats | null = server ? await server.stats({ gc: true }) : null;
  const clientsAtEnd = liveClients();
  const roomsAtEnd = tables.size;
  checkStalls();
  stopping = true;
  scheduler.stop();
  clearInterval(progress);

  const bytes = actionPatchBytes.summary();
  const report = {
    rooms,
    roomsAtEnd,
    clients: clientsAtEnd,
    pace,
    seconds: +windowSeconds.toFixed(1),
    rampSeconds: +rampSeconds.toFixed(1),
    games,
    actions,
    actionsPerSec: +(actions / windowSeconds).toFixed(1),
    latencyMs: latency.summary(),
    fanoutMs: fanout.summary(),
    bytesPerActionPerClient: bytes.mean,
    patchBytesPerClient: { p50: bytes.p50, p99: bytes.p99, max: bytes.max },
    otherPatchBytes,
    joinStateBytes: joinState.summary().max,
    joinStateBytesP50: joinState.summary().p50,
    serverCpuPct: server ? +((100 * (cpu1 - cpu0)) / windowSeconds).toFixed(1) : null,
    serverRssMB: server ? +endRssMB.toFixed(1) : null,
    serverBaselineRssMB: server ? +baselineRssMB.toFixed(1) : null,
    rssPerRoomKB: server ? +(((endRssMB - baselineRssMB) * 1024) / rooms).toFixed(1) : null,
    serverHeapUsedMB: serverStats?.heapUsedMB ?? null,
    liveHeapPerRoomKB: live && baseline ? +(((live.heapUsedMB - baseline.heapUsedMB) * 1024) / rooms).toFixed(1) : null,
    rssAfterGcMB: live?.rssMB ?? null,
    eventLoopDelayP99Ms: serverStats?.eventLoopDelayMs.p99 ?? null,
    eventLoopDelayMaxMs: serverStats?.eventLoopDelayMs.max ?? null,
    botCpuPct: +((100 * (botCpu.user + botCpu.system)) / 1e6 / windowSeconds).toFixed(1),
    botEventLoopDelayP99Ms: +(botLoop.percentile(99) / 1e6).toFixed(2),
    errors,
    errorKinds: { ...errorKinds },
    stalls,
    leaks,
    leakSamples,
    crashed: server?.crashed() ?? false,
  };

  // Leave politely (an external server would otherwise hold 90 s of reconnection grace).
  const all = [...tables];
  for (let i = 0; i < all.length; i += 200) await Promise.all(all.slice(i, i + 200).map((t) => close(t)));
  await server?.stop();
  console.log(JSON.stringify(report));
  const ok = report.errors === 0 && report.leaks === 0 && !report.crashed && (report.actions > 0 || idle);
  process.exit(ok ? 0 : 1);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
