/**
 * Hidden-information check for load-test bots. A bot cannot see the server's game, so unlike
 * test/support/decodedView.ts it checks only what any client can know on its own, by the one
 * visibility rule (server/rules/visibility.ts):
 * - no hand entries of another player it may not see (neither in the decoded state nor in the
 *   patch just decoded, where a value may have been sent and then overwritten);
 * - `round.cardKind` only while this client is in that round's `seen`;
 * - `removed` and `fairness.serverSeed` stay empty until they may be seen.
 * Returns the violations found (empty when none); cheap enough to run at every patch.
 */
import { MapSchema } from '@colyseus/schema';
import { maySeeCardInFlight, maySeeHand, maySeeRemoved, maySeeServerSeed } from '../../server/rules/visibility';
import { CockroachState, Player, Round } from '../../server/schema/CockroachState';
import { decodedRefs } from '../../server/colyseus/client';

/** One decoded change as @colyseus/schema 2.x returns it from `state.decode()`. */
export interface PatchChange {
  refId: number;
  field: string | number;
  value: unknown;
}

export function hiddenInfoViolations(state: CockroachState, me: string, changes: readonly PatchChange[] = []): string[] {
  const found: string[] = [];
  const phase = state.phase;
  state.players.forEach((p, id) => {
    if (!maySeeHand(me, id, phase) && p.hand && p.hand.size > 0) found.push(`hand of ${id} in state`);
  });
  if (!maySeeRemoved(phase) && state.removed.length > 0) found.push('removed before the end');
  if (!maySeeServerSeed(phase) && state.fairness.serverSeed !== '') found.push('server seed before the end');
  const round = state.round;
  if (round && round.cardKind && !maySeeCardInFlight(me, round.seen)) found.push('cardKind without seeing the card');
  if (changes.length === 0) return found;

  const refs = decodedRefs(state);
  let handOwner: Map<unknown, string> | null = null;
  for (const change of changes) {
    const ref = refs.get(change.refId);
    if (ref instanceof Round) {
      if (change.field === 'cardKind' && change.value && !maySeeCardInFlight(me, ref.seen))
        found.push('cardKind sent without seeing the card');
      continue;
    }
    if (ref instanceof Player) {
      if (change.field === 'hand' && !maySeeHand(me, ref.id, phase)) found.push(`hand field of ${ref.id} sent`);
    } else if (ref instanceof MapSchema) {
      if (!handOwner) {
        handOwner = new Map();
        state.players.forEach((p, id) => handOwner!.set(p.hand, id));
      }
      const owner = handOwner.get(ref);
      // A removal is a leak too: it names the card that left the hand.
      if (owner !== undefined && !maySeeHand(me, owner, phase)) found.push(`a card of ${owner}'s hand sent`);
    } else if (ref === state.removed && !maySeeRemoved(phase)) {
      found.push('removed sent before the end');
    }
  }
  return found;
}
