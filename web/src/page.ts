/**
 * What every screen may use of the page: the session, the skin, the little UI state that is not
 * the game's, and the page's actions. main.ts builds it; screens only receive it, so no screen
 * imports main.ts (the order is main → screens → page, never back).
 */
import type { CockroachClient, GameSession, Kind, RevealSnapshot } from '../../client-sdk/index';
import type { Skin } from './art';

/** Where the hand-over flow is (rules section 9): card → receiver → claim → confirm. */
export interface TableUi {
  /** The snapshot step this flow belongs to: a new step starts it afresh. */
  step: number;
  pick: Kind | null;
  to: string | null;
  claim: Kind | null;
}

export const freshTableUi = (): TableUi => ({ step: -1, pick: null, to: null, claim: null });

/** A reveal on the table: shown in the middle of the table (never over it) until `until`. */
export interface RevealShown {
  r: RevealSnapshot;
  until: number;
}

export interface Page {
  client: CockroachClient;
  session: GameSession | null;
  skin: Skin;
  table: TableUi;
  reveal: RevealShown | null;
  /** Recent quick-chat lines per player id, shown as bubbles. */
  chats: Map<string, { text: string; until: number }>;
  /** The "정말 나갈까요?" row under the header. */
  askLeave: boolean;
  /** The player whose "정말 내보낼까요?" row is open in the lobby. */
  askKick: string | null;
  /** The room code an invite link opened this page with, until it is used. */
  invite: string | null;
  /** Why the last room ended for me when it was not my doing (removed by the host, room closed), for the start screen. */
  farewell: string | null;
  render(): void;
  /** A short notice at the top of the page (it takes its own room; it covers nothing). */
  toast(text: string, ms?: number): void;
  /** Runs an SDK call; a refusal becomes a notice with the server's Korean sentence. */
  act(run: () => Promise<unknown>): Promise<boolean>;
  enter(connect: () => Promise<GameSession>): Promise<void>;
  leave(): Promise<void>;
  setSkin(name: Skin['name']): void;
}
