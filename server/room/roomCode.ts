/**
 * Room codes: every room's id is a 6-digit code a child can read out (PROTOCOL v3 "Family
 * tables"). `allocateRoomCode()` hands out a code no live room of any process holds and no room
 * closed within QUARANTINE_MS held; `releaseRoomCode()` puts a closed room's code into that
 * quarantine. One process keeps them in memory; with Redis, server/ops/redisRoomCodes.ts claims
 * them atomically across processes (and the survivors quarantine a dead process's codes).
 *
 * Codes are drawn with node:crypto: a code says nothing about the one drawn before it.
 */
import { randomInt } from 'node:crypto';
import { ROOM_MESSAGES } from '../protocol';

/** 000000–999999: leading zeros are part of the code (a child reads "0" as easily as any digit). */
export const CODE_SPACE = 1_000_000;
export const ROOM_CODE = /^[0-9]{6}$/;

/**
 * How long a closed room's code is not handed out again: 6 hours. A code is seen by the family at
 * the table, by whoever they showed the invite to, on a saved link or a photo of the QR code; the
 * likely reuse of a seen code is the same afternoon or evening ("let's play again after
 * dinner"). For those six hours the code answers ROOM_NOT_FOUND instead of opening a stranger's
 * new table. The cost is occupancy of the code space: live rooms + rooms closed in the last six
 * hours. At 2,000 rooms per process (docs/benchmarks.md) and a room every ~20 minutes per slot,
 * one process at full load quarantines ~36,000 codes; ten such processes use ~38 % of the space
 * (allocation then needs ~1.6 draws on average, each batch of draws one Redis round trip), so
 * exhaustion (SERVER_BUSY) is far off. docs/operations.md "Room codes" has the arithmetic.
 */
export const QUARANTINE_MS = 6 * 60 * 60 * 1000;

/** Candidates tried per claim (one Redis round trip), and claims before giving up. */
export const DRAWS_PER_CLAIM = 8;
export const MAX_CLAIMS = 8;

/** Where codes are claimed: in memory (one process) or in Redis (every process). */
export interface RoomCodeStore {
  /** How many codes exist (tests shrink it to make collisions and exhaustion likely). */
  readonly space: number;
  /**
   * Claims the first candidate that is neither live nor quarantined, atomically; null when every
   * candidate was taken. Throws when the store cannot answer (e.g. Redis away).
   */
  claim(candidates: string[]): Promise<string | null>;
  /** The room closed: quarantine its code. Never throws (a failure is retried by the store). */
  release(code: string): Promise<void>;
  /** True when no code is left at all (known only to a store that counts them). */
  exhausted?(): boolean;
}

export class RoomCodeBusyError extends Error {
  readonly code = 'SERVER_BUSY';
  constructor(readonly why: string) {
    // "CODE: 한국어": how a refusal from onCreate travels to the client (and the SDK splits it).
    super(`SERVER_BUSY: ${ROOM_MESSAGES.SERVER_BUSY}`);
    this.name = 'RoomCodeBusyError';
  }
}

/** A uniformly drawn code of `space` (6 digits, leading zeros kept). */
export function drawCode(space = CODE_SPACE): string {
  return String(randomInt(0, Math.min(space, CODE_SPACE))).padStart(6, '0');
}

/** One process: live codes and quarantined ones (expiring in insertion order: one duration for all). */
export class MemoryRoomCodes implements RoomCodeStore {
  private readonly live = new Set<string>();
  private readonly quarantined = new Map<string, number>();

  constructor(
    readonly quarantineMs = QUARANTINE_MS,
    private readonly now: () => number = Date.now,
    readonly space = CODE_SPACE,
  ) {}

  async claim(candidates: string[]): Promise<string | null> {
    this.prune();
    for (const code of candidates) {
      if (this.live.has(code) || this.quarantined.has(code)) continue;
      this.live.add(code);
      return code;
    }
    return null;
  }

  async release(code: string): Promise<void> {
    if (!this.live.delete(code)) return;
    this.quarantined.delete(code);
    this.quarantined.set(code, this.now() + this.quarantineMs);
  }

  exhausted(): boolean {
    this.prune();
    return this.live.size + this.quarantined.size >= Math.min(this.space, CODE_SPACE);
  }

  /** Tests and metrics. */
  counts(): { live: number; quarantined: number } {
    this.prune();
    return { live: this.live.size, quarantined: this.quarantined.size };
  }

  private prune(): void {
    const now = this.now();
    for (const [code, until] of this.quarantined) {
      if (until > now) break;
      this.quarantined.delete(code);
    }
  }
}

let store: RoomCodeStore = new MemoryRoomCodes();

/** The server's store: memory by default; server/ops/scale.ts installs the Redis one with REDIS_URL. */
export function setRoomCodeStore(next: RoomCodeStore): void {
  store = next;
}

export function roomCodeStore(): RoomCodeStore {
  return store;
}

/**
 * A fresh 6-digit code, unique among the live rooms of every process and not closed within the
 * quarantine. Throws RoomCodeBusyError (SERVER_BUSY) when the space is used up or the store
 * cannot answer. `current`: tests pass their own store.
 */
export async function allocateRoomCode(current: RoomCodeStore = store): Promise<string> {
  if (current.exhausted?.()) throw new RoomCodeBusyError('no code left');
  for (let round = 0; round < MAX_CLAIMS; round++) {
    const candidates = Array.from({ length: DRAWS_PER_CLAIM }, () => drawCode(current.space));
    let claimed: string | null;
    try {
      claimed = await current.claim(candidates);
    } catch (error) {
      throw Object.assign(new RoomCodeBusyError('store unavailable'), { cause: error });
    }
    if (claimed !== null) return claimed;
  }
  throw new RoomCodeBusyError(`no free code in ${MAX_CLAIMS * DRAWS_PER_CLAIM} draws`);
}

/** The room holding `code` closed (or was never created): quarantine the code. Never throws. */
export async function releaseRoomCode(code: string, current: RoomCodeStore = store): Promise<void> {
  if (!ROOM_CODE.test(code)) return;
  await current.release(code).catch(() => undefined);
}
