/**
 * Room codes shared by every process through Redis (server/room/roomCode.ts is the interface).
 *
 *   cockroach:code:<code>     the owning process id while the room lives; "q" with a TTL of the
 *                             quarantine once it closed (then the key expires and the code is free)
 *   cockroach:codes:<pid>     the codes a process holds: survivors quarantine them when it dies
 *   cockroach:epoch           set once per Redis lifetime: missing means Redis lost its data
 *   cockroach:settle          while present (a few seconds after Redis came back empty) nobody
 *                             hands out codes: every live process first claims its rooms' codes again
 *
 * Each operation is one Lua script, so a claim is atomic across processes (SET NX) and a
 * release never overwrites another process's claim. The connection fails fast (no offline
 * queue): a claim while Redis is away throws, and the create is refused with SERVER_BUSY.
 */
import type Redis from 'ioredis';
import { CODE_SPACE, QUARANTINE_MS, RoomCodeStore } from '../room/roomCode';
import { log } from '../base/log';

export const CODE_PREFIX = 'cockroach:code:';
export const OWNED_PREFIX = 'cockroach:codes:';
export const EPOCH_KEY = 'cockroach:epoch';
export const SETTLE_KEY = 'cockroach:settle';
/** Long enough for every live process to notice an emptied Redis (its liveness beat, 1 s) and claim its codes again. */
export const SETTLE_MS = 5000;

/**
 * KEYS: settle, epoch, this process's set, then one key per candidate; ARGV: process id, settle
 * ms, a new epoch, "1" when a missing epoch means data was lost (this process knew Redis before),
 * then the candidates.
 */
const CLAIM = `
if redis.call('EXISTS', KEYS[1]) == 1 then return {'settling'} end
if redis.call('EXISTS', KEYS[2]) == 0 then
  redis.call('SET', KEYS[2], ARGV[3])
  if ARGV[4] == '1' then
    redis.call('SET', KEYS[1], '1', 'PX', ARGV[2])
    return {'settling'}
  end
end
for i = 4, #KEYS do
  if redis.call('SET', KEYS[i], ARGV[1], 'NX') then
    redis.call('SADD', KEYS[3], ARGV[i + 1])
    return {'ok', ARGV[i + 1]}
  end
end
return {'taken'}`;

const RELEASE = `
local v = redis.call('GET', KEYS[1])
if v == ARGV[1] or v == 'q' or v == false then
  redis.call('SET', KEYS[1], 'q', 'PX', ARGV[2])
end
redis.call('SREM', KEYS[2], ARGV[3])
return 1`;

/** Claims this process's live codes again (after Redis lost them, or survivors took this process for dead). */
const RECLAIM = `
local conflicts = {}
for i = 2, #KEYS do
  local v = redis.call('GET', KEYS[i])
  if v == false or v == 'q' or v == ARGV[1] then
    redis.call('SET', KEYS[i], ARGV[1])
    redis.call('SADD', KEYS[1], ARGV[i])
  else
    table.insert(conflicts, ARGV[i])
  end
end
return conflicts`;

/** A dead process's codes go into quarantine (only those it still owns). */
const BURY = `
local codes = redis.call('SMEMBERS', KEYS[1])
for _, c in ipairs(codes) do
  local k = ARGV[3] .. c
  if redis.call('GET', k) == ARGV[1] then redis.call('SET', k, 'q', 'PX', ARGV[2]) end
end
redis.call('DEL', KEYS[1])
return #codes`;

export interface RedisRoomCodesOptions {
  quarantineMs?: number;
  space?: number;
  settleMs?: number;
  /** How long a claim waits for a settle window to pass before it gives up (the create is refused). */
  settleWaitMs?: number;
}

export class RedisRoomCodes implements RoomCodeStore {
  readonly space: number;
  private readonly quarantineMs: number;
  private readonly settleMs: number;
  private readonly settleWaitMs: number;
  /** Codes this process holds for live rooms: claimed again after Redis lost them. */
  private readonly held = new Set<string>();
  /** Releases Redis did not take (it was away): retried at the next `resync`. */
  private readonly unreleased = new Set<string>();
  /**
   * Whether this store has talked to this Redis before: then a missing epoch means Redis lost its
   * data (not a fresh Redis), and nobody may hand out codes until live ones are claimed again.
   */
  private knewRedis = false;

