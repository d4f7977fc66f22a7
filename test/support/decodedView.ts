import assert from 'node:assert/strict';
import { MapSchema } from '@colyseus/schema';
import type { PlayerView } from '../../server/rules';
import { OPTION_SPECS } from '../../server/rules/options';
import { CockroachState, Player, Round } from '../../server/schema/CockroachState';
import { decodedRefs } from '../../server/colyseus/client';

/**
 * The room's encoding path without sockets, as Colyseus's SchemaSerializer runs it: encode the
 * changes once, filter them per client, decode each client's bytes into its own state.
 */
export class FilteredWire {
  readonly decoded = new Map<string | null, CockroachState>();
  private readonly clients = new Map<string | null, { sessionId: string }>();

  constructor(
    private readonly state: CockroachState,
    viewers: (string | null)[],
  ) {
    this.state.encodeAll(true);
    for (const viewer of viewers) {
      const client = { sessionId: viewer ?? 'spectator-session' };
      this.clients.set(viewer, client);
      const decoded = new CockroachState();
      decoded.decode(this.state.applyFilters(client, true));
      this.decoded.set(viewer, decoded);
    }
    this.state.discardAllChanges();
  }

  patch(): Map<string | null, DecodedChange[]> {
    const changes = new Map<string | null, DecodedChange[]>();
    this.state.encode(false, [], true);
    for (const [viewer, client] of this.clients) {
      const bytes = this.state.applyFilters(client);
      changes.set(viewer, this.decoded.get(viewer)!.decode(bytes) as unknown as DecodedChange[]);
    }
    this.state.discardAllChanges();
    return changes;
  }
}

/** One decoded change as @colyseus/schema 2.x reports it from `state.decode()`. */
export interface DecodedChange {
  refId: number;
  op: number;
  field: string | number;
  dynamicIndex?: string | number;
  value: unknown;
}

/**
 * What a client's decoded state says, in the shape of the rules' PlayerView, so the two can be
 * compared field by field. `hand` is read for every player: a non-empty hand of someone else
 * means it reached this client.
 */
export function viewOfDecoded(state: CockroachState): Omit<PlayerView, 'options'> & { handsSeen: Record<string, Record<string, string>> } {
  const players: PlayerView['players'] = {};
  const handsSeen: Record<string, Record<string, string>> = {};
  state.players.forEach((p, id) => {
    players[id] = { id: p.id, seat: p.seat, handCount: p.handCount, front: [...p.front] as PlayerView['players'][string]['front'] };
    const hand: Record<string, string> = {};
    p.hand?.forEach((kind, key) => (hand[key] = kind));
    if (Object.keys(hand).length > 0) handsSeen[id] = hand;
  });
  const r = state.round;
  const lr = state.lastReveal;
  return {
    phase: state.phase as PlayerView['phase'],
    step: state.step,
    order: [...state.order] as string[],
    players,
    handsSeen,
    round: {
      no: r.no,
      starter: r.starter,
      holder: r.holder || null,
      lastPasser: r.lastPasser || null,
      claim: (r.claim || null) as PlayerView['round']['claim'],
      seen: [...r.seen] as string[],
      claims: r.claims.map((c) => ({ from: c.from, to: c.to, claim: c.claim as PlayerView['round']['claim'] & string })),
      hasCard: r.hasCard,
      ...(r.cardKind ? { cardKind: r.cardKind as PlayerView['round']['claim'] & string } : {}),
    },
    lastReveal: lr
      ? ({
          kind: lr.kind,
          claim: lr.claim,
          call: lr.call,
          caller: lr.caller,
          correct: lr.correct,
          takenBy: lr.takenBy,
        } as PlayerView['lastReveal'])
      : null,
    loser: state.loser || null,
    lossReason: (state.lossReason || null) as PlayerView['lossReason'],
    ...(state.removed.length || state.phase === 'ended' ? { removed: [...state.removed] as PlayerView['removed'] } : {}),
  };
}

/** The decoded `state.options`, keyed as the one list of options names them. */
export function optionsOfDecoded(state: CockroachState): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const spec of OPTION_SPECS) out[spec.key] = state.options[spec.key];
  return out;
}

/**
 * The decoded state holds exactly what `view` allows: all of it, and nothing more. Options are
 * compared with the game's (and `private` with the room's flag when given).
 */
export function assertDecodedMatchesView(state: CockroachState, view: PlayerView, who: string, isPrivate?: boolean): void {
  const decoded = viewOfDecoded(state);
  const expectedHands: Record<string, Record<string, string>> = {};
  const players: PlayerView['players'] = {};
  for (const [id, entry] of Object.entries(view.players)) {
    const { hand, ...rest } = entry;
    players[id] = rest;
    if (hand && Object.keys(hand).length > 0) expectedHands[id] = hand;
  }
  const { options, ...expected } = view;
  const { handsSeen, ...actual } = decoded;
  const { private: decodedPrivate, ...decodedOptions } = optionsOfDecoded(state);
  assert.deepEqual(decodedOptions, { ...options }, `${who}: decoded options differ from the game's`);
  if (isPrivate !== undefined) assert.equal(decodedPrivate, isPrivate, `${who}: decoded private flag differs from the room's`);
  assert.deepEqual(handsSeen, expectedHands, `${who}: hands decoded differ from what they may know`);
  assert.deepEqual(actual, { ...expected, players }, `${who}: decoded state differs from the rules' view`);
}

/**
 * Every change a client decoded must be something it may know at that moment: during a game a
 * card of a hand only its owner's (hands are public in the lobby and after the end), `cardKind`
 * only when the view holds it, removed cards only after the end. A value sent and then
 * overwritten in the same patch is caught here. `phase`: the phase the patch was decoded into,
 * when it was not the view's (a lobby patch checked later).
 */
export function assertChangesAllowed(
  state: CockroachState,
  changes: DecodedChange[],
  view: PlayerView,
  me: string | null,
  who: string,
  phase: string = view.phase,
): void {
  const refs = decodedRefs(state);
  // Hands are private only while a game is played.
  const handsPublic = phase !== 'playing';
  const handOwner = new Map<unknown, string>();
  state.players.forEach((p, id) => handOwner.set(p.hand, id));
  for (const change of changes) {
    const ref = refs.get(change.refId);
    if (ref instanceof Round && change.field === 'cardKind' && change.value && phase === view.phase) {
      assert.equal(change.value, view.round.cardKind, `${who}: received cardKind it may not know`);
    }
    if (ref instanceof Player && change.field === 'hand' && !handsPublic) {
      assert.equal(ref.id, me, `${who}: received another player's hand`);
    }
    if (ref instanceof MapSchema && handOwner.has(ref) && !handsPublic) {
      assert.equal(handOwner.get(ref), me, `${who}: received a card of another player's hand`);
    }
    if (ref === state.removed && phase !== 'ended' && change.value !== undefined)
      assert.fail(`${who}: received removed cards before the end`);
  }
}
