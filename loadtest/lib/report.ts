/** The load run's progress line (stderr, every few seconds) and its final one-line JSON report. */
import { Figures } from './figures';
import { RecordsQueueFigures } from './recordsQueue';
import { ServerStats } from './serverProcess';

export interface ProgressInputs {
  phase: string;
  /** Seconds since the phase's start (the ramp's, or the window's). */
  seconds: number;
  serverSeconds: number | null;
  rooms: number;
  roomsAsked: number;
  clients: number;
  serverRssMB: number | null;
  intervalSeconds: number;
}

/** One progress line; resets the "last interval" latency histogram. */
export function progressLine(f: Figures, p: ProgressInputs): string {
  const l = f.latency.summary();
  const r = f.recentLatency.summary();
  f.recentLatency.reset();
  return (
    `loadtest ${p.phase} ${p.seconds.toFixed(0)}s${p.serverSeconds !== null ? ` (server +${p.serverSeconds.toFixed(0)}s)` : ''}: rooms ${p.rooms}/${p.roomsAsked}, clients ${p.clients}, games ${f.games}, actions ${f.actions} ` +
    `(${(f.actions / Math.max(p.seconds, 0.001)).toFixed(0)}/s), latency p50 ${l.p50} p99 ${l.p99} ms (last ${p.intervalSeconds} s: p50 ${r.p50} p99 ${r.p99} max ${r.max}), ` +
    `errors ${f.errors}, leaks ${f.leaks}` +
    (p.serverRssMB !== null ? `, server rss ${p.serverRssMB.toFixed(0)} MB` : '')
  );
}

/** What the run measured of the server (null with --endpoint) and of the bots' own process. */
export interface Measured {
  rooms: number;
  roomsAtEnd: number;
  clients: number;
  pace: string;
  /** `decoding` or `lean` (lib/tables.ts): lean clients check no patch for leaks after the deal. */
  clientKind: string;
  windowSeconds: number;
  /** From the first room opened until every room was filled (six seated). */
  rampSeconds: number;
  /** Rooms opened per second during the ramp, or null when opened in batches. */
  rate: number | null;
  batch: number;
  /** The server's records' queue over the run (null with --endpoint). */
  records: RecordsQueueFigures | null;
  server: null | {
    cpuSeconds: number;
    /** The kernel's share of cpuSeconds (socket system calls; on loopback also the peer's TCP receive). */
    cpuSystemSeconds: number;
    /** The event loop's own thread; the rest of cpuSeconds is V8's GC helpers, the disk worker and libuv's pool. */
    cpuMainThreadSeconds: number;
    /** Read and write system calls in the window (socket reads; writes and writevs). */
    syscalls: { reads: number; writes: number } | null;
    endRssMB: number;
    baselineRssMB: number;
    /** Right after the window, and after a full GC (live heap), and at the idle start after a GC. */
    stats: ServerStats | null;
    live: ServerStats | null;
    baseline: ServerStats | null;
  };
  botCpuMicros: number;
  botCpuSystemMicros: number;
  botLoopP99Ns: number;
  crashed: boolean;
}

/**
 * The one JSON line. Its fields come in groups, in this order: the run, what the bots saw (latency,
 * bytes), the server (CPU, memory, event loop; null with --endpoint), the bots' own process, and
 * what went wrong.
 */
