import { KINDS, Kind, pick, randInt, RngState } from '../server/rules';
import type { CockroachState } from '../server/schema/CockroachState';

export type BotMove = { type: 'offer'; payload: { cardId: number; to: string; claim: Kind; step: number } }
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
  const others = [...state.order].filter((id) => id !== me) as string[];
  if (!round.hasCard) {
    if (round.starter !== me) return null;
    const hand = [...(state.players.get(me)?.hand.keys() ?? [])];
    if (hand.length === 0) return null;
    return { type: 'offer', payload: { cardId: Number(pick(rng, hand)), to: pick(rng, others), claim: pick(rng, KINDS), step } };
  }
  if (round.holder !== me) return null;
  const seen = new Set(round.seen);
  const twoPlayerPass = state.order.length === 2 && state.options.twoPlayerPass;
  // Only a two-player pass-back hands the card to someone who saw it without peeking: the starter.
  const peeked = seen.has(me) && !(state.order.length === 2 && round.starter === me);
  const targets = twoPlayerPass ? others : others.filter((id) => !seen.has(id));
  if (peeked) return { type: 'pass', payload: { to: pick(rng, targets), claim: pick(rng, KINDS), step } };
  const canPeek = !seen.has(me) && targets.length > 0 && (state.order.length > 2 || twoPlayerPass);
  const choice = randInt(rng, canPeek ? 3 : 2);
  if (choice === 2) return { type: 'peek', payload: { step } };
  return { type: 'call', payload: { call: choice === 0 ? 'true' : 'false', step } };
}

