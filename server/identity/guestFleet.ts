import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type Redis from 'ioredis';
import { log } from '../base/log';
import { openRedisLink } from '../base/redisLink';
import { decodeKey, encodeKey } from './keyring';
import { REVOCATION_KEEP_MS, type Identities } from './tokens';

/** The key every process signs new guest tokens with (the first process to start set it). */
export const FLEET_SIGNING_KEY = 'cockroach:guest-key';
/** Every guest key of the fleet → the last time a token was signed with it (ms); gone once no token of it can be valid. */
export const FLEET_KEYS_KEY = 'cockroach:guest-keys';
/** Revoked guest identities: sub → when (ms); gone once no token of theirs can be valid. */
export const FLEET_REVOKED_KEY = 'cockroach:guest-revoked';
/** How often a process reads the fleet's keys and revocations (and puts back what Redis lost). */
export const FLEET_SYNC_MS = 2000;
/** How long a process waits for Redis at start before it gives up (Colyseus's own wait is about as long). */
const JOIN_TIMEOUT_MS = 15_000;

/**
 * One script per sync: this process's keys and revocations go in (whatever Redis lost, after a
 * restart empty, comes back), the fleet's come out. A key's time only ever moves forward; a
 * revocation keeps its first time. ARGV: signing key, key cutoff, revocation cutoff, key count,
 * then key/time pairs, then sub/time pairs.
 */
const SYNC = `
local function bump(member, score)
  local current = redis.call('ZSCORE', KEYS[2], member)
  if (not current) or tonumber(current) < tonumber(score) then redis.call('ZADD', KEYS[2], score, member) end
end
redis.call('SET', KEYS[1], ARGV[1], 'NX')
local n = tonumber(ARGV[4])
for i = 5, 4 + 2 * n, 2 do bump(ARGV[i], ARGV[i + 1]) end
for i = 5 + 2 * n, #ARGV, 2 do redis.call('ZADD', KEYS[3], 'NX', ARGV[i + 1], ARGV[i]) end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', '(' .. ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', '(' .. ARGV[3])
return { redis.call('GET', KEYS[1]) or '', redis.call('ZRANGE', KEYS[2], 0, -1, 'WITHSCORES'), redis.call('ZRANGE', KEYS[3], 0, -1, 'WITHSCORES') }`;

/**
 * Guest identities across processes (issue 32), with REDIS_URL: every process accepts every other
 * process's guest tokens, and a revocation on one holds on all within FLEET_SYNC_MS, with no file
 * copied by hand.
 *
 * - Keys: the first process to start publishes the key it signs with (its DATA_DIR key, or the
 *   fleet's as it last knew it) as the fleet's signing key (SET NX); every process then signs with
 *   that one. Every key a process still accepts (its own file's key, if it may have signed tokens
 *   with it before joining) is published too, and every process verifies with all of them. A key
 *   nobody signed with for the guest token lifetime is dropped.
 * - Revocations: a sorted set every process reads and adds to; each keeps its own copy in DATA_DIR.
 * - Redis restarted empty: each sync puts back what this process knows (SET NX, additions that
 *   never lower a time), so the fleet's keys and revocations survive as long as one process does;
 *   the fleet file (DATA_DIR) keeps the keys for a restart of every process with Redis empty.
 *
 * Whoever can write to this Redis can make guest tokens: keep it private (docs/operations.md "Redis").
 */
export class GuestFleet {
  private timer: NodeJS.Timeout | undefined;
  private syncing: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  /** Key (base64) → last time a token was signed with it, as far as this process knows. */
  private readonly known = new Map<string, number>();
  /** The key offered at the next SET NX: the fleet's as last known, else this process's own. */
  private offered: Uint8Array;
  /** Revocations Redis held at the last sync (null before the first): the others go in at the next. */
  private remoteRevoked: Set<string> | null = null;
  private savedFleet = '';
  private warnedFull = false;

  private constructor(
    private readonly link: Redis,
    private readonly identities: Identities,
    private readonly fleetFile: string,
    private readonly now: () => number = Date.now,
  ) {
    const { key, created } = identities.fileKey!;
    const saved = readFleetFile(fleetFile);
    const cutoff = now() - REVOCATION_KEEP_MS;
    for (const [text, at] of saved.keys) if (at >= cutoff && this.learn(text)) this.known.set(text, at);
    // A key this start created has signed nothing yet: the fleet need not know it unless it becomes the fleet's.
    if (!created) this.known.set(encodeKey(key), now());
    this.offered = (saved.signing !== null && this.known.has(saved.signing) ? decodeKey(saved.signing) : null) ?? key;
    this.savedFleet = JSON.stringify(saved);
  }

  /** Waits for Redis, joins the fleet (one sync, which must succeed), then syncs every FLEET_SYNC_MS. */
  static async join(url: string, identities: Identities, fleetFile: string): Promise<GuestFleet> {
    if (!identities.keyring || !identities.revocations || !identities.fileKey) throw new Error('the guest fleet is for guest mode');
    const link = openRedisLink(url);
    try {
      await ready(link, JOIN_TIMEOUT_MS);
      const fleet = new GuestFleet(link, identities, fleetFile);
      await fleet.syncOnce();
      fleet.timer = setInterval(() => fleet.soon(), FLEET_SYNC_MS);
      fleet.timer.unref();
      // A revocation made here goes to the fleet at once.
      identities.revocations.onRevoked(() => fleet.soon());
      return fleet;
    } catch (error) {
      link.disconnect();
      throw new Error(`guest identities: could not join the fleet's keys in Redis (${(error as Error).message})`);
    }
  }

