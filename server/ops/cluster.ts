/**
 * Several processes on one Redis that heal (issue 23): each process says it is alive, tells a
 * dead process from a slow one, buries the dead one's rooms, and puts its own state back into
 * Redis whenever Redis lost it.
 *
 * Once a second each process runs one script (`beat`) that
 *   - refreshes `cockroach:alive:{processId}` with a TTL of ALIVE_TTL_MS (6 s), and learns whether
 *     the key was still there (if not: Redis lost its data, or the others took us for dead);
 *   - writes its room count into Colyseus's `roomcount` (Colyseus drops it after a timed-out
 *     create, MatchMaker.js ~290, and never writes it again for a minute), learning whether the
 *     entry had been removed;
 *   - reads `cockroach:epoch` (missing or changed: Redis restarted empty) and every process id
 *     Redis knows of (our registry, `roomcount`, the draining set) with the remaining TTL of its
 *     alive key: the view the listing, placement and the matchmaking gate read.
 *
 * A process is **dead** when its alive key is gone: it missed every beat for 6 s (a crash, a kill,
 * a stall longer than that). A process whose last beat is older than SUSPECT_MS, or whose Redis
 * subscriber is gone (a killed process's connections close at once), is **suspect**: not answered
 * as dead, but no 2-second call is made to it either (SERVER_BUSY at once), and no room is placed
 * on it. While the settle window runs nobody is dead: it opens when Redis came back empty, or
 * when a process finds its own alive key expired (it stalled, or Redis was unreachable long
 * enough for every key to expire), so that every live process has time to beat again.
 *
 * **Resync** (the process puts its state back): its room listings, its room codes, its draining
 * flag (the beat writes the count and the alive key). It runs after any of its Redis connections
 * came back, after Redis lost its data, after it was taken for dead, and after Colyseus dropped
 * its room count; until it has run, this process answers matchmaking with SERVER_BUSY.
 *
 * **Burial** (server/ops/burial.ts): a process seen dead for REAP_AFTER_MS by a survivor loses its
 * listings, room count, draining flag and registry entry, and its room codes go to quarantine.
 */
import type Redis from 'ioredis';
import { matchMaker } from 'colyseus';
import { DRAINING_KEY } from './drain';
import { isDraining } from '../base/draining';
import { log } from '../base/log';
import { localRooms } from '../base/rooms';
import { EPOCH_KEY, RedisRoomCodes, SETTLE_KEY, SETTLE_MS } from './redisRoomCodes';
import { ALIVE_PREFIX, buryProcess, PROCS_KEY } from './burial';
import { clusterMetrics } from './clusterMetrics';
import { processChannel, ROOM_COUNT_KEY } from '../colyseus/redisKeys';
import { localRoomCountEntry } from '../colyseus/stats';
import { republishListing } from '../colyseus/matchmaker';

export { ALIVE_PREFIX, PROCS_KEY };
export const BEAT_MS = 1000;
/** A process that missed its beats this long is dead: longer than any stall seen in trials (3–5 s). */
export const ALIVE_TTL_MS = 6000;
/** No beat for this long: do not wait 2 s on a call to it, answer SERVER_BUSY at once. */
export const SUSPECT_MS = 2500;
/** A survivor buries a process after seeing it dead for this long (its own observations). */
export const REAP_AFTER_MS = 2500;
/** The view is trusted this long after the last successful beat. */
const VIEW_FRESH_MS = 2500;
/**
 * A resync not done in this long fails (RESYNC_TIMEOUT) and is tried again at the next beat.
 * The listings go through Colyseus's driver connection, which has no command timeout: one save
 * Redis never answers would otherwise stop every beat, let this process's alive key expire (6 s,
 * with a beat's own 2 s) and have its peers bury it alive.
 */
export const RESYNC_TIMEOUT_MS = 3000;

export class ResyncTimeout extends Error {
  readonly code = 'RESYNC_TIMEOUT';
  constructor(ms: number) {
    super(`the resync did not finish within ${ms} ms (Redis did not answer)`);
    this.name = 'ResyncTimeout';
  }
}

