import type { RuleError } from '../rules';
import { ErrorCode, KICK_REFUSALS, RULE_MESSAGES, RoomErrorCode, SeatEvent as WireSeatEvent } from '../protocol';
import type { Refusal, SeatEvent, TableRefusal } from '../table/vocabulary';

/**
 * The table's words (server/table/vocabulary.ts) as the wire says them (server/protocol.ts). Most
 * refusals keep their code; the two about whom an input concerns take the rules' codes, with a
 * kick's own sentence when the input was a kick. Seat events travel as they are: the types below
 * stop the build when the table's and the wire's differ, so a change to either is a decision made
 * here, not a surprise for the app.
 */
export type WireRefusal = ErrorCode | RuleError;

const RENAMED = { NOBODY_THERE: 'UNKNOWN_PLAYER', ONESELF: 'CANNOT_TARGET_SELF' } as const;
type Renamed = keyof typeof RENAMED;

type Assert<T extends true> = T;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Every refusal the table keeps by name is a code the wire has. */
export type RefusalsAgree = Assert<[Exclude<TableRefusal, Renamed>] extends [RoomErrorCode] ? true : false>;
/** The table's seat events are the wire's, field for field. */
export type SeatEventsAgree = Assert<Same<SeatEvent, WireSeatEvent>>;

/** A refusal of the table (or the rules) for the sender of `action`. */
export function wireRefusal(refusal: Refusal, action: string): WireRefusal {
  if (typeof refusal !== 'string') return refusal;
  if (!isRenamed(refusal)) return refusal;
  const code = RENAMED[refusal];
  return { code, message: action === 'kick' ? KICK_REFUSALS[code] : RULE_MESSAGES[code] };
}

/** The code alone: a join's refusal travels as "CODE: 한국어" and takes its sentence from the code. */
export function wireCode(refusal: Refusal): ErrorCode {
  return codeOf(wireRefusal(refusal, 'join'));
}

/** The code of a wire refusal, whether it carries its own sentence or not. */
export function codeOf(refusal: WireRefusal): ErrorCode {
  return typeof refusal === 'string' ? refusal : refusal.code;
}

export function seatEventOnWire(event: SeatEvent): WireSeatEvent {
  return event;
}

function isRenamed(code: TableRefusal): code is Renamed {
  return Object.hasOwn(RENAMED, code);
}
