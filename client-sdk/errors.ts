import { MATCHMAKE_INVALID_ROOM_ID, ROOM_MESSAGES } from '../server/protocol';

/** Colyseus 0.15 matchmaking: the reconnection token is not (or no longer) valid for any seat. */
export const MATCHMAKE_EXPIRED = 4214;

/**
 * Every failure the SDK reports: the server's stable code and Korean message where the server
 * gave one, or an SDK code for what happened on this side.
 */
export type SdkErrorCode =
  | string // any server code (see docs/protocol.md)
  | 'CONNECTION_FAILED'
  | 'CONNECTION_LOST'
  | 'ACTION_PENDING'
  | 'NOT_IN_ROOM'
  | 'TIMEOUT'
  | 'NO_SAVED_SEAT'
  | 'ROOM_NOT_FOUND'
  | 'ROOM_CLOSED'
  | 'SEAT_GONE';

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

const LOCAL_MESSAGES: Record<string, string> = {
  CONNECTION_FAILED: '서버에 연결할 수 없어요. 잠시 후에 다시 해요.',
  CONNECTION_LOST: '연결이 끊겼어요. 다시 연결하는 중이에요.',
  ACTION_PENDING: '앞의 요청을 처리하는 중이에요.',
  NOT_IN_ROOM: '방에 들어가 있지 않아요.',
  TIMEOUT: '서버가 대답하지 않아요. 잠시 후에 다시 해요.',
  NO_SAVED_SEAT: '돌아갈 자리가 없어요.',
  ROOM_CLOSED: '방이 닫혔어요. 새 방에서 다시 모여요.',
  SEAT_GONE: '돌아갈 자리가 없어졌어요. 방에 다시 들어가요.',
  ...ROOM_MESSAGES,
};

export function localError(code: keyof typeof LOCAL_MESSAGES | SdkErrorCode, action: string): SdkError {
  return new SdkError(code, LOCAL_MESSAGES[code] ?? code, action);
}

/** The numeric matchmaking code of a colyseus.js ServerError, if the server answered at all. */
export function matchmakeCode(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}

/**
 * Matchmaking refusals arrive as colyseus.js ServerError with the message "CODE: 한국어 문장".
 * A room id the server does not know (4212: mistyped, or the room has closed) is ROOM_NOT_FOUND,
 * except that Colyseus also answers 4212 for a full (locked) room. Anything else (no server,
 * network down) is CONNECTION_FAILED.
 */
export function joinError(error: unknown, action: string): SdkError {
  const text = error instanceof Error ? error.message : String(error);
  const match = /^([A-Z][A-Z_]+): ([\s\S]+)$/.exec(text);
  if (match) return new SdkError(match[1], match[2], action);
  if (matchmakeCode(error) === MATCHMAKE_INVALID_ROOM_ID)
    return localError(/is locked/.test(text) ? 'ROOM_FULL' : 'ROOM_NOT_FOUND', action);
  return localError('CONNECTION_FAILED', action);
}