  /** A sync now, or right after the one running. */
  soon(): void {
    if (this.stopped) return;
    if (this.syncing) {
      this.again = true;
      return;
    }
    this.syncing = this.syncOnce()
      .catch((error) => void log.debug('guest_fleet.sync_failed', { errMessage: String((error as Error)?.message ?? error) }))
      .finally(() => {
        this.syncing = null;
        if (this.again) {
          this.again = false;
          this.soon();
        }
      });
  }

  /** Resolves once the sync running (if any) and the one after it are done: for tests and a revocation's answer. */
  async settled(): Promise<void> {
    while (this.syncing) await this.syncing;
  }

  /** Did Redis hold this revocation at the last sync (every process then refuses it within a sync)? */
  holds(sub: string): boolean {
    return this.remoteRevoked?.has(sub) === true;
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
    this.link.disconnect();
  }

  private async syncOnce(): Promise<void> {
    if (this.link.status !== 'ready') throw new Error(`redis is ${this.link.status}`);
    const keyring = this.identities.keyring!;
    const revocations = this.identities.revocations!;
    const now = this.now();
    // The first sync offers a key for SET NX; from then on the fleet's key is the one signed with (and kept fresh).
    const signing = this.remoteRevoked === null ? this.offered : keyring.signing.key;
    if (this.remoteRevoked !== null) this.known.set(encodeKey(signing), now);
    const keys = [...this.known].flatMap(([text, at]) => [text, String(at)]);
    const pending = revocations.entries().filter(([sub]) => !this.remoteRevoked?.has(sub));
    const [signingText, keyList, revokedList] = (await this.link.eval(
      SYNC,
      3,
      FLEET_SIGNING_KEY,
      FLEET_KEYS_KEY,
      FLEET_REVOKED_KEY,
      encodeKey(signing),
      String(now - REVOCATION_KEEP_MS),
      String(now - REVOCATION_KEEP_MS),
      String(this.known.size),
      ...keys,
      ...pending.flatMap(([sub, at]) => [sub, String(at)]),
    )) as [string, string[], string[]];

    for (let i = 0; i + 1 < keyList.length; i += 2) {
      const at = Number(keyList[i + 1]);
      if (this.learn(keyList[i]) && at > (this.known.get(keyList[i]) ?? 0)) this.known.set(keyList[i], at);
    }
    const fleetKey = decodeKey(signingText);
    if (fleetKey && this.learn(signingText)) keyring.signWith(fleetKey);
    else log.warn('guest_fleet.bad_signing_key', { key: FLEET_SIGNING_KEY });

    const remote = new Set<string>();
    const entries: [string, number][] = [];
    for (let i = 0; i + 1 < revokedList.length; i += 2) {
      remote.add(revokedList[i]);
      entries.push([revokedList[i], Number(revokedList[i + 1])]);
    }
    // What Redis lacks of ours (it restarted empty) goes back in at the next sync.
    this.remoteRevoked = remote;
    revocations.merge(entries);
    revocations.prune();
    for (const [text, at] of this.known) if (at < now - REVOCATION_KEEP_MS) this.known.delete(text);
    this.saveFleet(encodeKey(keyring.signing.key));
  }

  /** Adds a key (base64) to those this process verifies with; false when it is not a key or the ring is full. */
  private learn(text: string): boolean {
    const key = decodeKey(text);
    if (!key) return false;
    const keyring = this.identities.keyring!;
    if (keyring.add(key) || keyring.keys().some((k) => encodeKey(k) === text)) return true;
    if (!this.warnedFull) {
      this.warnedFull = true;
      log.warn('guest_fleet.too_many_keys', { kept: keyring.keys().length });
    }
    return false;
  }

  private saveFleet(signing: string): void {
    const state: FleetFile = { signing, keys: [...this.known] };
    const text = JSON.stringify(state);
    if (text === this.savedFleet) return;
    this.savedFleet = text;
    try {
      fs.mkdirSync(path.dirname(this.fleetFile), { recursive: true, mode: 0o700 });
      const temp = `${this.fleetFile}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
      fs.writeFileSync(temp, text + '\n', { mode: 0o600, flag: 'wx' });
      fs.renameSync(temp, this.fleetFile);
    } catch (error) {
      log.warn('guest_fleet.save_failed', { file: this.fleetFile }, error);
    }
  }
}

interface FleetFile {
  signing: string | null;
  keys: [string, number][];
}

function readFleetFile(file: string): FleetFile {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { signing: null, keys: [] };
    throw new Error(`the guest fleet file ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let parsed: Partial<FleetFile> | null = null;
  try {
    parsed = JSON.parse(text) as Partial<FleetFile>;
  } catch {
    parsed = null;
  }
  const keys = parsed?.keys;
  if (!Array.isArray(keys) || !keys.every((e) => Array.isArray(e) && decodeKey(e[0]) !== null && typeof e[1] === 'number'))
    throw new Error(`the guest fleet file ${file} is not one this server wrote: move it away (the fleet's keys are in Redis)`);
  return { signing: typeof parsed?.signing === 'string' ? parsed.signing : null, keys: keys as [string, number][] };
}

function ready(link: Redis, ms: number): Promise<void> {
  if (link.status === 'ready') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      link.off('ready', onReady);
      reject(new Error(`Redis did not answer within ${ms / 1000} s`));
    }, ms);
    const onReady = () => {
      clearTimeout(timer);
      resolve();
    };
    link.once('ready', onReady);
  });
}
