import { createHash } from 'node:crypto';

/** Most guest keys one process verifies with: its own, the fleet's, and a few met along the way. */
export const MAX_GUEST_KEYS = 16;
export const GUEST_KEY_BYTES = 32;

/** A short public name for a key (`kid` in a guest token's header): which key to try, never the key. */
export function keyId(key: Uint8Array): string {
  return createHash('sha256').update(key).digest().subarray(0, 8).toString('base64url');
}

/** A key as Redis and the fleet file keep it (base64), or null when the text is not one. */
export function decodeKey(text: unknown): Uint8Array | null {
  if (typeof text !== 'string' || !/^[A-Za-z0-9+/]{43}=$/.test(text)) return null;
  const key = Buffer.from(text, 'base64');
  return key.length === GUEST_KEY_BYTES ? new Uint8Array(key) : null;
}

export function encodeKey(key: Uint8Array): string {
  return Buffer.from(key).toString('base64');
}

/**
 * The guest keys of this process: the one it signs new tokens with, and every one it still
 * accepts (its own file's key, the fleet's shared key, keys other processes of the fleet
 * published). A token names its key by `kid`; one without (from before kids) is tried with each.
 */
export class GuestKeyring {
  private readonly byId = new Map<string, Uint8Array>();
  private signingKey: Uint8Array;
  private signingId: string;

  constructor(own: Uint8Array) {
    this.signingKey = own;
    this.signingId = keyId(own);
    this.byId.set(this.signingId, own);
  }

  get signing(): { key: Uint8Array; kid: string } {
    return { key: this.signingKey, kid: this.signingId };
  }

  /** Accepts tokens of this key too; false when it was known, or the ring is full. */
  add(key: Uint8Array): boolean {
    const id = keyId(key);
    if (this.byId.has(id) || this.byId.size >= MAX_GUEST_KEYS) return false;
    this.byId.set(id, key);
    return true;
  }

  /** Signs new tokens with this key (added if new). */
  signWith(key: Uint8Array): void {
    this.add(key);
    const id = keyId(key);
    if (!this.byId.has(id)) return;
    this.signingKey = key;
    this.signingId = id;
  }

  /** The keys to try for a token naming `kid` (all of them when it names none, or one not known). */
  candidates(kid: unknown): Uint8Array[] {
    const named = typeof kid === 'string' ? this.byId.get(kid) : undefined;
    return named ? [named] : [...this.byId.values()];
  }

  keys(): Uint8Array[] {
    return [...this.byId.values()];
  }
}
