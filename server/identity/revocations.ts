import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';

/** Longest `sub`, in code points (PROTOCOL v3): what a guest token may carry. */
const MAX_SUB = 64;
const CONTROL = /[\p{Cc}\p{Cf}\p{Cs}]/u;
/** Most revocations kept at once: far above what operators do by hand, and a bound on memory and on the file. */
export const MAX_REVOCATIONS = 100_000;

export function isGuestSub(sub: unknown): sub is string {
  return typeof sub === 'string' && [...sub].length >= 1 && [...sub].length <= MAX_SUB && !CONTROL.test(sub);
}

/**
 * Guest identities an operator revoked (issue 32: `POST /guests/revoke` on the ops port). A revoked
 * identity's tokens are refused (AUTH_INVALID) at matchmaking and renewal, and its live
 * connections are closed (`onRevoked`), without logging any other guest out.
 *
 * A revocation is kept for `keepMs` (the guest token lifetime and a day): by then every token of
 * that identity has expired, and a revoked identity cannot renew. Kept in DATA_DIR so a restart
 * still refuses it, and with REDIS_URL shared by every process (server/identity/guestFleet.ts).
 */
export class GuestRevocations {
  /** sub → when it was revoked (ms). A Map: a sub named `__proto__` is just a sub. */
  private readonly revoked = new Map<string, number>();
  private readonly events = new EventEmitter();

  constructor(
    private readonly file: string | null,
    private readonly keepMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.events.setMaxListeners(0);
    if (file) for (const [sub, at] of readFile(file)) this.revoked.set(sub, at);
    this.prune();
  }

  has(sub: string): boolean {
    return this.revoked.has(sub);
  }

  get size(): number {
    return this.revoked.size;
  }

  /** Every revocation still kept, as [sub, revoked at ms]. */
  entries(): [string, number][] {
    return [...this.revoked];
  }

  /** Revokes one identity here; true when it was not revoked before. */
  revoke(sub: string): boolean {
    if (!isGuestSub(sub)) throw new Error('not a guest identity');
    if (this.revoked.has(sub)) return false;
    if (this.revoked.size >= MAX_REVOCATIONS) throw new Error(`${MAX_REVOCATIONS} revocations are kept already`);
    return this.merge([[sub, this.now()]]).length === 1;
  }

  /** Revocations learned from elsewhere (the fleet); returns the subs that were new here. */
  merge(entries: Iterable<[string, number]>): string[] {
    const learned: string[] = [];
    const cutoff = this.now() - this.keepMs;
    for (const [sub, at] of entries) {
      if (!isGuestSub(sub) || !Number.isFinite(at) || at < cutoff || this.revoked.has(sub)) continue;
      if (this.revoked.size >= MAX_REVOCATIONS) break;
      this.revoked.set(sub, at);
      learned.push(sub);
    }
    if (learned.length > 0) {
      this.save();
      for (const sub of learned) this.events.emit('revoked', `guest:${sub}`);
    }
    return learned;
  }

  /** Forgets revocations older than every token they could refuse; returns how many. */
  prune(): number {
    const cutoff = this.now() - this.keepMs;
    let removed = 0;
    for (const [sub, at] of this.revoked) {
      if (at >= cutoff) continue;
      this.revoked.delete(sub);
      removed++;
    }
    if (removed > 0) this.save();
    return removed;
  }

  /** Called with the identity key (`guest:<sub>`) of each identity revoked from now on, here or on another process. */
  onRevoked(listener: (key: string) => void): () => void {
    this.events.on('revoked', listener);
    return () => void this.events.off('revoked', listener);
  }

  private save(): void {
    if (!this.file) return;
    fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const temp = `${this.file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    fs.writeFileSync(temp, JSON.stringify({ revoked: this.entries() }) + '\n', { mode: 0o600, flag: 'wx' });
    // A rename replaces the file whole: a crash leaves the old list or the new one, never half.
    fs.renameSync(temp, this.file);
  }
}

function readFile(file: string): [string, number][] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new Error(`the revoked guests file ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  const list = (parsed as { revoked?: unknown } | null)?.revoked;
  if (!Array.isArray(list) || !list.every((e) => Array.isArray(e) && e.length === 2 && isGuestSub(e[0]) && typeof e[1] === 'number'))
    throw new Error(`the revoked guests file ${file} is not one this server wrote: fix or move it away`);
  return list as [string, number][];
}
