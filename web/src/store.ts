import type { SavedSeat, TokenStore } from '../../client-sdk/index';
import type { SkinName } from './art';

const SEAT_KEY = 'bugbluff.seat';
const GUEST_KEY = 'bugbluff.guest';
const NICK_KEY = 'bugbluff.nickname';
const SKIN_KEY = 'bugbluff.skin';

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null; // private mode or storage off: the page still works, only a reload loses the seat
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    /* see read() */
  }
}

/**
 * The SDK's TokenStore on localStorage, so a reload (or a closed tab) can take the seat back. The
 * guest identity is kept too: the seat belongs to it (a reload with a new identity could not
 * reconnect), and a player the host removed stays removed after a reload.
 */
export const localSeatStore = {
  load(): SavedSeat | null {
    try {
      const seat = JSON.parse(read(SEAT_KEY) ?? 'null') as SavedSeat | null;
      return seat && typeof seat.token === 'string' && typeof seat.roomId === 'string' ? seat : null;
    } catch {
      return null;
    }
  },
  save(seat: SavedSeat): void {
    write(SEAT_KEY, JSON.stringify(seat));
  },
  clear(): void {
    write(SEAT_KEY, null);
  },
  loadGuest(): string | null {
    return read(GUEST_KEY);
  },
  saveGuest(token: string): void {
    write(GUEST_KEY, token);
  },
} satisfies TokenStore;

export const prefs = {
  nickname: (): string => read(NICK_KEY) ?? '',
  setNickname: (n: string) => write(NICK_KEY, n),
  skin: (): SkinName => (read(SKIN_KEY) === 'animals' ? 'animals' : 'bugs'),
  setSkin: (s: SkinName) => write(SKIN_KEY, s),
};
