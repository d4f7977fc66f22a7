/** What the SDK keeps to take a seat back after a drop or an app restart. */
export interface SavedSeat {
  roomId: string;
  sessionId: string;
  /** colyseus.js reconnection token; a new one is issued on every join and reconnect. */
  token: string;
}

/**
 * Where the seat is kept, and the guest identity. Memory by default; back it with AsyncStorage,
 * localStorage or SecureStore in the app so a restart can resume. Methods may be sync or async.
 */
export interface TokenStore {
  load(): SavedSeat | null | Promise<SavedSeat | null>;
  save(seat: SavedSeat): void | Promise<void>;
  /** Forgets the seat (the guest identity stays). */
  clear(): void | Promise<void>;
  /**
   * The guest identity (`POST /api/guest`), kept apart from the seat: it outlives every room.
   * Without these two the guest identity lasts as long as the CockroachClient.
   */
  loadGuest?(): string | null | Promise<string | null>;
  saveGuest?(token: string): void | Promise<void>;
}

export class MemoryTokenStore implements TokenStore {
  private seat: SavedSeat | null = null;
  private guest: string | null = null;

  load(): SavedSeat | null {
    return this.seat;
  }

  save(seat: SavedSeat): void {
    this.seat = { ...seat };
  }

  clear(): void {
    this.seat = null;
  }

  loadGuest(): string | null {
    return this.guest;
  }

  saveGuest(token: string): void {
    this.guest = token;
  }
}