const BEAT = `
local pid = ARGV[1]
local old = redis.call('SET', KEYS[1], '1', 'PX', ARGV[2], 'GET')
local epoch = redis.call('GET', KEYS[2])
redis.call('SADD', KEYS[3], pid)
local added = 0
if ARGV[3] ~= '' then added = redis.call('HSET', KEYS[4], pid, ARGV[3]) end
local settle = redis.call('PTTL', KEYS[5])
local seen = {}
local out = {}
local extra = {}
for i = 5, #ARGV do table.insert(extra, ARGV[i]) end
for _, list in ipairs({redis.call('SMEMBERS', KEYS[3]), redis.call('HKEYS', KEYS[4]), redis.call('SMEMBERS', KEYS[6]), extra}) do
  for _, p in ipairs(list) do
    if not seen[p] then
      seen[p] = true
      table.insert(out, p)
      table.insert(out, redis.call('PTTL', ARGV[4] .. p))
    end
  end
end
return {old and 1 or 0, epoch or '', added, settle, out}`;

export type Resync = 'reconnected' | 'wiped' | 'expired' | 'excluded';

/** What a Colyseus Redis connection looks like to us (ioredis). */
interface Connection {
  status: string;
  on(event: 'ready' | 'close', listener: () => void): unknown;
}

/** Verdict on a room's owner for a join or reconnect by id. */
export type OwnerVerdict = 'alive' | 'suspect' | 'dead' | 'unknown';

export class Cluster {
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> | null = null;
  private beaten = false;
  private epoch: string | null = null;
  /** Process id → remaining TTL (ms) of its alive key at the last beat; -2: no key. */
  private view = new Map<string, number>();
  private viewAt = 0;
  private settlingUntil = 0;
  private readonly missingSince = new Map<string, number>();
  /** Process ids seen in listings but not (yet) in the view: the next beat looks them up. */
  private readonly noticed = new Set<string>();
  private pending: Resync | null = null;
  private resyncing = false;
  private stopped = false;

  constructor(
    private readonly link: Redis,
    private readonly codes: RedisRoomCodes | null,
    private readonly connections: Connection[],
    private readonly now: () => number = Date.now,
    private readonly resyncTimeoutMs = RESYNC_TIMEOUT_MS,
  ) {
    let linkReadyBefore = false;
    link.on('ready', () => {
      // The first 'ready' is the start; any later one follows an outage.
      if (linkReadyBefore) this.needResync('reconnected');
      linkReadyBefore = true;
      void this.beat();
    });
    for (const connection of connections) {
      let readyBefore = connection.status === 'ready';
      connection.on('ready', () => {
        if (readyBefore) this.needResync('reconnected');
        readyBefore = true;
      });
    }
    if (link.status === 'ready') linkReadyBefore = true;
  }

  get processId(): string {
    return matchMaker.processId;
  }

  start(): void {
    this.timer = setInterval(() => void this.beat(), BEAT_MS);
    this.timer.unref();
    void this.beat();
  }

  /** Stops beating and leaves the registry (a clean shutdown: nothing to bury). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.beating?.catch(() => undefined);
    if (this.link.status === 'ready') {
      await this.link
        .multi()
        .del(ALIVE_PREFIX + this.processId)
        .srem(PROCS_KEY, this.processId)
        .exec()
        .catch(() => undefined);
    }
    this.link.disconnect();
  }

  /** Redis answers, every connection is up, and this process's state is in it. */
  healthy(): boolean {
    return this.redisUp() && this.pending === null && !this.resyncing;
  }

  /** Every Redis connection is up and the last beat went through. */
  redisUp(): boolean {
    return this.link.status === 'ready' && this.connections.every((c) => c.status === 'ready') && this.now() - this.viewAt < VIEW_FRESH_MS;
  }

  /** Placement and listings: is this process alive as far as the last beat knows? Unknown counts as alive. */
  isAlive(processId: string): boolean {
    if (processId === this.processId || !this.viewFresh()) return true;
    const ttl = this.view.get(processId);
    return ttl === undefined || ttl !== -2;
  }

