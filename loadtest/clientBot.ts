import { KINDS, Kind, PassFacts, passTargetsFrom, peekedFromPublic, peekRefusalFrom, pick, randInt, RngState } from '../server/rules';
import type { CockroachState } from '../server/schema/CockroachState';

export type BotMove =
  | { type: 'offer'; payload: { cardId: number; to: string; claim: Kind; step: number } }
  | { type: 'call'; payload: { call: 'true' | 'false'; step: number } }
  | { type: 'peek'; payload: { step: number } }
  | { type: 'pass'; payload: { to: string; claim: Kind; step: number } };

/** What one client knows that decides its move: public facts of the round, and its own hand. */
export interface MoveFacts {
  phase: string;
  step: number;
  hasCard: boolean;
  starter: string;
  holder: string;
  order: readonly string[];
  seen: readonly string[];
  hand: readonly number[];
  twoPlayerPass: boolean;
}

/**
 * A random legal move chosen from one client's decoded state only (what a real app knows):
 * null when it is not this client's turn. Used by load tests and the fuzzer's bystanders.
 */
export function chooseMove(state: CockroachState, me: string, rng: RngState): BotMove | null {
  if (state.phase !== 'playing') return null;
  const round = state.round;
  // Cheap refusals first: the fuzzer asks every client of a room which one is on turn.
  if (round.hasCard ? round.holder !== me : round.starter !== me) return null;
  return chooseMoveFrom(moveFactsOf(state, me), me, rng);
}

/** What one client's decoded state says that decides its move (fresh arrays: the caller may keep them). */
export function moveFactsOf(state: CockroachState, me: string): MoveFacts & { order: string[]; seen: string[]; hand: number[] } {
  const round = state.round;
  return {
    phase: state.phase,
    step: state.step,
    hasCard: round.hasCard,
    starter: round.starter,
    holder: round.holder,
    order: [...state.order] as string[],
    seen: [...round.seen] as string[],
    hand: [...(state.players.get(me)?.hand.keys() ?? [])].map(Number),
    twoPlayerPass: state.options.twoPlayerPass,
  };
}

/** The same choice from facts however they were learnt (a decoded state, or the events message: leanSeat.ts). */
export function chooseMoveFrom(f: MoveFacts, me: string, rng: RngState): BotMove | null {
  if (f.phase !== 'playing') return null;
  const step = f.step;
  if (!f.hasCard) {
    if (f.starter !== me || f.hand.length === 0) return null;
    return {
      type: 'offer',
      payload: {
        cardId: pick(rng, f.hand),
        to: pick(
          rng,
          f.order.filter((id) => id !== me),
        ),
        claim: pick(rng, KINDS),
        step,
      },
    };
  }
  if (f.holder !== me) return null;
  // The server's own pass/peek rules, applied to the public facts this client knows.
  const facts: PassFacts = {
    order: f.order,
    holder: me,
    seen: f.seen,
    peeked: peekedFromPublic(f.order, f.starter, me, f.seen),
    twoPlayerPass: f.twoPlayerPass,
  };
  if (facts.peeked) return { type: 'pass', payload: { to: pick(rng, passTargetsFrom(facts)), claim: pick(rng, KINDS), step } };
  const canPeek = peekRefusalFrom(facts) === null;
  const choice = randInt(rng, canPeek ? 3 : 2);
  if (choice === 2) return { type: 'peek', payload: { step } };
  return { type: 'call', payload: { call: choice === 0 ? 'true' : 'false', step } };
}
