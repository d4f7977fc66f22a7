import type { Match, PlayerId } from '../rules';
import type { CockroachResult, GameOptions } from '../rules';

/** A table's lifecycle: lobby → playing → ended, and back to the lobby by a rematch. */
export type Lifecycle = 'lobby' | 'playing' | 'ended';

/** One seat, in join order. A seat belongs to whoever sits in it; the id is their current session id. */
export interface SeatState {
  readonly id: PlayerId;
  readonly nickname: string;
  readonly bot: boolean;
  /** The connection is up (bots always). */
  connected: boolean;
  /** The reconnection grace ran out, or the player left on purpose during a game: the rules play their turns. */
  away: boolean;
  /** Points over this room's finished games. */
  score: number;
  /** The identity key the seat belongs to (PROTOCOL v3), null for an anonymous player or a bot. Never sent. */
  readonly identity: string | null;
  /** The address the player joined from: an anonymous player's only signal (a kick bars it). Never sent. */
  readonly address: string | null;
  /** The player's fair-play entropy ('' for none, and for bots). */
  readonly entropy: string;
  /** The table's join counter when this seat was taken: who was seated before the host left (server/table/host.ts). */
  readonly seq: number;
}

/** Someone watching the table (PROTOCOL v3 issue 32: watchers are people at the table, listed for everyone). */
export interface WatcherState {
  readonly id: PlayerId;
  readonly nickname: string;
  /** As for a seat: never sent. */
  readonly identity: string | null;
  readonly address: string | null;
}

/**
 * The room's creator, by identity key, or for an anonymous creator by its seat: the host whenever
 * present (server/table/host.ts). Null until the first person sits, and after an anonymous
 * creator's seat is gone with nobody to hand the role to.
 */
export type Creator = { readonly key: string } | { readonly seat: PlayerId };

/**
 * Everything a table is, as plain data: the one source the room projects into the synced state
 * (server/project.ts). Only the table (server/table/Table.ts) changes it.
 */
export interface TableState {
  lifecycle: Lifecycle;
  /** The options as created (a rematch keeps them). */
  readonly options: GameOptions;
  readonly isPrivate: boolean;
  /** Seated players and bots in join order, keyed by player id. */
  readonly seats: Map<PlayerId, SeatState>;
  /** The host (server/table/host.ts decides), or null when nobody can be. */
  hostId: PlayerId | null;
  fairness: {
    /** SHA-256 of this game's secret, published before any entropy is used. */
    commitment: string;
    /** Each player's entropy as the game was started with it; {} in the lobby. */
    entropy: Record<PlayerId, string>;
    /** '' until the game has ended, then the secret. */
    serverSeed: string;
  };
  /** The game being played or just ended; null in the lobby. */
  match: Match | null;
  /** Epoch ms when whoever must act runs out of time; 0 when nobody is on the clock. Kept here only. */
  deadline: number;
  gamesPlayed: number;
  /** The ended game's result (with its gameId) while the table shows that game's end. */
  result: CockroachResult | null;
  /** Who the host removed, and may not sit or watch here again: `barSignal`s. */
  readonly barred: Set<string>;
  /** Watchers in join order, keyed by their session id. */
  readonly watchers: Map<PlayerId, WatcherState>;
  /** No newcomer sits or watches (a kick locks; the host locks and unlocks): server/table/admission.ts. */
  locked: boolean;
  /** While locked: the identity keys that were at the table when it locked, and how they may come back (a watcher only to watch). */
  readonly lockAdmitted: Map<string, 'sit' | 'watch'>;
  creator: Creator | null;
  /** The creator was named (their reservation) but has not sat down yet. */
  awaitingCreator: boolean;
  /** The join counter when the host was last present, while the host is not: successors were seated before it. */
  hostLeftSeq: number | null;
  /** The next seat's `seq`. */
  nextSeq: number;
}

/** Who is joining, as far as the table needs to know: the identity key, or for an anonymous player the address. */
export interface Joiner {
  key: string | null;
  address: string;
}