  /** The view says dead (fresh view, outside the settle window, no alive key). */
  isDead(processId: string): boolean {
    return !this.isAlive(processId);
  }

  settling(): boolean {
    return this.now() < this.settlingUntil;
  }

  /** Asked for each join or reconnect by id whose listing names `processId` (one Redis round trip). */
  async judgeOwner(processId: string): Promise<OwnerVerdict> {
    if (processId === this.processId) return 'alive';
    const probe = await this.probe(processId);
    if (probe === undefined) return 'unknown';
    if (probe === null) return 'dead';
    return probe.age > SUSPECT_MS || !probe.listening ? 'suspect' : 'alive';
  }

  /**
   * Reads now how `processId` is: milliseconds since its last beat, and whether its Redis
   * subscriber is connected (a killed process's connections close at once, long before its
   * alive key expires; but a reconnecting subscriber is not a dead process, so this alone never
   * makes it dead). Null when it is dead (no alive key, outside a settle window); undefined when
   * that cannot be known (Redis away, or its key missing while Redis is being refilled).
   */
  async probe(processId: string): Promise<{ age: number; listening: boolean } | null | undefined> {
    let ttl: number;
    let settle: number;
    let listening: boolean;
    try {
      const replies = await this.link
        .multi()
        .pttl(ALIVE_PREFIX + processId)
        .pttl(SETTLE_KEY)
        .pubsub('NUMSUB', processChannel(processId))
        .exec();
      ttl = Number(replies?.[0]?.[1]);
      settle = Number(replies?.[1]?.[1]);
      listening = Number((replies?.[2]?.[1] as unknown[] | undefined)?.[1] ?? 0) > 0;
    } catch {
      return undefined;
    }
    if (ttl === -2) return settle > 0 ? undefined : null;
    return { age: ttl >= 0 ? ALIVE_TTL_MS - ttl : 0, listening };
  }

  /** A listing names a process the view does not know: look at it at the next beat. */
  notice(processId: string): void {
    if (!processId || this.view.has(processId) || processId === this.processId || this.noticed.size >= 100) return;
    this.noticed.add(processId);
  }

  /** Known processes and whether each is alive (for /metrics). */
  processes(): { alive: number; dead: number } {
    let alive = 0;
    let dead = 0;
    for (const [pid, ttl] of this.view) {
      if (ttl === -2 && pid !== this.processId) dead++;
      else alive++;
    }
    return { alive, dead };
  }

  needResync(why: Resync): void {
    if (this.pending === null || why === 'wiped') this.pending = why;
  }

  /** One beat (never two at once): alive key, room count, view, then resync and burial when due. */
  beat(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (!this.beating)
      this.beating = this.beatOnce()
        .catch((error) => void log.debug('cluster.beat_failed', { errMessage: String((error as Error)?.message ?? error) }))
        .finally(() => (this.beating = null));
    return this.beating;
  }

  private async beatOnce(): Promise<void> {
    if (this.link.status !== 'ready') return;
    const pid = this.processId;
    const shuttingDown = matchMaker.isGracefullyShuttingDown;
    const count = shuttingDown ? '' : localRoomCountEntry();
    const keys = [ALIVE_PREFIX + pid, EPOCH_KEY, PROCS_KEY, ROOM_COUNT_KEY, SETTLE_KEY, DRAINING_KEY];
    const [hadAlive, epoch, added, settle, flat] = (await this.link.eval(
      BEAT,
      keys.length,
      ...keys,
      pid,
      String(ALIVE_TTL_MS),
      count,
      ALIVE_PREFIX,
      ...this.noticed,
    )) as [number, string, number, number, (string | number)[]];
    this.noticed.clear();
    const now = this.now();
    const view = new Map<string, number>();
    for (let i = 0; i < flat.length; i += 2) view.set(String(flat[i]), Number(flat[i + 1]));
    this.view = view;
    this.viewAt = now;
    this.settlingUntil = settle > 0 ? now + settle : 0;

    if (epoch === '' || (this.epoch !== null && epoch !== this.epoch)) {
      // Redis restarted empty. A process that knew it before puts its state back, and nobody
      // hands out codes for a moment meanwhile; a process on its first beat just marks the data.
      if (epoch === '') await this.link.set(EPOCH_KEY, `${now.toString(36)}-${process.pid}`, 'NX');
      if (this.beaten) {
        await this.link.set(SETTLE_KEY, '1', 'PX', SETTLE_MS, 'NX');
        this.settlingUntil = Math.max(this.settlingUntil, now + SETTLE_MS);
        this.needResync('wiped');
      }
      this.epoch = (await this.link.get(EPOCH_KEY)) ?? null;
    } else {
      this.epoch = epoch;
      if (this.beaten && hadAlive === 0) {
        // Our alive key expired: we stalled past the TTL, or Redis was unreachable that long and
        // every key expired meanwhile. Others may be missing for the same reason: nobody is
        // judged dead (or handed a code) until they have had time to beat again.
        await this.link.set(SETTLE_KEY, '1', 'PX', SETTLE_MS, 'NX');
        this.settlingUntil = Math.max(this.settlingUntil, now + SETTLE_MS);
        this.needResync('expired');
      } else if (this.beaten && added === 1) this.needResync('excluded');
    }
    this.beaten = true;

    if (this.pending !== null) await this.resync();
    if (!shuttingDown) await this.reap(now);
  }

