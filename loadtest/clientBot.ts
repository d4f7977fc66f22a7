import { KINDS, Kind, PassFacts, passTargetsFrom, peekedFromPublic, peekRefusalFrom, pick, randInt, RngState } from '../server/rules';
import type { CockroachState } from '../server/schema/CockroachState';

export type BotMove =
  | { type: 'offer'; payload: { cardId: number; to: string; claim: Kind; step: number } }
  | { type: 'call'; payload: { call: 'true' | 'false'; step: number } }
  | { type: 'peek'; payload: { step: number } }
  | { type: 'pass'; payload: { to: string; claim: Kind; step: number } };

/**
 * A random legal move chosen from one client's decoded state only (what a real app knows):
 * null when it is not this client's turn. Used by load tests and the fuzzer's bystanders.
 */
export function chooseMove(state: CockroachState, me: string, rng: RngState): BotMove | null {
  if (state.phase !== 'playing') return null;
  const round = state.round;
  const step = state.step;
  if (!round.hasCard) {
    if (round.starter !== me) return null;
    const hand = [...(state.players.get(me)?.hand.keys() ?? [])];
    if (hand.length === 0) return null;
    return {
      type: 'offer',
      payload: {
        cardId: Number(pick(rng, hand)),
        to: pick(rng, [...state.order].filter((id) => id !== me) as string[]),
        claim: pick(rng, KINDS),
        step,
      },
    };
  }
  if (round.holder !== me) return null;
  // The server's own pass/peek rules, applied to the public facts this client decoded.
  const order = [...state.order] as string[];
  const seen = [...round.seen] as string[];
  const facts: PassFacts = {
    order,
    holder: me,
    seen,
    peeked: peekedFromPublic(order, round.starter, me, seen),
    twoPlayerPass: state.options.twoPlayerPass,
  };
  if (facts.peeked) return { type: 'pass', payload: { to: pick(rng, passTargetsFrom(facts)), claim: pick(rng, KINDS), step } };
  const canPeek = peekRefusalFrom(facts) === null;
  const choice = randInt(rng, canPeek ? 3 : 2);
  if (choice === 2) return { type: 'peek', payload: { step } };
  return { type: 'call', payload: { call: choice === 0 ? 'true' : 'false', step } };
}
