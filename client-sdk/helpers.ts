/**
 * What the UI of rules section 9 needs to know, decided by the server's own pure rules on the
 * public facts of a snapshot, so the app never re-implements a rule.
 */
import { RULE_MESSAGES, RuleErrorCode } from '../server/rules/errors';
import { ROOM_MESSAGES } from '../server/protocol';
import { PassFacts, passTargetsFrom, peekedFromPublic, peekRefusalFrom } from '../server/rules/queries';
import type { GameSnapshot } from './snapshot';

export type ActionName = 'offer' | 'call' | 'peek' | 'pass';

export interface Reason {
  code: RuleErrorCode | 'SPECTATOR';
  message: string;
}

export interface TargetOption {
  id: string;
  nickname: string;
  allowed: boolean;
  /** Why the button is greyed out. */
  reason?: Reason;
}

const reason = (code: RuleErrorCode): Reason => ({ code, message: RULE_MESSAGES[code] });

export function passFactsFrom(s: GameSnapshot): PassFacts {
  const order = s.seats.map((seat) => seat.id);
  const { starter, holder, seen } = s.round;
  return {
    order,
    holder,
    seen,
    peeked: starter !== null && peekedFromPublic(order, starter, holder, seen),
    twoPlayerPass: s.options.twoPlayerPass,
  };
}

/** Actions I may send now (the same list the server's legal moves have, by type). */
export function whatCanDo(s: GameSnapshot, facts = passFactsFrom(s)): ActionName[] {
  if (!s.myTurn) return [];
  if (!s.round.hasCard) return ['offer'];
  if (facts.peeked) return ['pass'];
  return peekRefusalFrom(facts) === null ? ['call', 'peek'] : ['call'];
}

/** Whom I may hand a new card to: everyone but me, even with an empty hand. */
export function offerTargets(s: GameSnapshot): TargetOption[] {
  return s.seats.map((seat) =>
    seat.isMe
      ? { id: seat.id, nickname: seat.nickname, allowed: false, reason: reason('CANNOT_TARGET_SELF') }
      : { id: seat.id, nickname: seat.nickname, allowed: true },
  );
}

/** Whom I may pass the peeked card to, and why each other player is greyed out. */
export function passOptions(s: GameSnapshot): TargetOption[] {
  const facts = passFactsFrom(s);
  const allowed = new Set(passTargetsFrom(facts));
  return s.seats.map((seat) => {
    if (allowed.has(seat.id)) return { id: seat.id, nickname: seat.nickname, allowed: true };
    if (seat.id === s.me) return { id: seat.id, nickname: seat.nickname, allowed: false, reason: reason('CANNOT_TARGET_SELF') };
    if (facts.order.length === 2) return { id: seat.id, nickname: seat.nickname, allowed: false, reason: reason('TWO_PLAYER_NO_PEEK') };
    return { id: seat.id, nickname: seat.nickname, allowed: false, reason: reason('TARGET_ALREADY_SEEN') };
  });
}

/** Whether "몰래 보고 넘기기" is possible for me now, and why not. */
export function peekAvailability(s: GameSnapshot): { allowed: boolean; reason?: Reason } {
  if (s.spectator) return { allowed: false, reason: { code: 'SPECTATOR', message: ROOM_MESSAGES.SPECTATOR } };
  if (!s.myTurn || !s.round.hasCard) return { allowed: false, reason: reason('NOT_YOUR_TURN') };
  const refusal = peekRefusalFrom(passFactsFrom(s));
  return refusal ? { allowed: false, reason: { code: refusal.code, message: refusal.message } } : { allowed: true };
}