  /** Puts this process's state back into Redis; stays pending (SERVER_BUSY here) until it went through. */
  private async resync(): Promise<void> {
    const why = this.pending;
    // Shutting down, Colyseus removes this process's listings itself: nothing to put back.
    if (why === null || this.resyncing || matchMaker.isGracefullyShuttingDown) return;
    this.resyncing = true;
    this.pending = null;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>(
      (_, reject) => (timer = setTimeout(() => reject(new ResyncTimeout(this.resyncTimeoutMs)), this.resyncTimeoutMs)),
    );
    // A timed-out attempt may still finish later: harmless, every step writes what is true now.
    const work = this.putBack();
    work.catch(() => undefined);
    try {
      const { rooms, codes } = await Promise.race([work, late]);
      clusterMetrics.resynced(why);
      log.info('cluster.resynced', { why, rooms, codes: codes.reclaimed, conflicts: codes.conflicts.length });
    } catch (error) {
      this.needResync(why);
      const code = error instanceof ResyncTimeout ? error.code : undefined;
      clusterMetrics.resyncFailed(code === undefined ? 'error' : 'timeout');
      log.warn('cluster.resync_failed', { why, code }, error);
    } finally {
      clearTimeout(timer);
      this.resyncing = false;
    }
  }

  private async putBack(): Promise<{ rooms: number; codes: { reclaimed: number; conflicts: unknown[] } }> {
    const codes = this.codes ? await this.codes.resync() : { reclaimed: 0, conflicts: [] };
    let rooms = 0;
    for (const room of localRooms) {
      // A room still being created has no listing yet: Colyseus saves it when done.
      if (await republishListing(room)) rooms++;
    }
    if (isDraining()) await this.link.sadd(DRAINING_KEY, this.processId);
    return { rooms, codes };
  }

  /** Survivors bury processes seen dead for REAP_AFTER_MS (never during a settle window). */
  private async reap(now: number): Promise<void> {
    for (const pid of this.missingSince.keys()) if (this.view.get(pid) !== -2) this.missingSince.delete(pid);
    if (this.settling()) return this.missingSince.clear();
    for (const [pid, ttl] of this.view) {
      if (ttl !== -2 || pid === this.processId) continue;
      const since = this.missingSince.get(pid);
      if (since === undefined) {
        this.missingSince.set(pid, now);
        continue;
      }
      if (now - since < REAP_AFTER_MS) continue;
      this.missingSince.delete(pid);
      const buried = await buryProcess(this.link, pid, this.processId);
      if (buried) {
        clusterMetrics.buried();
        log.warn('cluster.buried', { deadProcessId: pid, rooms: buried.rooms, codes: buried.codes, afterMs: now - since + ALIVE_TTL_MS });
      }
    }
  }

  private viewFresh(): boolean {
    return this.now() - this.viewAt < VIEW_FRESH_MS && !this.settling();
  }
}
