import { Kind, KINDS } from './kinds';
import { actorOf, PassFacts, peekedFromPublic } from './queries';
import type { ResolvedOptions } from './options';
import type { CallValue, Claim, Game, LossReason, PlayerId } from './types';
import { maySeeCardInFlight, maySeeHand, maySeeRemoved } from './visibility';

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
  /** 'lobby' only for a view read from a decoded lobby state (server/schema/playerView.ts): no game yet. */
  phase: 'lobby' | Game['phase'];
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
 * What `viewer` may know right now (null: a spectator), by the predicates of visibility.ts. This is
 * the reference the room's filters are tested against: a client must decode exactly this, and
 * never more.
 */
export function viewFor(game: Game, viewer: PlayerId | null): PlayerView {
  const kindsOf = (ids: number[]) => ids.map((id) => game.kinds[id]);
  const players: Record<PlayerId, PlayerViewEntry> = {};
  game.order.forEach((id, seat) => {
    const entry: PlayerViewEntry = { id, seat, handCount: game.hands[id].length, front: kindsOf(game.fronts[id]) };
    if (maySeeHand(viewer, id, game.phase)) {
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
  if (r.card !== null && maySeeCardInFlight(viewer, r.seen)) round.cardKind = game.kinds[r.card];

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
  if (maySeeRemoved(game.phase)) view.removed = kindsOf(game.removed);
  return view;
}

/** Who must act now in this view: the rules' own `activePlayer`, from public facts. */
export function activePlayerIn(view: PlayerView): PlayerId | null {
  return actorOf(view.phase, view.round.hasCard, view.round.starter, view.round.holder);
}

/** The public pass/peek facts of a view, so a client or a bot decides with the rules' own functions. */
export function passFactsIn(view: PlayerView): PassFacts {
  const { order, round, options } = view;
  return {
    order,
    holder: round.holder,
    seen: round.seen,
    peeked: peekedFromPublic(order, round.starter, round.holder, round.seen),
    twoPlayerPass: options.twoPlayerPass,
  };
}

/** A hand grouped by kind, in the deck's kind order, card ids ascending: what a hand row shows. */
export function handByKind(hand: Readonly<Record<string, Kind>>): { kind: Kind; cardIds: number[] }[] {
  const groups = new Map<Kind, number[]>();
  for (const cardId of Object.keys(hand)) {
    const kind = hand[cardId];
    const list = groups.get(kind);
    if (list) list.push(Number(cardId));
    else groups.set(kind, [Number(cardId)]);
  }
  return KINDS.filter((k) => groups.has(k)).map((kind) => ({ kind, cardIds: groups.get(kind)!.sort((a, b) => a - b) }));
}