export function buildReport(f: Figures, m: Measured) {
  const bytes = f.actionPatchBytes.summary();
  const s = m.server;
  const cpuPerAction = s && f.actions > 0 ? +((s.cpuSeconds * 1e6) / f.actions).toFixed(0) : null;
  return {
    rooms: m.rooms,
    roomsAtEnd: m.roomsAtEnd,
    clients: m.clients,
    pace: m.pace,
    clientKind: m.clientKind,
    seconds: +m.windowSeconds.toFixed(1),
    rampSeconds: +m.rampSeconds.toFixed(1),
    rampRate: m.rate,
    rampBatch: m.rate === null ? m.batch : null,
    games: f.games,
    actions: f.actions,
    actionsPerSec: +(f.actions / m.windowSeconds).toFixed(1),
    latencyMs: f.latency.summary(),
    fanoutMs: f.fanout.summary(),
    bytesPerActionPerClient: bytes.mean,
    patchBytesPerClient: { p50: bytes.p50, p99: bytes.p99, max: bytes.max },
    otherPatchBytes: f.otherPatchBytes,
    joinStateBytes: f.joinState.summary().max,
    joinStateBytesP50: f.joinState.summary().p50,
    serverCpuPct: s ? +((100 * s.cpuSeconds) / m.windowSeconds).toFixed(1) : null,
    serverCpuPerActionUs: cpuPerAction,
    serverMainThreadCpuPerActionUs:
      s && f.actions > 0 && Number.isFinite(s.cpuMainThreadSeconds) ? +((s.cpuMainThreadSeconds * 1e6) / f.actions).toFixed(0) : null,
    serverSystemCpuPerActionUs:
      s && f.actions > 0 && Number.isFinite(s.cpuSystemSeconds) ? +((s.cpuSystemSeconds * 1e6) / f.actions).toFixed(0) : null,
    // System calls per action: the socket writes and reads behind it, whatever else runs on the machine.
    serverWritesPerAction: s?.syscalls && f.actions > 0 ? +(s.syscalls.writes / f.actions).toFixed(2) : null,
    serverReadsPerAction: s?.syscalls && f.actions > 0 ? +(s.syscalls.reads / f.actions).toFixed(2) : null,
    serverRssMB: s ? +s.endRssMB.toFixed(1) : null,
    serverBaselineRssMB: s ? +s.baselineRssMB.toFixed(1) : null,
    rssPerRoomKB: s ? +(((s.endRssMB - s.baselineRssMB) * 1024) / m.rooms).toFixed(1) : null,
    serverHeapUsedMB: s?.stats?.heapUsedMB ?? null,
    liveHeapPerRoomKB: s?.live && s.baseline ? +(((s.live.heapUsedMB - s.baseline.heapUsedMB) * 1024) / m.rooms).toFixed(1) : null,
    rssAfterGcMB: s?.live?.rssMB ?? null,
    // At the end of the window, and after a full GC: the RSS beside the heap in use.
    serverMemoryMB: s?.stats ? memoryOf(s.stats) : null,
    serverMemoryAfterGcMB: s?.live ? memoryOf(s.live) : null,
    eventLoopDelayP99Ms: s?.stats?.eventLoopDelayMs.p99 ?? null,
    eventLoopDelayMaxMs: s?.stats?.eventLoopDelayMs.max ?? null,
    botCpuPct: +((100 * m.botCpuMicros) / 1e6 / m.windowSeconds).toFixed(1),
    botSystemCpuPct: +((100 * m.botCpuSystemMicros) / 1e6 / m.windowSeconds).toFixed(1),
    botEventLoopDelayP99Ms: +(m.botLoopP99Ns / 1e6).toFixed(2),
    errors: f.errors,
    errorKinds: { ...f.errorKinds },
    records: m.records ? { ...m.records } : null,
    stalls: f.stalls,
    leaks: f.leaks,
    leakSamples: f.leakSamples,
    crashed: m.crashed,
  };
}

export type Report = ReturnType<typeof buildReport>;

function memoryOf(m: ServerStats) {
  return {
    rss: m.rssMB,
    heapUsed: m.heapUsedMB,
    heapTotal: m.heapTotalMB ?? null,
    heapPhysical: m.heapPhysicalMB ?? null,
    external: m.externalMB ?? null,
    arrayBuffers: m.arrayBuffersMB ?? null,
    v8Malloc: m.v8MallocMB ?? null,
  };
}

/**
 * The report for people (stderr, before the JSON line): the ramp, what was played, errors by
 * kind, the records' queue and the server's cost, one line each.
 */
export function summaryLines(r: Report): string[] {
  const kinds = Object.entries(r.errorKinds).sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
  const q = r.records;
  const cpu = r.serverCpuPct === null ? null : `${r.serverCpuPct} % CPU, ${r.serverCpuPerActionUs ?? '-'} µs/action`;
  return [
    `loadtest: ${r.rooms} rooms of ${r.clientKind} clients at ${r.pace} pace (${r.roomsAtEnd} rooms, ${r.clients} clients at the end)`,
    `  ramp: ${r.rampSeconds} s from the first room opened until all were filled (${r.rampRate === null ? `${r.rampBatch} at a time` : `${r.rampRate} rooms/s`})`,
    `  window: ${r.seconds} s, ${r.games} games, ${r.actions} actions (${r.actionsPerSec}/s), latency p50 ${r.latencyMs.p50} p99 ${r.latencyMs.p99} max ${r.latencyMs.max} ms`,
    `  errors: ${r.errors}${kinds.length ? ` (${kinds.map(([kind, n]) => `${kind}: ${n}`).join(', ')})` : ''}; stalls ${r.stalls}, leaks ${r.leaks}${r.crashed ? ', SERVER CRASHED' : ''}`,
    q
      ? `  records' queue: at most ${q.waitingMax} waiting for the disk, oldest wait ${q.oldestWaitMaxMs ?? '-'} ms (every 5 s), ${q.notDurable} not durable in time, ${q.saved} saved`
      : "  records' queue: - (external server)",
    cpu
      ? `  server: ${cpu}, RSS ${r.serverRssMB} MB (${r.rssPerRoomKB} KB/room), live heap ${r.liveHeapPerRoomKB} KB/room, event loop p99 ${r.eventLoopDelayP99Ms} ms`
      : '  server: - (external server)',
  ];
}