/**
 * What a kick bars: the identity (PROTOCOL v3), or for an anonymous player the best signal the
 * server has, the address it joined from. An address is shared by a family or a school, so it
 * bars only anonymous joins from there; anyone with an identity (every SDK and /play client in
 * guest mode has one) is judged by that identity alone.
 */
export function barSignal(who: Joiner): string {
  return who.key !== null ? `key:${who.key}` : `address:${who.address}`;
}

/** The bar signal of someone at the table (a seat or a watcher). */
export function barSignalOf(person: { identity: string | null; address: string | null }): string {
  return barSignal({ key: person.identity, address: person.address ?? '' });
}

/** Is this seat the creator's (by identity key, or the anonymous creator's own seat)? */
export function isCreatorSeat(creator: Creator | null, seat: Pick<SeatState, 'id' | 'identity'>): boolean {
  if (creator === null) return false;
  return 'key' in creator ? seat.identity === creator.key : seat.id === creator.seat;
}

/** The creator's seat, if the creator is seated. */
export function creatorSeat(state: Pick<TableView, 'creator' | 'seats'>): Readonly<SeatState> | undefined {
  const creator = state.creator;
  if (creator === null) return undefined;
  if ('seat' in creator) return state.seats.get(creator.seat);
  for (const seat of state.seats.values()) if (seat.identity === creator.key) return seat;
  return undefined;
}

/** What the room may read: the state, never to be changed from outside the table. */
export type TableView = Readonly<Omit<TableState, 'seats' | 'fairness' | 'barred' | 'watchers' | 'lockAdmitted'>> & {
  readonly seats: ReadonlyMap<PlayerId, Readonly<SeatState>>;
  readonly watchers: ReadonlyMap<PlayerId, Readonly<WatcherState>>;
  readonly barred: ReadonlySet<string>;
  readonly lockAdmitted: ReadonlyMap<string, 'sit' | 'watch'>;
  readonly fairness: Readonly<TableState['fairness']>;
};

export function newTableState(options: GameOptions, isPrivate: boolean, commitment: string): TableState {
  return {
    lifecycle: 'lobby',
    options: { ...options },
    isPrivate,
    seats: new Map(),
    hostId: null,
    fairness: { commitment, entropy: {}, serverSeed: '' },
    match: null,
    deadline: 0,
    gamesPlayed: 0,
    result: null,
    barred: new Set(),
    watchers: new Map(),
    locked: false,
    lockAdmitted: new Map(),
    creator: null,
    awaitingCreator: false,
    hostLeftSeq: null,
    nextSeq: 0,
  };
}

/** A seat for `tableStateAround`: only the id is needed. */
export interface SeatSketch {
  id: PlayerId;
  nickname?: string;
  bot?: boolean;
  score?: number;
}

/**
 * A table state around a match played by hand, for tools and tests that drive a `Match`
 * directly and project it (server/project.ts): the seats in join order, the lifecycle the
 * match's phase ('lobby' without one). A fresh object per call.
 */
export function tableStateAround(seats: readonly SeatSketch[], match: Match | null, options: GameOptions, isPrivate = false): TableState {
  const state = newTableState(options, isPrivate, '');
  for (const s of seats)
    state.seats.set(s.id, {
      seq: state.nextSeq++,
      id: s.id,
      nickname: s.nickname ?? s.id,
      bot: s.bot ?? false,
      connected: true,
      away: false,
      score: s.score ?? 0,
      identity: null,
      address: null,
      entropy: '',
    });
  state.hostId = seats.find((s) => !s.bot)?.id ?? null;
  if (state.hostId !== null) state.creator = { seat: state.hostId };
  state.match = match;
  if (match) state.lifecycle = match.game.phase;
  return state;
}

/** Bots are never away; with no human present a game has nobody to wait for. */
export function everyHumanAway(state: Pick<TableView, 'seats'>): boolean {
  for (const seat of state.seats.values()) if (!seat.bot && !seat.away) return false;
  return true;
}