  constructor(
    private readonly redis: Redis,
    private readonly processId: () => string,
    options: RedisRoomCodesOptions = {},
  ) {
    this.quarantineMs = options.quarantineMs ?? QUARANTINE_MS;
    this.space = options.space ?? CODE_SPACE;
    this.settleMs = options.settleMs ?? SETTLE_MS;
    this.settleWaitMs = options.settleWaitMs ?? this.settleMs + 2000;
  }

  async claim(candidates: string[]): Promise<string | null> {
    const pid = this.processId();
    const deadline = Date.now() + this.settleWaitMs;
    for (;;) {
      const keys = [SETTLE_KEY, EPOCH_KEY, OWNED_PREFIX + pid, ...candidates.map((c) => CODE_PREFIX + c)];
      const args = [pid, String(this.settleMs), newEpoch(), this.knewRedis || this.held.size > 0 ? '1' : '0', ...candidates];
      const [outcome, code] = (await this.redis.eval(CLAIM, keys.length, ...keys, ...args)) as [string, string?];
      this.knewRedis = true;
      if (outcome === 'ok' && code) {
        this.held.add(code);
        return code;
      }
      if (outcome === 'taken') return null;
      // Redis came back empty a moment ago: wait until every process has claimed its codes again.
      if (Date.now() + 250 > deadline) throw new Error('room codes settling after Redis lost its data');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  async release(code: string): Promise<void> {
    this.held.delete(code);
    try {
      await this.releaseNow(code);
    } catch (error) {
      this.unreleased.add(code);
      log.warn('roomcode.release_failed', { code }, error);
    }
  }

  /** Holds, e.g. before the process hands its rooms' codes back at shutdown. */
  heldCodes(): string[] {
    return [...this.held];
  }

  /**
   * After Redis came back (empty or not) or this process was taken for dead: claim the live
   * rooms' codes again and send the releases Redis missed. Throws if Redis is still away.
   */
  async resync(): Promise<{ reclaimed: number; conflicts: string[] }> {
    const pid = this.processId();
    for (const code of [...this.unreleased]) {
      await this.releaseNow(code);
      this.unreleased.delete(code);
    }
    const codes = [...this.held];
    let conflicts: string[] = [];
    for (let i = 0; i < codes.length; i += 500) {
      const batch = codes.slice(i, i + 500);
      const keys = [OWNED_PREFIX + pid, ...batch.map((c) => CODE_PREFIX + c)];
      const found = (await this.redis.eval(RECLAIM, keys.length, ...keys, pid, ...batch)) as string[];
      conflicts = conflicts.concat(found);
    }
    // Two live rooms with one code would be a bug of ours (e.g. a Redis that lost data and a
    // settle window too short): say so loudly; the other process keeps the key.
    for (const code of conflicts) log.error('roomcode.conflict', { code });
    return { reclaimed: codes.length - conflicts.length, conflicts };
  }

  private async releaseNow(code: string): Promise<void> {
    const pid = this.processId();
    const keys = [CODE_PREFIX + code, OWNED_PREFIX + pid];
    await this.redis.eval(RELEASE, keys.length, ...keys, pid, String(this.quarantineMs), code);
  }
}

/** Survivors: quarantine the codes a dead process still owned. Returns how many it held. */
export async function buryRoomCodes(redis: Redis, deadProcessId: string, quarantineMs = QUARANTINE_MS): Promise<number> {
  return (await redis.eval(BURY, 1, OWNED_PREFIX + deadProcessId, deadProcessId, String(quarantineMs), CODE_PREFIX)) as number;
}

/** Marks Redis's data as known (at start, and when a process notices it was lost). */
export async function ensureEpoch(redis: Redis): Promise<string> {
  await redis.set(EPOCH_KEY, newEpoch(), 'NX');
  return (await redis.get(EPOCH_KEY)) ?? '';
}

/** Nobody hands out codes for `ms`: live processes claim theirs again first. */
export async function startSettle(redis: Redis, ms = SETTLE_MS): Promise<void> {
  await redis.set(SETTLE_KEY, '1', 'PX', ms, 'NX');
}

function newEpoch(): string {
  return `${Date.now().toString(36)}-${process.pid}`;
}
