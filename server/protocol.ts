/**
 * The wire contract's names in one place (../shared/spec/PROTOCOL.md and docs/protocol.md):
 * imported by the server, the client SDK, the load tools and the tests. It imports nothing but
 * the pure rules' own codes, so the SDK can compile it in.
 */
import { RULE_MESSAGES, RuleErrorCode } from './rules/errors';
import { ACTION_TYPES, type PlayerId } from './rules/types';
import type { GameEventView } from './rules/visibility';

export const ROOM_NAME = 'cockroach-poker';

/** The four game actions the rules know (server/rules/types.ts). */
export const GAME_ACTIONS = ACTION_TYPES;
export type GameActionType = (typeof GAME_ACTIONS)[number];

/** Lobby and table messages that are not game actions. */
export const ROOM_ACTIONS = ['start', 'chat', 'rematch', 'addBot', 'removeBot', 'kick', 'ping', 'lock', 'unlock'] as const;
export type RoomActionType = (typeof ROOM_ACTIONS)[number];

/** Every message type a client may send: the transport guard closes a socket on any other. */
export const CLIENT_MESSAGES = [...ROOM_ACTIONS, ...GAME_ACTIONS] as const;
export type ClientMessageType = (typeof CLIENT_MESSAGES)[number];
export const CLIENT_MESSAGE_SET: ReadonlySet<string> = new Set<string>(CLIENT_MESSAGES);

/** Messages the server sends (besides state patches). */
export const SERVER_MESSAGES = {
  error: 'error',
  chat: 'chat',
  result: 'result',
  /** Answer to `ping`, for the SDK to notice a silently lost network. */
  pong: 'pong',
  /** What just happened at the table, cut down for each viewer (`EventsMessage`; Version 3). */
  events: 'events',
} as const;

/**
 * What happened at the table besides the game's own events: seats, presence, host, the start,
 * a rematch, and a move the rules made for someone (the clock ran out, or the player is away).
 * Public to everyone in the room.
 */
export type SeatEvent =
  | { type: 'seated'; player: PlayerId; bot: boolean }
  | { type: 'left'; player: PlayerId; reason: 'left' | 'grace' | 'rematch' | 'removed' | 'kicked' }
  | { type: 'dropped'; player: PlayerId }
  | { type: 'away'; player: PlayerId; reason: 'grace' | 'left' }
  | { type: 'returned'; player: PlayerId }
  | { type: 'hostChanged'; host: PlayerId | null }
  | { type: 'watching'; watcher: PlayerId }
  | { type: 'stoppedWatching'; watcher: PlayerId; reason: 'left' | 'kicked' | 'replaced' }
  | { type: 'locked'; by: PlayerId; reason: 'lock' | 'kick' }
  | { type: 'unlocked'; by: PlayerId }
  | { type: 'started'; order: PlayerId[] }
  | { type: 'defaultMove'; player: PlayerId; move: GameActionType; reason: 'clock' | 'away' }
  | { type: 'rematch' };

/** One event as a viewer receives it: a game event cut down by the visibility rule, or a seat event. */
export type WireEvent = GameEventView | SeatEvent;

/**
 * The `events` message: after each change's patch, what that change did, in order, for this
 * viewer. `step` is the state's `step` after the change.
 */
export interface EventsMessage {
  step: number;
  events: WireEvent[];
}

/**
 * Practice bot levels (`addBot` { level }): `gentle` (다정한, the default: a young child beats it),
 * `normal` (보통: an adult's equal) and `sharp` (영리한). `easy` and `smart` are the older names,
 * still accepted and played as before.
 */
export const BOT_LEVELS = ['gentle', 'normal', 'sharp', 'easy', 'smart'] as const;
export type BotLevel = (typeof BOT_LEVELS)[number];
export const DEFAULT_BOT_LEVEL: BotLevel = 'gentle';
const BOT_LEVEL_SET: ReadonlySet<unknown> = new Set<unknown>(BOT_LEVELS);
export function isBotLevel(value: unknown): value is BotLevel {
  return BOT_LEVEL_SET.has(value);
}

/** The quick-chat phrase keys of PROTOCOL.md with the Korean text the app shows. */
export const CHAT_PHRASES = {
  really: '정말이야!',
  doubt: '의심스러운데?',
  hurry: '빨리빨리!',
  nice: '잘했어!',
  oops: '앗, 안 돼!',
  thanks: '고마워!',
} as const;
export type ChatPhrase = keyof typeof CHAT_PHRASES;

