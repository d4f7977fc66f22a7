/** What the SDK keeps to take a seat back after a drop or an app restart. */
export interface SavedSeat {
  roomId: string;
  sessionId: string;
  /** colyseus.js reconnection token; a new one is issued on every join and reconnect. */
  token: string;
}

/**
 * Where the seat is kept. Memory by default; back it with AsyncStorage, localStorage or
 * SecureStore in the app so a restart can resume. Methods may be sync or async.
 */
export interface TokenStore {
  load(): SavedSeat | null | Promise<SavedSeat | null>;
  save(seat: SavedSeat): void | Promise<void>;
  clear(): void | Promise<void>;
}

export class MemoryTokenStore implements TokenStore {
  private seat: SavedSeat | null = null;

  load(): SavedSeat | null {
    return this.seat;
  }

  save(seat: SavedSeat): void {
    this.seat = { ...seat };
  }

  clear(): void {
    this.seat = null;
  }
}
