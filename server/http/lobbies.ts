import { matchMaker } from 'colyseus';
import { localRoom, ownValue } from '../colyseus/localRoom';
import { listingById } from '../colyseus/matchmaker';
import { isUnused } from '../colyseus/reservations';

/** Most keys (identities, addresses) a counter remembers; past it the oldest is forgotten. */
const MAX_KEYS = 50_000;
/** A lobby on another process is looked up in the shared listing at most this often. */
const REMOTE_CHECK_MS = 10_000;

interface OpenLobby {
  roomId: string;
  local: boolean;
  /** When the listing of a lobby elsewhere was last read (0: never). */
  checkedAt: number;
}

/**
 * Lobbies each key (an identity, an address) has created and that are still open. A lobby of
 * this process counts while it exists and is in the lobby phase. One placed on another process
 * (Redis mode) is looked up in the shared listing, at most every REMOTE_CHECK_MS: it counts while
 * the listing still holds it in the lobby phase, and stops counting once it started, closed or
 * vanished (it no longer counts for IDLE_LOBBY_SECONDS whatever became of it: issue 21).
 */
export class LobbyLedger {
  private readonly byKey = new Map<string, OpenLobby[]>();
  /** Creates under way (admitted, their room not made yet), by key: each a ticket number. */
  private readonly holds = new Map<string, number[]>();
  private nextHold = 1;

  constructor(
    private readonly limit: number,
    private readonly now: () => number = Date.now,
    private readonly listing: (roomId: string) => Promise<{ metadata?: unknown } | undefined> = listingById,
  ) {}

  get enabled(): boolean {
    return this.limit > 0;
  }

  async mayOpen(key: string): Promise<boolean> {
    return this.limit <= 0 || (await this.open(key)) + (this.holds.get(key)?.length ?? 0) < this.limit;
  }

  /**
   * Holds a place for a create under way, before any await: a create of the same key that comes
   * while this one is being checked counts it. `fits` then says whether this one is within the
   * limit (counting the creates held before it); `release` ends the hold (created, joined, failed).
   */
  hold(key: string): number {
    const ticket = this.nextHold++;
    if (this.limit > 0) this.holds.set(key, [...(this.holds.get(key) ?? []), ticket]);
    return ticket;
  }

  async fits(key: string, ticket: number): Promise<boolean> {
    if (this.limit <= 0) return true;
    const open = await this.open(key);
    const before = (this.holds.get(key) ?? []).filter((t) => t <= ticket).length;
    return open + before <= this.limit;
  }

  release(key: string, ticket: number): void {
    const list = this.holds.get(key)?.filter((t) => t !== ticket);
    if (!list || list.length === 0) this.holds.delete(key);
    else this.holds.set(key, list);
  }

  opened(key: string, room: { roomId: string; processId?: string }): void {
    if (this.limit <= 0) return;
    const list = this.byKey.get(key) ?? [];
    const local = room.processId === undefined || room.processId === matchMaker.processId;
    list.push({ roomId: room.roomId, local, checkedAt: this.now() });
    this.byKey.set(key, list);
    if (this.byKey.size > MAX_KEYS) this.byKey.delete(this.byKey.keys().next().value!);
  }

  /** Open lobbies of `key` (forgets the closed ones on the way). */
  async open(key: string): Promise<number> {
    const list = this.byKey.get(key);
    if (!list) return 0;
    const t = this.now();
    const alive = await Promise.all(
      list.map(async (lobby) => {
        if (lobby.local) return localRoom<{ state?: { phase?: string } }>(lobby.roomId)?.state?.phase === 'lobby';
        if (t - lobby.checkedAt < REMOTE_CHECK_MS) return true;
        lobby.checkedAt = t;
        try {
          const listed = await this.listing(lobby.roomId);
          const phase =
            listed?.metadata && typeof listed.metadata === 'object'
              ? ownValue(listed.metadata as Record<string, unknown>, 'phase')
              : undefined;
          return listed !== undefined && (phase === undefined || phase === 'lobby');
        } catch {
          return true; // the listing cannot be read now: keep counting it, ask again later
        }
      }),
    );
    const still = list.filter((_, i) => alive[i]);
    if (still.length === 0) this.byKey.delete(key);
    else this.byKey.set(key, still);
    return still.length;
  }
}

/**
 * Seat reservations each key (an identity, an address) holds and has not used yet. One of this
 * process's rooms is asked (the reservation is still in `reservedSeats`, not consumed); one
 * elsewhere counts until its reservation time has passed.
 */
export class PendingSeats {
  private readonly byKey = new Map<string, { roomId: string; sessionId: string; local: boolean; until: number }[]>();

  constructor(
    private readonly limit: number,
    private readonly reservationMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  mayReserve(key: string): boolean {
    return this.limit <= 0 || this.pending(key) < this.limit;
  }

  reserved(key: string, reservation: { sessionId: string; room: { roomId: string; processId?: string } }): void {
    if (this.limit <= 0) return;
    const list = this.byKey.get(key) ?? [];
    const local = reservation.room.processId === undefined || reservation.room.processId === matchMaker.processId;
    list.push({ roomId: reservation.room.roomId, sessionId: reservation.sessionId, local, until: this.now() + this.reservationMs });
    this.byKey.set(key, list);
    if (this.byKey.size > MAX_KEYS) this.byKey.delete(this.byKey.keys().next().value!);
  }

  pending(key: string): number {
    const list = this.byKey.get(key);
    if (!list) return 0;
    const t = this.now();
    const still = list.filter(({ roomId, sessionId, local, until }) => {
      if (t >= until) return false;
      if (!local) return true;
      const room = localRoom(roomId);
      return room !== undefined && isUnused(room, sessionId);
    });
    if (still.length === 0) this.byKey.delete(key);
    else this.byKey.set(key, still);
    return still.length;
  }
}