/**
 * Refusals of the room itself (lobby, payloads, chat, joins); the game's own refusals come from
 * the rules. Every code is stable; every message is a short Korean sentence without hidden data.
 */
export const ROOM_MESSAGES = {
  BAD_PAYLOAD: '보낸 내용이 올바르지 않아요.',
  UNKNOWN_MESSAGE: '알 수 없는 요청이에요.',
  STALE_ACTION: '이미 지나간 차례의 요청이에요. 화면을 다시 확인해요.',
  NOT_PLAYING: '지금은 게임 중이 아니에요.',
  ALREADY_STARTED: '게임이 이미 시작됐어요.',
  NOT_HOST: '방장만 할 수 있어요.',
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
  GAME_NOT_OVER: '게임이 끝난 뒤에 할 수 있어요.',
  NOT_IN_LOBBY: '대기실에서만 할 수 있어요.',
  NOT_A_BOT: '그 자리는 연습 로봇이 아니에요.',
  SERVER_ERROR: '서버에 문제가 생겼어요. 잠시 후에 다시 해요.',
  SERVER_DRAINING: '서버 점검을 준비하고 있어요. 새 방을 만들어 다시 모여요.',
  SERVER_SHUTDOWN: '서버 점검으로 게임을 여기서 마쳐야 해요. 미안해요!',
  // The network edge (server/http): matchmaking refusals before any room is touched.
  TOO_MANY_REQUESTS: '요청이 너무 많아요. 잠시 후에 다시 해요.',
  TOO_MANY_LOBBIES: '이미 열어 둔 방이 많아요. 먼저 연 방에서 놀아요.',
  SERVER_BUSY: '지금 서버가 너무 바빠요. 잠시 후에 다시 해요.',
  PAYLOAD_TOO_LARGE: '보낸 내용이 너무 커요.',
  BAD_REQUEST: '잘못된 요청이에요.',
  LOBBY_EXPIRED: '대기실이 너무 오래 열려 있어서 닫았어요. 새 방을 만들어요.',
  NOT_FOUND: '찾는 주소가 없어요.',
  // PROTOCOL v3: identities (server/identity) and room codes at the edge.
  AUTH_REQUIRED: '로그인이 필요해요. 앱에서 다시 들어와요.',
  AUTH_INVALID: '로그인 정보가 올바르지 않아요. 앱에서 다시 들어와요.',
  ROOM_NOT_FOUND: '그런 방이 없어요. 방 번호를 다시 확인해요.',
  TOO_MANY_GUESSES: '틀린 방 번호를 너무 많이 넣었어요. 잠시 후에 다시 해요.',
  // Issue 32: requests from a web page of another origin, and bodies that are not JSON (server/http/origins.ts).
  FORBIDDEN_ORIGIN: '이 페이지에서는 들어올 수 없어요. 게임 앱이나 게임 페이지에서 해요.',
  UNSUPPORTED_MEDIA_TYPE: '보낸 내용의 형식이 올바르지 않아요.',
  // PROTOCOL v3: the table's own (server/table).
  KICKED: '방장이 이 방에서 내보냈어요. 다른 방에서 놀아요.',
  REPLACED: '다른 기기에서 이 자리로 들어왔어요. 여기서는 연결을 끊을게요.',
  ALREADY_SEATED: '이미 이 방에 자리가 있어요.',
  TOO_MANY_GAMES: '이 방에서 정말 많이 놀았어요! 새 방을 만들어 계속해요.',
  // Issue 32: a family's table that a stranger cannot take.
  LOCKED: '방장이 방을 잠가서 지금은 들어갈 수 없어요.',
  NOT_CREATOR: '방을 만든 사람만 할 수 있어요.',
  RESERVED_NICKNAME: '“로봇”으로 시작하는 이름은 연습 로봇만 쓸 수 있어요. 다른 이름을 정해요.',
} as const;

/**
 * `kick` refusals that share a code with the rules' own (a target that is not there, or oneself)
 * but say it for a kick: sent as { code, message } like a rule refusal.
 */
export const KICK_REFUSALS = {
  UNKNOWN_PLAYER: '그런 친구는 이 방에 없어요.',
  CANNOT_TARGET_SELF: '나 자신은 내보낼 수 없어요.',
} as const satisfies Partial<Record<RuleErrorCode, string>>;

