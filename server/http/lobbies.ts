import { matchMaker } from 'colyseus';
import { localRoom, ownValue } from './localRoom';

/**
 * Lobbies each client address has created and that are still open. A lobby of this process
 * counts while it exists and is in the lobby phase; one placed on another process (Redis mode)
 * counts until the idle-lobby lifetime has passed.
 */
export class LobbyLedger {
  private readonly byAddress = new Map<string, { roomId: string; local: boolean; at: number }[]>();

  constructor(
    private readonly limit: number,
    private readonly lifetimeMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  mayOpen(address: string): boolean {
    return this.limit <= 0 || this.open(address) < this.limit;
  }

  opened(address: string, room: { roomId: string; processId?: string }): void {
    if (this.limit <= 0) return;
    const list = this.byAddress.get(address) ?? [];
    list.push({ roomId: room.roomId, local: room.processId === undefined || room.processId === matchMaker.processId, at: this.now() });
    this.byAddress.set(address, list);
    if (this.byAddress.size > 50_000) this.byAddress.delete(this.byAddress.keys().next().value!);
  }

  /** Open lobbies of `address` (forgets the closed ones on the way). */
  open(address: string): number {
    const list = this.byAddress.get(address);
    if (!list) return 0;
    const t = this.now();
    const still = list.filter(({ roomId, local, at }) => {
      if (!local) return t - at < this.lifetimeMs;
      const room = localRoom<{ state?: { phase?: string } }>(roomId);
      return room !== undefined && room.state?.phase === 'lobby';
    });
    if (still.length === 0) this.byAddress.delete(address);
    else this.byAddress.set(address, still);
    return still.length;
  }
}

/**
 * Seat reservations each client address holds and has not used yet. One of this process's rooms
 * is asked (the reservation is still in `reservedSeats`, not consumed); one elsewhere counts
 * until its reservation time has passed.
 */
export class PendingSeats {
  private readonly byAddress = new Map<string, { roomId: string; sessionId: string; local: boolean; until: number }[]>();

  constructor(
    private readonly limit: number,
    private readonly reservationMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  mayReserve(address: string): boolean {
    return this.limit <= 0 || this.pending(address) < this.limit;
  }

  reserved(address: string, reservation: { sessionId: string; room: { roomId: string; processId?: string } }): void {
    if (this.limit <= 0) return;
    const list = this.byAddress.get(address) ?? [];
    const local = reservation.room.processId === undefined || reservation.room.processId === matchMaker.processId;
    list.push({ roomId: reservation.room.roomId, sessionId: reservation.sessionId, local, until: this.now() + this.reservationMs });
    this.byAddress.set(address, list);
    if (this.byAddress.size > 50_000) this.byAddress.delete(this.byAddress.keys().next().value!);
  }

  pending(address: string): number {
    const list = this.byAddress.get(address);
    if (!list) return 0;
    const t = this.now();
    const still = list.filter(({ roomId, sessionId, local, until }) => {
      if (t >= until) return false;
      if (!local) return true;
      const seats = localRoom<{ reservedSeats?: Record<string, [unknown, unknown, boolean, boolean]> }>(roomId)?.reservedSeats;
      const seat = ownValue(seats, sessionId);
      return seat !== undefined && seat[2] === false;
    });
    if (still.length === 0) this.byAddress.delete(address);
    else this.byAddress.set(address, still);
    return still.length;
  }
}
