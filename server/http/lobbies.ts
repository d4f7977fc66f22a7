import { matchMaker } from 'colyseus';

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
      const room = matchMaker.getRoomById(roomId) as { state?: { phase?: string } } | undefined;
      return room !== undefined && room.state?.phase === 'lobby';
    });
    if (still.length === 0) this.byAddress.delete(address);
    else this.byAddress.set(address, still);
    return still.length;
  }
}
