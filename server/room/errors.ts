import { RULE_MESSAGES, RuleError, RuleErrorCode } from '../rules';
import { ErrorCode, refusalText, ROOM_MESSAGES } from '../protocol';

export { ROOM_MESSAGES } from '../protocol';
export type { RoomErrorCode, ErrorCode } from '../protocol';

export interface ErrorReply {
  code: ErrorCode;
  message: string;
  action: string;
}

export function errorReply(code: ErrorCode, action: string): ErrorReply {
  const message = (ROOM_MESSAGES as Record<string, string>)[code] ?? RULE_MESSAGES[code as RuleErrorCode];
  return { code, message, action };
}

export function replyFromRule(error: RuleError, action: string): ErrorReply {
  return { code: error.code, message: error.message, action };
}

/**
 * Matchmaking can only carry (number, string) to the client: the string is "CODE: 한국어 문장",
 * which the SDK splits back into code and message.
 */
export function joinErrorText(code: ErrorCode, detail?: string): string {
  return refusalText(code, errorReply(code, 'join').message, detail);
}