/**
 * Games one room may play (issue 20 "records per room are bounded"): far more than a family
 * evening (a game takes 3–10 minutes: 100 games is five hours at the fastest), and a bound on the
 * records one room can leave behind however fast a script plays. Past it `rematch` is refused
 * with TOO_MANY_GAMES; a new room starts afresh.
 */
export const MAX_GAMES_PER_ROOM = 100;

export type RoomErrorCode = keyof typeof ROOM_MESSAGES;
export type ErrorCode = RoomErrorCode | RuleErrorCode;
export { RULE_MESSAGES };
export type { RuleErrorCode };

/**
 * A message type, or an option's key named back in a refusal: at most this many characters of
 * `[A-Za-z0-9_]`. Anything longer is never one of ours and is never echoed.
 */
export const MAX_NAME_LENGTH = 32;
const SHORT_NAME = new RegExp(`^[A-Za-z0-9_]{1,${MAX_NAME_LENGTH}}$`);
export function isShortName(text: unknown): text is string {
  return typeof text === 'string' && SHORT_NAME.test(text);
}
const FIELD_AT_END = new RegExp(`\\(([A-Za-z0-9_]{1,${MAX_NAME_LENGTH}})\\)$`);

/**
 * Matchmaking can only carry (number, string) from a room to the client, so a join or create
 * refusal travels as the text "CODE: 한국어 문장", with the option at fault in parentheses when
 * there is one. Written here and read back here, so the two never drift apart.
 */
export function refusalText(code: string, message: string, field?: string): string {
  return field !== undefined && isShortName(field) ? `${code}: ${message} (${field})` : `${code}: ${message}`;
}

/** The code (and the option at fault) of a refusal's text, or null when it is not one of ours. */
export function parseRefusalText(text: unknown): { code: ErrorCode; field?: string } | null {
  if (typeof text !== 'string') return null;
  const code = /^([A-Z][A-Z_]+): /.exec(text)?.[1];
  if (code === undefined) return null;
  const field = FIELD_AT_END.exec(text)?.[1];
  if (Object.prototype.hasOwnProperty.call(ROOM_MESSAGES, code)) return { code: code as ErrorCode };
  if (Object.prototype.hasOwnProperty.call(RULE_MESSAGES, code))
    return field === undefined ? { code: code as ErrorCode } : { code: code as ErrorCode, field };
  return null;
}

/** WebSocket close codes a client may see. */
export const CLOSE_CODES = {
  /** The client left on purpose (`room.leave()`). */
  CONSENTED: 4000,
  /** A malformed frame, a message type that is not ours, a flood, or a room that failed. */
  PROTOCOL_ERROR: 4002,
  /** A frame over the 4 KB limit (the WebSocket library's own code). */
  MESSAGE_TOO_BIG: 1009,
} as const;

/**
 * An id the server made and a client hands back (a Colyseus room or session id, a room code, a
 * reconnection token, a player id in a record): 1–64 characters of `[A-Za-z0-9_-]`. Anything else
 * is never one of ours and is looked up nowhere.
 */
export const OPAQUE_ID = /^[A-Za-z0-9_-]{1,64}$/;
export function isOpaqueId(text: unknown): text is string {
  return typeof text === 'string' && OPAQUE_ID.test(text);
}

/** A nickname's longest length, in Unicode code points after trimming (PROTOCOL v1). */
export const NICKNAME_MAX = 12;

/** Client frames are at most this many bytes on the wire. */
export const MAX_MESSAGE_BYTES = 4096;

/**
 * Every room id is a 6-digit code a child can read out (PROTOCOL v3 "Family tables"). What a
 * person types may carry spaces or dashes ("123 456", "123-456") and surrounding spaces; the
 * code is its six digits, or null when it is not a code at all.
 */
export const ROOM_CODE_PATTERN = /^[0-9]{6}$/;
export function normalizeRoomCode(text: unknown): string | null {
  if (typeof text !== 'string' || text.length > 32) return null;
  const trimmed = text.trim();
  if (!/^[0-9][0-9 -]*[0-9]$/.test(trimmed)) return null;
  const digits = trimmed.replace(/[ -]/g, '');
  return ROOM_CODE_PATTERN.test(digits) ? digits : null;
}
