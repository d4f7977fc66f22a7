/**
 * The one adapter from a client's decoded state to the rules' `PlayerView`: what the SDK's
 * snapshot, the SDK's bots and the load test's bots read, so each decides with the rules' own
 * functions (activePlayerIn, passFactsIn, handByKind, defaultLoseCount) and none re-implements
 * a rule. For a player, it is exactly `viewFor(game, me)` as far as the wire carries it (tests
 * compare the two); in the lobby it has no game yet (`phase: 'lobby'`, `order` empty, the
 * players in join order with seat -1).
 *
 * It imports only the schema classes' types and the pure rules, so the SDK compiles it in.
 */
import type { Kind } from '../rules/kinds';
import { defaultLoseCount, ResolvedOptions } from '../rules/options';
import type { PlayerId } from '../rules/types';
import type { PlayerView, PlayerViewEntry, RoundView } from '../rules/view';
import { maySeeHand, maySeeRemoved } from '../rules/visibility';
import type { CockroachState } from './CockroachState';

/** The game's options as the rules run them: `loseCount` resolved by seat count while it is 0 (the lobby). */
export function resolvedOptionsOf(state: CockroachState): ResolvedOptions {
  const o = state.options;
  return {
    loseCount: (o.loseCount || defaultLoseCount(state.players.size)) as ResolvedOptions['loseCount'],
    turnSeconds: o.turnSeconds as ResolvedOptions['turnSeconds'],
    claimHistory: o.claimHistory,
    quickChat: o.quickChat,
    eightKindsRule: o.eightKindsRule,
    twoPlayerPass: o.twoPlayerPass,
    showSeenBy: true,
  };
}

/** `me`: the viewer's player id, or null for a spectator. */
export function playerViewOf(state: CockroachState, me: PlayerId | null): PlayerView {
  const phase = state.phase;
  const order = [...state.order] as PlayerId[];
  const players: Record<PlayerId, PlayerViewEntry> = {};
  // In the lobby there is no seat order yet: the players in join order.
  for (const id of order.length > 0 ? order : (state.players.keys() as Iterable<PlayerId>)) {
    const p = state.players.get(id);
    if (!p) continue;
    const entry: PlayerViewEntry = { id, seat: p.seat, handCount: p.handCount, front: [...p.front] as Kind[] };
    if (maySeeHand(me, id, phase) && p.hand) {
      const hand: Record<string, Kind> = {};
      p.hand.forEach((kind, cardId) => (hand[cardId] = kind as Kind));
      entry.hand = hand;
    }
    players[id] = entry;
  }
  const r = state.round;
  const round: RoundView = {
    no: r.no,
    starter: r.starter,
    holder: r.holder || null,
    lastPasser: r.lastPasser || null,
    claim: (r.claim || null) as Kind | null,
    seen: [...r.seen] as PlayerId[],
    claims: r.claims.map((c) => ({ from: c.from, to: c.to, claim: c.claim as Kind })),
    hasCard: r.hasCard,
  };
  if (r.cardKind) round.cardKind = r.cardKind as Kind;
  const lr = state.lastReveal;
  const view: PlayerView = {
    phase: phase as PlayerView['phase'],
    step: state.step,
    options: resolvedOptionsOf(state),
    order,
    players,
    round,
    lastReveal: lr
      ? {
          kind: lr.kind as Kind,
          claim: lr.claim as Kind,
          call: lr.call as 'true' | 'false',
          caller: lr.caller,
          correct: lr.correct,
          takenBy: lr.takenBy,
        }
      : null,
    loser: state.loser || null,
    lossReason: (state.lossReason || null) as PlayerView['lossReason'],
  };
  if (maySeeRemoved(phase)) view.removed = [...state.removed] as Kind[];
  return view;
}
