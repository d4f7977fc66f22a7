/**
 * Draining a process for a deploy (SIGTERM):
 *   1. it stops taking new rooms: `isDraining()` makes `onCreate` refuse (SERVER_DRAINING), and
 *      with Redis its process id goes into a shared set that `selectProcess` (scale.ts) skips, so
 *      creates that reach it over HTTP are placed on the other processes;
 *   2. lobbies on it are told (`error` SERVER_DRAINING) and closed: their players re-create
 *      elsewhere; running games go on; rooms showing a result stay until their players leave;
 *   3. when no game is running, or after `seconds`, the games that just ended get to send their
 *      `result` (it waits for the record on disk: `beforeShutdown`), games still running are
 *      told (`error` SERVER_SHUTDOWN) and cut, and Colyseus's graceful shutdown closes every room;
 *   4. the caller makes the records of games that ended durable and tries to deliver them
 *      (`beforeExit`, bounded), then exits the process.
 *
 * Timers: the drain outlives every room, so no room clock can carry it. It uses one process-level
 * interval (the poll) and one timeout (the deadline), both cleared when the drain ends, plus an
 * unref'd backstop that exits a process whose shutdown hangs (e.g. Redis gone).
 */
import { matchMaker, Server } from 'colyseus';
import { errorReply } from '../room/errors';
import { draining as drainingGauge, gamesCut } from '../base/metrics';
import { log } from '../base/log';
import { setDraining } from '../base/draining';
import { localRooms, OpsRoom, roomsInPhase } from '../base/rooms';

/** Redis set (through Colyseus presence) of the process ids that take no new rooms. */
export const DRAINING_KEY = 'cockroach:draining';
const POLL_MS = 250;
/** Redis calls during a drain must not wait on a Redis that is gone. */
const PRESENCE_TIMEOUT_MS = 2000;
/** After the cut, Colyseus's shutdown gets this long before the process exits anyway. */
export const SHUTDOWN_BACKSTOP_MS = 15_000;
/** A finished game's `result` waits for its record at most 2 s (server/store/writer.ts); the drain waits a little longer. */
const RESULTS_SETTLE_MS = 3_000;
/** `beforeExit` (the records) is bounded by its own settings; the backstop waits this much past them. */
export const BEFORE_EXIT_BACKSTOP_MS = 30_000;

/** `work` may throw or return a plain value (the in-memory presence does not return promises). */
function withTimeout<T>(work: () => Promise<T> | T, ms: number, what: string): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => {
      log.warn('drain.presence_timeout', { what });
      resolve(undefined);
    }, ms);
  });
  const done = Promise.resolve()
    .then(work)
    .catch((error) => void log.warn('drain.presence_error', { what }, error));
  return Promise.race([done, timeout]).finally(() => clearTimeout(timer));
}

export interface DrainReport {
  /** Games that finished during the drain. */
  finished: number;
  /** Games still running at the deadline, cut with their players told. */
  cut: number;
  seconds: number;
}

export class Drain {
  private running: Promise<DrainReport> | null = null;
  private poll: NodeJS.Timeout | undefined;
  private deadline: NodeJS.Timeout | undefined;
  private stopWaiting: (() => void) | null = null;

  /** What must happen before any exit once the rooms are closed (the records: app.ts). */
  beforeExit: () => Promise<void> = async () => undefined;
  /** The longest `beforeExit` may take by its own settings (app.ts: the records' close). */
  beforeExitMs = 0;
  /**
   * Once no game runs, before the rooms close: the records of games that just ended reach the
   * disk, so their rooms can still send `result` (it waits for the record). Bounded here.
   */
  beforeShutdown: () => Promise<void> = async () => undefined;

  constructor(private readonly gameServer: Server) {}

  get started(): boolean {
    return this.running !== null;
  }

  /** Starts the drain (once; later calls return the same promise). Resolves after shutdown. */
  start(seconds: number): Promise<DrainReport> {
    if (!this.running) this.running = this.run(seconds);
    return this.running;
  }

  /** Stops waiting for games: cut now (a second SIGTERM, or a test). */
  cutNow(): void {
    this.stopWaiting?.();
  }

  /** Tests: forget the drain state of a closed server. */
  reset(): void {
    this.clearTimers();
    setDraining(false);
    drainingGauge.set(0);
  }

