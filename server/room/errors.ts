import { RULE_MESSAGES, RuleError, RuleErrorCode } from '../rules';

/**
 * Refusals of the room itself (lobby, payloads, chat); the game's own refusals come from the
 * rules. Every code is stable; every message is a short Korean sentence without hidden data.
 */
export const ROOM_MESSAGES = {
  BAD_PAYLOAD: '보낸 내용이 올바르지 않아요.',
  UNKNOWN_MESSAGE: '알 수 없는 요청이에요.',
  STALE_ACTION: '이미 지나간 차례의 요청이에요. 화면을 다시 확인해요.',
  NOT_PLAYING: '지금은 게임 중이 아니에요.',
  ALREADY_STARTED: '게임이 이미 시작됐어요.',
  NOT_HOST: '방장만 게임을 시작할 수 있어요.',
  NOT_ENOUGH_PLAYERS: '2명 이상 모여야 시작할 수 있어요.',
  SPECTATOR: '구경하는 사람은 게임에 참여할 수 없어요.',
  CHAT_OFF: '이 방에서는 빠른 대화를 쓸 수 없어요.',
  UNKNOWN_PHRASE: '보낼 수 없는 문구예요.',
  RATE_LIMITED: '너무 빨라요! 잠시 후에 다시 해요.',
  BAD_NICKNAME: '닉네임은 1~12글자로 정해요.',
  ROOM_FULL: '자리가 가득 찼어요.',
  SPECTATORS_FULL: '구경하는 자리가 가득 찼어요.',
  LATE_JOIN: '이미 시작한 게임에는 들어갈 수 없어요. 구경하기로 들어와요.',
  SPECTATOR_CANNOT_CREATE: '방을 만들려면 닉네임을 정하고 참여해야 해요.',
  SERVER_ERROR: '서버에 문제가 생겼어요. 잠시 후에 다시 해요.',
  SERVER_DRAINING: '서버 점검을 준비하고 있어요. 새 방을 만들어 다시 모여요.',
  SERVER_SHUTDOWN: '서버 점검으로 게임을 여기서 마쳐야 해요. 미안해요!',
} as const;

export type RoomErrorCode = keyof typeof ROOM_MESSAGES;
export type ErrorCode = RoomErrorCode | RuleErrorCode;

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
  const base = errorReply(code, 'join').message;
  return detail ? `${code}: ${base} (${detail})` : `${code}: ${base}`;
}
