/**
 * The room's numbers in one place, importable by config, tests and tools without loading the
 * room. Each says why it has its value.
 */
import { MAX_PLAYERS } from '../rules';
import type { LivenessTimes } from '../colyseus/transport/heartbeat';

export const MAX_SPECTATORS = 10;
export const MAX_CLIENTS = MAX_PLAYERS + MAX_SPECTATORS;

/** Quick chat: a few phrases at once, then one every two seconds. */
export const CHAT_BURST = 5;
export const CHAT_REFILL_MS = 2000;

/** The table's (server/table/Table.ts), re-exported for tests and tools that read the room's numbers here. */
export { LATE_ACTION_WINDOW_MS } from '../table/Table';

/**
 * Every message that is not an applied move: a tapping child stays far below these; a script
 * flooding does not. Applied moves never count (PROTOCOL v2 "Rate limits never refuse a legal move").
 */
export const DEFAULT_MESSAGE_BURST = 20;
export const DEFAULT_MESSAGES_PER_SECOND = 10;
/** Messages refused in a row for rate before the connection is closed. */
export const FLOOD_DISCONNECT_AFTER = 50;
/** `ping` has its own small bucket: the SDK sends one every few seconds. */
export const PING_BURST = 5;
export const PING_REFILL_MS = 1000;

/**
 * The room's one timer. It runs the table's timers (turn deadlines, reconnection grace, bot
 * think time: they fire at most one tick late, never early) and drives the heartbeat; patches do
 * not wait for it.
 */
export const TICK_MS = 1000;
/**
 * While bots are seated the room ticks faster, so a bot's think time is kept to about a tenth of
 * it (a 2.5 s think lands within 100 ms); rooms without bots keep the cheap tick.
 */
export function botTickMs(botThinkMs: number): number {
  return Math.min(TICK_MS, Math.max(20, Math.round(botThinkMs / 25)));
}
/**
 * The dead-socket check (server/colyseus/transport/heartbeat.ts), run after every tick. A dead
 * socket is cut at most 9 s after its last byte (what the SDK's `serverNoticeMs` counts on); a
 * live client whose own process stalls has 5 s to answer a ping; the server's stalls do not count.
 */
/** A patch for anything a change did not send (none expected: each change sends its own). */
export const SAFETY_PATCH_MS = 3000;
export const LIVENESS: LivenessTimes = {
  pingAfterMs: 3000,
  roundTripMs: 12_000,
  quietCutMs: 8000,
  pongCutMs: 6000,
  creditMaxMs: 1.5 * TICK_MS,
};

/** RULINGS "Connections": a dropped player's seat during a game, before they count as away. */
export const DEFAULT_RECONNECT_GRACE_SECONDS = 90;
/** A dropped player's seat in the lobby: long enough for a phone's network blip. */
export const DEFAULT_LOBBY_GRACE_SECONDS = 20;
/** PROTOCOL v2 "Practice bots": a bot thinks a random time up to this before it moves. */
export const DEFAULT_BOT_THINK_MS = 2500;

export interface RoomSettings {
  reconnectGraceSeconds: number;
  lobbyGraceSeconds: number;
  /** Every client message that is not an applied move: a burst of this many, then `messagesPerSecond`. */
  messageBurst: number;
  messagesPerSecond: number;
  botThinkMs: number;
  /** Tests only: a fixed seed source. Clients can never choose the seed. */
  seed?: () => string;
  /** Games one room plays at most (default MAX_GAMES_PER_ROOM, server/protocol.ts); tests lower it. */
  maxGames?: number;
}

export const DEFAULT_ROOM_SETTINGS: Readonly<RoomSettings> = Object.freeze({
  reconnectGraceSeconds: DEFAULT_RECONNECT_GRACE_SECONDS,
  lobbyGraceSeconds: DEFAULT_LOBBY_GRACE_SECONDS,
  messageBurst: DEFAULT_MESSAGE_BURST,
  messagesPerSecond: DEFAULT_MESSAGES_PER_SECOND,
  botThinkMs: DEFAULT_BOT_THINK_MS,
});
