import { KINDS, Kind } from '../server/rules/kinds';
import { DangerLevel, dangerLevel } from '../server/rules/danger';
import { activePlayerIn } from '../server/rules/view';
import type { CockroachResult } from '../server/rules/result';
import { OPTION_SPECS } from '../server/rules/options';
import type { CockroachState } from '../server/schema/CockroachState';
import { playerViewOf } from '../server/schema/playerView';
import { whatCanDo, ActionName } from './helpers';
import { groupHand, HandGroup } from './hands';
import type { SnapshotOptions } from './options';

export type { HandGroup } from './hands';

export type Phase = 'lobby' | 'playing' | 'ended';

export interface SeatSnapshot {
  id: string;
  nickname: string;
  /** Seat index from 0 once started; -1 in the lobby. */
  seat: number;
  handCount: number;
  /** Face-up kinds in the order they landed. */
  front: Kind[];
  frontCounts: Record<Kind, number>;
  /** Per kind: 'warning' from the third card, 'danger' one card before losing. */
  danger: Record<Kind, DangerLevel>;
  /** With eightKindsRule on: seven different kinds in front, one more loses. */
  oneKindFromEight: boolean;
  connected: boolean;
  away: boolean;
  isMe: boolean;
  isHost: boolean;
  /** A practice bot the host seated. */
  bot: boolean;
  /** Points over this room's finished games: 1 per game won, 0 for the loss. */
  score: number;
  /** The cards in this hand, grouped by kind: mine always, everyone's once the game has ended; null while hidden. */
  hand: HandGroup[] | null;
}

export interface RoundSnapshot {
  no: number;
  starter: string | null;
  holder: string | null;
  lastPasser: string | null;
  /** The latest claim: the one a call is judged against. */
  claim: Kind | null;
  seen: string[];
  claims: { from: string; to: string; claim: Kind }[];
  hasCard: boolean;
  /** The card in flight, only when I have seen it. */
  cardKind: Kind | null;
  /** Epoch ms on the server's clock; 0 when nobody is on the clock. */
  deadline: number;
}

export interface RevealSnapshot {
  kind: Kind;
  claim: Kind;
  call: 'true' | 'false';
  caller: string;
  correct: boolean;
  takenBy: string;
}

export interface GameSnapshot {
  roomId: string;
  /** The room's 6-digit code (its id, PROTOCOL v3): show it grouped ("123 456"), share it as an invite. */
  code: string;
  /** My player id (sessionId), or null when watching. */
  me: string | null;
  spectator: boolean;
  phase: Phase;
  hostId: string;
  isHost: boolean;
  /** Every create option (server/rules/options.ts), `loseCount` resolved by seat count in the lobby. */
  options: SnapshotOptions;
  /** Applied actions so far; the SDK quotes it in every action. */
  step: number;
  /** Seat order once started (join order in the lobby). */
  seats: SeatSnapshot[];
  myHand: HandGroup[];
  myHandCount: number;
  round: RoundSnapshot;
  /** Whoever must act now; null in the lobby and after the end. */
  activePlayer: string | null;
  myTurn: boolean;
  /** What I may send now: [] unless it is my turn. */
  canDo: ActionName[];
  lastReveal: RevealSnapshot | null;
  loser: string | null;
  lossReason: 'four' | 'emptyHand' | 'eightKinds' | null;
  /** Two-player set-aside kinds, after the end. */
  removed: Kind[];
  result: CockroachResult | null;
  /** Games finished in this room (the running score's count). */
  gamesPlayed: number;
}

function snapshotOptions(state: CockroachState, loseCount: number): GameSnapshot['options'] {
  const out: Record<string, unknown> = {};
  for (const spec of OPTION_SPECS) out[spec.key] = state.options[spec.key];
  out.loseCount = loseCount;
  return out as GameSnapshot['options'];
}

const zeroCounts = () => Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>;

/**
 * A read-only picture of the decoded state, as an app screen wants it: the rules' view of my seat
 * (server/schema/playerView.ts, the one adapter), decided with the rules' own functions, plus
 * what the room adds (nicknames, presence, host, scores).
 */
export function buildSnapshot(state: CockroachState, me: string | null, roomId: string, result: CockroachResult | null): GameSnapshot {
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
      bot: p.bot,
      score: p.score,
      hand: entry?.hand ? groupHand(entry.hand) : null,
    };
  });

  const mine = me !== null ? view.players[me] : undefined;
  const r = view.round;
  const round: RoundSnapshot = {
    no: r.no,
    starter: r.starter || null,
    holder: r.holder,
    lastPasser: r.lastPasser,
    claim: r.claim,
    seen: r.seen,
    claims: r.claims,
    hasCard: r.hasCard,
    cardKind: r.cardKind ?? null,
    deadline: state.round.deadline,
  };
  const activePlayer = activePlayerIn(view);
  const snapshot: GameSnapshot = {
    roomId,
    code: roomId,
    me,
    spectator: me === null,
    phase: view.phase,
    hostId: state.hostId,
    isHost: me !== null && me === state.hostId,
    options: snapshotOptions(state, loseCount),
    step: view.step,
    gamesPlayed: state.gamesPlayed,
    seats,
    myHand: groupHand(mine?.hand ?? {}),
    myHandCount: mine?.handCount ?? 0,
    round,
    activePlayer,
    myTurn: activePlayer !== null && activePlayer === me,
    lastReveal: view.lastReveal,
    loser: view.loser,
    lossReason: view.lossReason,
    removed: view.removed ?? [],
    result,
    canDo: [],
  };
  snapshot.canDo = whatCanDo(snapshot);
  return snapshot;
}
