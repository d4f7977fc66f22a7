/**
 * What the UI of rules section 9 needs to know, decided by the server's own pure rules on the
 * public facts of a snapshot, so the app never re-implements a rule.
 */
import { RULE_MESSAGES, RuleErrorCode } from '../server/rules/errors';
import { ROOM_MESSAGES } from '../server/protocol';
import { PassFacts, passTargetsFrom, peekedFromPublic, peekRefusalFrom } from '../server/rules/queries';
import type { Kind } from '../server/rules/kinds';

/**
 * The public facts of a table these helpers read: a `GameSnapshot` (client-sdk/snapshot.ts) is
 * one. Named here, so the snapshot imports the helpers and never the other way round.
 */
export interface TableFacts {
  readonly me: string | null;
  readonly spectator: boolean;
  readonly myTurn: boolean;
  readonly seats: readonly { readonly id: string; readonly nickname: string; readonly isMe: boolean }[];
  readonly round: {
    readonly starter: string | null;
    readonly holder: string | null;
    readonly seen: readonly string[];
    readonly hasCard: boolean;
    readonly claim: Kind | null;
  };
  readonly options: { readonly twoPlayerPass: boolean };
}

export type ActionName = 'offer' | 'call' | 'peek' | 'pass';

export interface Reason {
  readonly code: RuleErrorCode | 'SPECTATOR';
  readonly message: string;
}

export interface TargetOption {
  readonly id: string;
  readonly nickname: string;
  readonly allowed: boolean;
  /** Why the button is greyed out. */
  readonly reason?: Reason;
}

const reason = (code: RuleErrorCode): Reason => ({ code, message: RULE_MESSAGES[code] });

export function passFactsFrom(s: TableFacts): PassFacts {
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
export function whatCanDo(s: TableFacts, facts = passFactsFrom(s)): ActionName[] {
  if (!s.myTurn) return [];
  if (!s.round.hasCard) return ['offer'];
  if (facts.peeked) return ['pass'];
  return peekRefusalFrom(facts) === null ? ['call', 'peek'] : ['call'];
}

/**
 * The other seats around the table, starting from the one after mine (the order the turn goes
 * round, and the order a table screen draws its opponents in); a spectator's: every seat in order.
 */
export function othersAround<T extends { readonly isMe: boolean }>(seats: readonly T[]): T[] {
  const mine = seats.findIndex((seat) => seat.isMe);
  return mine < 0 ? [...seats] : [...seats.slice(mine + 1), ...seats.slice(0, mine)];
}

/** Whom I may hand a new card to: everyone but me (an empty hand may still receive), from the seat after mine. */
export function offerTargets(s: TableFacts): TargetOption[] {
  return othersAround(s.seats).map((seat) => ({ id: seat.id, nickname: seat.nickname, allowed: true }));
}

/** Everyone but me, from the seat after mine: whom I may pass the peeked card to, and why the others are greyed out. */
export function passOptions(s: TableFacts): TargetOption[] {
  const facts = passFactsFrom(s);
  const allowed = new Set(passTargetsFrom(facts));
  return othersAround(s.seats).map((seat) => {
    if (allowed.has(seat.id)) return { id: seat.id, nickname: seat.nickname, allowed: true };
    if (facts.order.length === 2) return { id: seat.id, nickname: seat.nickname, allowed: false, reason: reason('TWO_PLAYER_NO_PEEK') };
    return { id: seat.id, nickname: seat.nickname, allowed: false, reason: reason('TARGET_ALREADY_SEEN') };
  });
}

/** Whether "몰래 보고 넘기기" is possible for me now, and why not. */
export function peekAvailability(s: TableFacts): { allowed: boolean; reason?: Reason } {
  if (s.spectator) return { allowed: false, reason: { code: 'SPECTATOR', message: ROOM_MESSAGES.SPECTATOR } };
  if (!s.myTurn || !s.round.hasCard) return { allowed: false, reason: reason('NOT_YOUR_TURN') };
  const refusal = peekRefusalFrom(passFactsFrom(s));
  return refusal ? { allowed: false, reason: { code: refusal.code, message: refusal.message } } : { allowed: true };
}
