import type { Kind } from './kinds';
import type { ResolvedOptions } from './options';
import type { CallValue, Claim, Game, LossReason, PlayerId } from './types';

export interface PlayerViewEntry {
  id: PlayerId;
  seat: number;
  handCount: number;
  /** Face-up kinds in the order they landed. */
  front: Kind[];
  /** card id → kind; only the owner's own hand, or every hand once the game has ended. */
  hand?: Record<string, Kind>;
}

export interface RoundView {
  no: number;
  starter: PlayerId;
  holder: PlayerId | null;
  lastPasser: PlayerId | null;
  claim: Kind | null;
  seen: PlayerId[];
  claims: Claim[];
  hasCard: boolean;
  /** The card in flight, only for someone who has seen it. Its id is never shown. */
  cardKind?: Kind;
}

export interface RevealView {
  kind: Kind;
  claim: Kind;
  call: CallValue;
  caller: PlayerId;
  correct: boolean;
  takenBy: PlayerId;
}

export interface PlayerView {
  phase: Game['phase'];
  step: number;
  options: ResolvedOptions;
  order: PlayerId[];
  players: Record<PlayerId, PlayerViewEntry>;
  round: RoundView;
  lastReveal: RevealView | null;
  loser: PlayerId | null;
  lossReason: LossReason | null;
  /** The two-player game's set-aside kinds: only once the game has ended. */
  removed?: Kind[];
}

/**
 * What `viewer` may know right now (null: a spectator). This is the reference the room's
 * filters are tested against: a client must decode exactly this, and never more.
 */
export function viewFor(game: Game, viewer: PlayerId | null): PlayerView {
  const ended = game.phase === 'ended';
  const kindsOf = (ids: number[]) => ids.map((id) => game.kinds[id]);
  const players: Record<PlayerId, PlayerViewEntry> = {};
  game.order.forEach((id, seat) => {
    const entry: PlayerViewEntry = { id, seat, handCount: game.hands[id].length, front: kindsOf(game.fronts[id]) };
    if (ended || id === viewer) {
      entry.hand = {};
      for (const card of game.hands[id]) entry.hand[String(card)] = game.kinds[card];
    }
    players[id] = entry;
  });

  const r = game.round;
  const round: RoundView = {
    no: r.no,
    starter: r.starter,
    holder: r.holder,
    lastPasser: r.lastPasser,
    claim: r.claim,
    seen: [...r.seen],
    claims: game.options.claimHistory ? r.claims.map((c) => ({ ...c })) : [],
    hasCard: r.card !== null,
  };
  if (r.card !== null && viewer !== null && r.seen.includes(viewer)) round.cardKind = game.kinds[r.card];

  const lr = game.lastReveal;
  const view: PlayerView = {
    phase: game.phase,
    step: game.step,
    options: { ...game.options },
    order: [...game.order],
    players,
    round,
    lastReveal: lr && { kind: lr.kind, claim: lr.claim, call: lr.call, caller: lr.caller, correct: lr.correct, takenBy: lr.takenBy },
    loser: game.loser,
    lossReason: game.lossReason,
  };
  if (ended) view.removed = kindsOf(game.removed);
  return view;
}
