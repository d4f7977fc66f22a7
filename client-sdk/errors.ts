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
  | 'NO_SAVED_SEAT';

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
};

export function localError(code: keyof typeof LOCAL_MESSAGES | SdkErrorCode, action: string): SdkError {
  return new SdkError(code, LOCAL_MESSAGES[code] ?? code, action);
}

/**
 * Matchmaking refusals arrive as colyseus.js ServerError with the message "CODE: 한국어 문장";
 * anything else (no server, network down) is CONNECTION_FAILED.
 */
export function joinError(error: unknown, action: string): SdkError {
  const text = error instanceof Error ? error.message : String(error);
  const match = /^([A-Z][A-Z_]+): ([\s\S]+)$/.exec(text);
  if (match) return new SdkError(match[1], match[2], action);
  return localError('CONNECTION_FAILED', action);
}