  private async run(seconds: number): Promise<DrainReport> {
    const started = Date.now();
    setDraining(true);
    drainingGauge.set(1);
    const playingAtStart = roomsInPhase('playing').length;
    log.info('drain.started', { drainSeconds: seconds, rooms: localRooms.size, playing: playingAtStart });
    await withTimeout(() => matchMaker.presence.sadd(DRAINING_KEY, matchMaker.processId), PRESENCE_TIMEOUT_MS, 'sadd');

    this.closeLobbies();
    await this.waitForGames(seconds);
    await this.settleResults();

    const cut = roomsInPhase('playing');
    for (const room of cut) {
      tell(room, 'SERVER_SHUTDOWN');
      gamesCut.inc();
      log.warn('drain.cut', { roomId: room.roomId });
    }
    const report: DrainReport = {
      finished: Math.max(0, playingAtStart - cut.length),
      cut: cut.length,
      seconds: Math.round((Date.now() - started) / 100) / 10,
    };
    await withTimeout(() => matchMaker.presence.srem(DRAINING_KEY, matchMaker.processId), PRESENCE_TIMEOUT_MS, 'srem');
    const backstop = setTimeout(() => {
      log.error('drain.shutdown_hung', { afterMs: SHUTDOWN_BACKSTOP_MS });
      void exitAfter(this, 1);
    }, SHUTDOWN_BACKSTOP_MS).unref();
    await this.gameServer.gracefullyShutdown(false);
    clearTimeout(backstop);
    log.info('drain.done', { finished: report.finished, cut: report.cut, seconds: report.seconds });
    return report;
  }

  private async settleResults(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, RESULTS_SETTLE_MS)));
    await Promise.race([this.beforeShutdown().catch(() => undefined), late]);
    clearTimeout(timer);
    await new Promise<void>((resolve) => setImmediate(resolve)); // the rooms' result broadcasts run first
  }

  /** Lobbies have no game to lose: their players are told and re-create on another process. */
  private closeLobbies(): void {
    for (const room of roomsInPhase('lobby')) {
      tell(room, 'SERVER_DRAINING');
      log.info('drain.lobby_closed', { roomId: room.roomId });
      room.disconnect().catch(() => undefined);
    }
  }

  private waitForGames(seconds: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const finish = () => {
        this.clearTimers();
        this.stopWaiting = null;
        resolve();
      };
      this.stopWaiting = finish;
      const check = () => {
        // A lobby created in the instant before the flag was set is closed on the next poll.
        this.closeLobbies();
        if (roomsInPhase('playing').length === 0) finish();
      };
      this.deadline = setTimeout(finish, seconds * 1000);
      this.poll = setInterval(check, POLL_MS);
      check();
    });
  }

  private clearTimers(): void {
    clearInterval(this.poll);
    clearTimeout(this.deadline);
    this.poll = undefined;
    this.deadline = undefined;
  }
}

function tell(room: OpsRoom, code: 'SERVER_DRAINING' | 'SERVER_SHUTDOWN'): void {
  try {
    room.broadcast('error', errorReply(code, ''));
  } catch {
    // a room already closing: nothing to tell
  }
}

/**
 * `npm start`: SIGTERM or SIGINT drains, then exits 0; a second signal cuts the games still
 * running at once (players told). An uncaught exception logs, cuts at once and exits 1; an
 * unhandled promise rejection is logged only.
 */
export function exitOnSignals(drain: Drain, seconds: number): void {
  const onSignal = (signal: NodeJS.Signals) => {
    if (drain.started) {
      log.warn('drain.cut_requested', { signal });
      drain.cutNow();
      return;
    }
    log.info('signal', { signal });
    drain.start(seconds).then(
      () => exitAfter(drain, 0),
      (error) => {
        log.error('drain.failed', {}, error);
        return exitAfter(drain, 1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  // Colyseus fires Redis writes without awaiting them (room counts, listings): while Redis is
  // unreachable those reject with nobody listening. That must not end every game in the process;
  // log it (at most every 5 s, with a count) and go on.
  let lastRejection = 0;
  let quietRejections = 0;
  process.on('unhandledRejection', (reason) => {
    const now = Date.now();
    if (now - lastRejection < 5000) {
      quietRejections++;
      return;
    }
    log.error('process.unhandled_rejection', { suppressed: quietRejections }, reason);
    lastRejection = now;
    quietRejections = 0;
  });
  process.on('uncaughtException', (error) => {
    log.error('process.uncaught', {}, error);
    drain.cutNow();
    drain.start(0).finally(() => exitAfter(drain, 1));
  });
}

/**
 * Runs `beforeExit` once (records of games that ended made durable, delivery tried: bounded by
 * their own settings, and by a backstop here), then exits with `code`.
 */
let exiting: Promise<void> | null = null;
function exitAfter(drain: Pick<Drain, 'beforeExit' | 'beforeExitMs'>, code: number): Promise<void> {
  exiting ??= (async () => {
    // Past the records' own bound (RECORD_EXIT_DELIVERY_SECONDS can be minutes), not instead of it.
    // Not unref'd: while the records close, this timer keeps the process alive (the disk worker
    // and the writer's timers are unref'd), so it never ends halfway with code 0.
    const afterMs = drain.beforeExitMs + BEFORE_EXIT_BACKSTOP_MS;
    const backstop = setTimeout(() => {
      log.error('drain.before_exit_hung', { afterMs });
      process.exit(code || 1);
    }, afterMs);
    try {
      await drain.beforeExit();
    } catch (error) {
      log.error('drain.before_exit_failed', {}, error);
    }
    clearTimeout(backstop);
  })();
  return exiting.then(() => process.exit(code));
}
