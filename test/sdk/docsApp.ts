/**
 * The app's own module `./app` that the examples of docs/client-sdk.md and client-sdk/README.md
 * import: what only an app does (draw a screen, show a toast, store a value). Here every function
 * notes its call, so docsExamples.test.ts can check what an example showed.
 */
import type { CockroachResult, DeepReadonly, RevealSnapshot, SavedSeat, TokenStore } from '../../client-sdk/index';

export const calls: { name: string; args: unknown[] }[] = [];
const note =
  (name: string) =>
  (...args: unknown[]): void =>
    void calls.push({ name, args });

export const render: (view: unknown) => void = note('render');
export const showToast: (text: string) => void = note('showToast');
export const toast: (text: string) => void = note('toast');
export const showBubble: (text: string) => void = note('showBubble');
export const bubble: (nickname: string, text: string) => void = note('bubble');
export const flipCard: (reveal: RevealSnapshot) => void = note('flipCard');
export const showResults: (result: DeepReadonly<CockroachResult>, fair?: boolean) => void = note('showResults');
export const showBanner: (text: string) => void = note('showBanner');
export const hideBanner: () => void = note('hideBanner');
export const backToStart: (message: string) => void = note('backToStart');
export const startTimer: (seconds: number) => void = note('startTimer');
export const showRetry: (message: string) => void = note('showRetry');
export const goToStart: () => void = note('goToStart');
export const showUnderCodeField: (message: string) => void = note('showUnderCodeField');
export const showFairness: (ok: boolean) => void = note('showFairness');

/** A "정말 …?" dialog the player answers yes. */
export async function confirm(question: string): Promise<boolean> {
  calls.push({ name: 'confirm', args: [question] });
  return true;
}

/** React Native's AsyncStorage, in memory. */
const stored = new Map<string, string>();
export const AsyncStorage = {
  getItem: async (key: string): Promise<string | null> => stored.get(key) ?? null,
  setItem: async (key: string, value: string): Promise<void> => void stored.set(key, value),
  removeItem: async (key: string): Promise<void> => void stored.delete(key),
};

/** The app backend's sign-in. */
export const auth = { currentJwt: (): string => 'not.a.token' };

/** The app's seat store (AsyncStorage or localStorage in an app), shared by the examples. */
let seat: SavedSeat | null = null;
let guest: string | null = null;
export const seatStore: TokenStore = {
  load: () => seat,
  save: (s) => void (seat = s),
  clear: () => void (seat = null),
  loadGuest: () => guest,
  saveGuest: (token) => void (guest = token),
};
