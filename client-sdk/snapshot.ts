import { KINDS, Kind } from '../server/rules/kinds';
import { DangerLevel, dangerLevel } from '../server/rules/danger';
import { activePlayerIn } from '../server/rules/view';
import type { CockroachResult } from '../server/rules/result';
import type { LossReason } from '../server/rules/types';
import { OPTION_SPECS } from '../server/rules/options';
import type { CockroachState } from '../server/schema/CockroachState';
import { playerViewOf } from '../server/schema/playerView';
import { whatCanDo, ActionName } from './helpers';
import { groupHand, HandGroup } from './hands';
import type { SnapshotOptions } from './options';

export type { HandGroup } from './hands';

export type Phase = 'lobby' | 'playing' | 'ended';

/** What a finished game's result holds, read-only all the way down. */
export type DeepReadonly<T> = T extends (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

export interface SeatSnapshot {
  readonly id: string;
  readonly nickname: string;
  /** Seat index from 0 once started; -1 in the lobby. */
  readonly seat: number;
  readonly handCount: number;
  /** Face-up kinds in the order they landed. */
  readonly front: readonly Kind[];
  readonly frontCounts: Readonly<Record<Kind, number>>;
  /** Per kind: 'warning' from the third card, 'danger' one card before losing. */
  readonly danger: Readonly<Record<Kind, DangerLevel>>;
  /** With eightKindsRule on: seven different kinds in front, one more loses. */
  readonly oneKindFromEight: boolean;
  readonly connected: boolean;
  readonly away: boolean;
  readonly isMe: boolean;
  readonly isHost: boolean;
  /** The room's creator: the host whenever present; only the creator removes people or unlocks (issue 32). */
  readonly isCreator: boolean;
  /** A practice bot the host seated. */
  readonly bot: boolean;
  /** Points over this room's finished games: 1 per game won, 0 for the loss. */
  readonly score: number;
  /** The cards in this hand, grouped by kind: mine always, everyone's once the game has ended; null while hidden. */
  readonly hand: readonly HandGroup[] | null;
}

/** Someone watching the table (issue 32): everyone sees who is watching. */
export interface WatcherSnapshot {
  readonly id: string;
  readonly nickname: string;
  /** This is my own watcher's place. */
  readonly isMe: boolean;
}

export interface ClaimSnapshot {
  readonly from: string;
  readonly to: string;
  readonly claim: Kind;
}

interface RoundCommon {
  readonly no: number;
  /** Who offers the next card (or offered the one in flight); null in the lobby. */
  readonly starter: string | null;
  /** Who has seen the card in flight. */
  readonly seen: readonly string[];
  /** The claims said on the card in flight, oldest first (with the `claimHistory` option). */
  readonly claims: readonly ClaimSnapshot[];
  /** Epoch ms on the server's clock; 0 when nobody is on the clock. */
  readonly deadline: number;
}

/** No card in flight: the starter is choosing one (or the game has not started, or has ended). */
export interface RoundWithoutCard extends RoundCommon {
  readonly hasCard: false;
  readonly holder: null;
  readonly lastPasser: null;
  readonly claim: null;
  readonly seenByMe: false;
  readonly cardKind: null;
}

/** A card in flight: who holds it, who handed it on, and the claim a call is judged against. */
interface RoundWithCard extends RoundCommon {
  readonly hasCard: true;
  readonly holder: string;
  readonly lastPasser: string;
  /** The latest claim: the one a call is judged against. */
  readonly claim: Kind;
}

/** A card in flight I have seen (I offered it, passed it on, or peeked): its kind is known to me. */
export interface RoundCardSeen extends RoundWithCard {
  readonly seenByMe: true;
  readonly cardKind: Kind;
}

/** A card in flight I have not seen. */
export interface RoundCardUnseen extends RoundWithCard {
  readonly seenByMe: false;
  readonly cardKind: null;
}

/** The round, narrowed by `hasCard` (claim, holder, lastPasser) and `seenByMe` (cardKind). */
export type RoundSnapshot = RoundWithoutCard | RoundCardSeen | RoundCardUnseen;

export interface RevealSnapshot {
  readonly kind: Kind;
  readonly claim: Kind;
  readonly call: 'true' | 'false';
  readonly caller: string;
  readonly correct: boolean;
  readonly takenBy: string;
}

/** What every snapshot has, whatever the phase and whoever reads it. */
interface SnapshotCommon {
  /** The room's id: the same 6 digits as `code` (PROTOCOL v3); `session.roomId` too. */
  readonly roomId: string;
  /** The room's 6-digit code: show it grouped ("123 456"), share it as an invite. */
  readonly code: string;
  readonly hostId: string;
  /**
   * The creator's player id while the creator is seated, else null. The creator is host whenever
   * present; a host who is not the creator is standing in until the creator is back (issue 32).
   */
  readonly creatorId: string | null;
  /** No newcomer may sit down or watch until the creator unlocks it (a kick locks it). */
  readonly locked: boolean;
  /** Who is watching, in the order they came. */
  readonly watchers: readonly WatcherSnapshot[];
  /** Every create option (server/rules/options.ts), `loseCount` resolved by seat count in the lobby. */
  readonly options: Readonly<SnapshotOptions>;
  /** Applied actions so far; the SDK quotes it in every action. */
  readonly step: number;
  /** Seat order once started (join order in the lobby). */
  readonly seats: readonly SeatSnapshot[];
  readonly lastReveal: RevealSnapshot | null;
  /** Games finished in this room (the running score's count). */
  readonly gamesPlayed: number;
}

/** A player's snapshot: `me`, my seat, my hand. */
export interface SeatedPart {
  readonly spectator: false;
  /** My player id (sessionId). */
  readonly me: string;
  /** My own seat (the one with `isMe`). */
  readonly mySeat: SeatSnapshot;
  readonly isHost: boolean;
  /** I made this room: as host I may also `kick` and `unlock`. */
  readonly isCreator: boolean;
  readonly myHand: readonly HandGroup[];
  readonly myHandCount: number;
}

/** A spectator's snapshot: no seat, no hand. */
export interface WatchingPart {
  readonly spectator: true;
  readonly me: null;
  readonly mySeat: null;
  readonly isHost: false;
  readonly isCreator: false;
  readonly myHand: readonly HandGroup[];
  readonly myHandCount: 0;
}

export interface LobbyPart {
  readonly phase: 'lobby';
  readonly round: RoundWithoutCard;
  readonly activePlayer: null;
  readonly myTurn: false;
  readonly canDo: readonly ActionName[];
  readonly loser: null;
  readonly lossReason: null;
  readonly removed: readonly Kind[];
  readonly result: null;
}

export interface PlayingPart {
  readonly phase: 'playing';
  readonly round: RoundSnapshot;
  /** Whoever must act now. */
  readonly activePlayer: string;
  readonly myTurn: boolean;
  /** What I may send now: [] unless it is my turn. */
  readonly canDo: readonly ActionName[];
  readonly loser: null;
  readonly lossReason: null;
  readonly removed: readonly Kind[];
  readonly result: null;
}

export interface EndedPart {
  readonly phase: 'ended';
  readonly round: RoundSnapshot;
  readonly activePlayer: null;
  readonly myTurn: false;
  readonly canDo: readonly ActionName[];
  readonly loser: string;
  readonly lossReason: LossReason;
  /** Two-player set-aside kinds. */
  readonly removed: readonly Kind[];
  /** The game's result: it follows the patch that ends the game, so it is null for a moment. */
  readonly result: DeepReadonly<CockroachResult> | null;
}

/**
 * A read-only picture of the room, narrowed by `phase` (the lobby has no one on turn; a game has
 * an `activePlayer`; an ended game a `loser` and `lossReason`), by `spectator` (a player has `me`
 * and `mySeat`) and, in its `round`, by `hasCard` and `seenByMe`.
 */
export type GameSnapshot = SnapshotCommon & (SeatedPart | WatchingPart) & (LobbyPart | PlayingPart | EndedPart);

export type LobbySnapshot = Extract<GameSnapshot, { phase: 'lobby' }>;
export type PlayingSnapshot = Extract<GameSnapshot, { phase: 'playing' }>;
export type EndedSnapshot = Extract<GameSnapshot, { phase: 'ended' }>;

function snapshotOptions(state: CockroachState, loseCount: number): GameSnapshot['options'] {
  const out: Record<string, unknown> = {};
  for (const spec of OPTION_SPECS) out[spec.key] = state.options[spec.key];
  out.loseCount = loseCount;
  return out as GameSnapshot['options'];
}

const zeroCounts = () => Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>;

/**
 * The snapshot of the decoded state, as an app screen wants it: the rules' view of my seat
 * (server/schema/playerView.ts, the one adapter), decided with the rules' own functions, plus
 * what the room adds (nicknames, presence, host, scores).
 */
export function buildSnapshot(
  state: CockroachState,
  me: string | null,
  roomId: string,
  result: CockroachResult | null,
  /** This connection's own session id, so a watcher finds itself among `watchers`. */
  connection: string | null = me,
): GameSnapshot {
  const watcherMe = connection;
  const view = playerViewOf(state, me);
  const loseCount = view.options.loseCount;
  const ids = view.order.length > 0 ? view.order : [...state.players.keys()];
  const seats: SeatSnapshot[] = ids.map((id) => {
    const p = state.players.get(id)!;
    const entry = view.players[id];
    const front = entry ? entry.front : ([...p.front] as Kind[]);
    const frontCounts = zeroCounts();
    for (const kind of front) frontCounts[kind]++;
    const danger = Object.fromEntries(KINDS.map((k) => [k, dangerLevel(frontCounts[k], loseCount)])) as Record<Kind, DangerLevel>;
    return {
      id,
      nickname: p.nickname,
      seat: p.seat,
      handCount: p.handCount,
      front,
      frontCounts,
      danger,
      oneKindFromEight: state.options.eightKindsRule && KINDS.filter((k) => frontCounts[k] > 0).length === KINDS.length - 1,
      connected: p.connected,
      away: p.away,
      isMe: id === me,
      isHost: id === state.hostId,
      isCreator: id === state.creatorId,
      bot: p.bot,
      score: p.score,
      hand: entry?.hand ? groupHand(entry.hand) : null,
    };
  });

  const mine = me !== null ? view.players[me] : undefined;
  const r = view.round;
  const seenByMe = r.cardKind !== undefined;
  const common = { no: r.no, starter: r.starter || null, seen: r.seen, claims: r.claims, deadline: state.round.deadline };
  // The decoded state keeps these consistent (a card in flight always has a holder, a passer and a
  // claim); the SDK's tests check every snapshot of whole games against these shapes.
  const round = (
    r.hasCard
      ? { ...common, hasCard: true, holder: r.holder, lastPasser: r.lastPasser, claim: r.claim, seenByMe, cardKind: r.cardKind ?? null }
      : { ...common, hasCard: false, holder: null, lastPasser: null, claim: null, seenByMe: false, cardKind: null }
  ) as RoundSnapshot;
  const activePlayer = activePlayerIn(view);
  const myTurn = activePlayer !== null && activePlayer === me;
  // A player whose seat is no longer in the state (removed by the host, the moment before `left`) has nothing of a seat to show: it reads as watching.
  const seat = me !== null ? seats.find((s) => s.id === me) : undefined;
  const who =
    me !== null && seat
      ? {
          spectator: false,
          me,
          mySeat: seat,
          isHost: me === state.hostId,
          isCreator: me === state.creatorId,
          myHand: groupHand(mine?.hand ?? {}),
          myHandCount: mine?.handCount ?? 0,
        }
      : { spectator: true, me: null, mySeat: null, isHost: false, isCreator: false, myHand: [], myHandCount: 0 };
  const canDo = whatCanDo({ me, spectator: who.spectator, myTurn, seats, round, options: state.options });
  return {
    roomId,
    code: roomId,
    ...who,
    phase: view.phase,
    hostId: state.hostId,
    creatorId: state.creatorId || null,
    locked: state.locked,
    watchers: [...state.watchers.values()].map((w) => ({ id: w.id, nickname: w.nickname, isMe: w.id === watcherMe })),
    options: snapshotOptions(state, loseCount),
    step: view.step,
    gamesPlayed: state.gamesPlayed,
    seats,
    round,
    activePlayer,
    myTurn,
    canDo,
    lastReveal: view.lastReveal,
    loser: view.loser,
    lossReason: view.lossReason,
    removed: view.removed ?? [],
    result: view.phase === 'ended' ? result : null,
  } as GameSnapshot;
}
