import { ErrorCode, ROOM_MESSAGES } from '../server/protocol';
import { isLockedRoomText, MATCHMAKE_CODES, MATCHMAKE_INVALID_ROOM_ID } from '../server/colyseus/client';

/** Colyseus 0.15 matchmaking: the reconnection token is not (or no longer) valid for any seat. */
export const MATCHMAKE_EXPIRED = MATCHMAKE_CODES.EXPIRED;

/** What happened on this side, each with the sentence a child reads (the server's codes bring theirs: ROOM_MESSAGES). */
const LOCAL_MESSAGES = {
  CONNECTION_FAILED: '서버에 연결할 수 없어요. 잠시 후에 다시 해요.',
  CONNECTION_LOST: '연결이 끊겼어요. 다시 연결하는 중이에요.',
  ACTION_PENDING: '앞의 요청을 처리하는 중이에요.',
  NOT_IN_ROOM: '방에 들어가 있지 않아요.',
  TIMEOUT: '서버가 대답하지 않아요. 잠시 후에 다시 해요.',
  NO_SAVED_SEAT: '돌아갈 자리가 없어요.',
  ROOM_CLOSED: '방이 닫혔어요. 새 방에서 다시 모여요.',
  SEAT_GONE: '돌아갈 자리가 없어졌어요. 방에 다시 들어가요.',
  /** `left` after my own leave(). */
  LEFT: '방에서 나왔어요.',
  /** fetchRecord: the server's own answers (server/http/games.ts, checked equal in a test). */
  GAME_NOT_FOUND: '그 게임 기록을 찾을 수 없어요.',
  RECORDS_UNAVAILABLE: '지금은 게임 기록을 볼 수 없어요. 잠시 뒤에 다시 해 봐요.',
} as const;

export type LocalErrorCode = keyof typeof LOCAL_MESSAGES;

/**
 * Every code an SdkError can carry: the server's refusals (server/protocol.ts and the rules'
 * codes, see docs/protocol.md) and the SDK's own. A closed union, so a typo in a comparison
 * (`e.code === 'ROOM_NOT_FOUN'`) fails to compile.
 */
export type SdkErrorCode = ErrorCode | LocalErrorCode;

export class SdkError extends Error {
  constructor(
    readonly code: SdkErrorCode,
    message: string,
    /** The message type or call that failed: `offer`, `join`, `reconnect`, … */
    readonly action: string,
  ) {
    super(message);
    this.name = 'SdkError';
  }
}

const MESSAGES: Readonly<Record<string, string>> = { ...LOCAL_MESSAGES, ...ROOM_MESSAGES };

export function localError(code: SdkErrorCode, action: string): SdkError {
  return new SdkError(code, Object.prototype.hasOwnProperty.call(MESSAGES, code) ? MESSAGES[code] : code, action);
}

/** The same failure, for another call (a pending move that the end of the session also ends). */
export function errorFor(error: SdkError, action: string): SdkError {
  return new SdkError(error.code, error.message, action);
}

/** The numeric code of a colyseus.js ServerError or MatchMakeError: Colyseus's 42xx, or the HTTP status of a refusal. */
export function matchmakeCode(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}

/** A refusal written "CODE: 한국어 문장" (the room's and the edge's, PROTOCOL v3): its code and sentence. */
export function statedRefusal(error: unknown): { code: SdkErrorCode; message: string } | null {
  const text = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  const match = /^([A-Z][A-Z0-9_]+): ([\s\S]+)$/.exec(text);
  // A code this SDK version does not know still travels as the server said it.
  return match ? { code: match[1] as SdkErrorCode, message: match[2] } : null;
}

/**
 * Matchmaking refusals arrive as colyseus.js ServerError with the message "CODE: 한국어 문장".
 * A room id the server does not know (4212: mistyped, or the room has closed) is ROOM_NOT_FOUND,
 * except that Colyseus also answers 4212 for a full (locked) room. A 5xx without a stated code
 * (a proxy's 502) is SERVER_ERROR. Anything else (no server, network down) is CONNECTION_FAILED.
 */
export function joinError(error: unknown, action: string): SdkError {
  const stated = statedRefusal(error);
  if (stated) return new SdkError(stated.code, stated.message, action);
  const status = matchmakeCode(error);
  if (status !== undefined && status >= 500 && status < 600) return localError('SERVER_ERROR', action);
  if (status === MATCHMAKE_INVALID_ROOM_ID) {
    const text = error instanceof Error ? error.message : '';
    return localError(isLockedRoomText(text) ? 'ROOM_FULL' : 'ROOM_NOT_FOUND', action);
  }
  return localError('CONNECTION_FAILED', action);
}
