import { ruleError, RuleError, validateOptions, GameOptions } from '../rules';

export const NICKNAME_MAX = 12;
const ROOM_KEYS = new Set(['nickname', 'spectator', 'private']);
// Control, format (zero-width, bidi overrides), private-use and line/paragraph separators.
const FORBIDDEN_IN_NICKNAME = /[\p{Cc}\p{Cf}\p{Co}\p{Zl}\p{Zp}]/u;

export interface JoinRequest {
  spectator: boolean;
  nickname: string;
  private: boolean;
  options: GameOptions;
}

export type JoinParse = { ok: true; join: JoinRequest } | { ok: false; code: 'BAD_NICKNAME' | RuleError['code']; field?: string };

/** Trimmed, 1–12 code points, no invisible or control characters; null when unusable. */
export function parseNickname(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length > 200) return null;
  const trimmed = raw.trim();
  const length = [...trimmed].length;
  if (length < 1 || length > NICKNAME_MAX || FORBIDDEN_IN_NICKNAME.test(trimmed)) return null;
  return trimmed;
}

/**
 * Validates create/join options from an untrusted client. Room keys (`nickname`, `spectator`,
 * `private`) are taken out; everything else must be a valid game option.
 */
export function parseJoinOptions(raw: unknown): JoinParse {
  const input = raw ?? {};
  if (typeof input !== 'object' || Array.isArray(input)) return { ok: false, code: 'BAD_OPTIONS' };
  const proto = Object.getPrototypeOf(input);
  if (proto !== Object.prototype && proto !== null) return { ok: false, code: 'BAD_OPTIONS' };
  const record = input as Record<string, unknown>;

  const spectator = record.spectator ?? false;
  if (typeof spectator !== 'boolean') return fail(ruleError('BAD_OPTION', 'spectator'));
  const isPrivate = record.private ?? false;
  if (typeof isPrivate !== 'boolean') return fail(ruleError('BAD_OPTION', 'private'));

  let nickname = '';
  if (!spectator || record.nickname !== undefined) {
    const parsed = parseNickname(record.nickname);
    if (parsed === null) return { ok: false, code: 'BAD_NICKNAME' };
    nickname = parsed;
  }

  const gameOptions: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(record)) if (!ROOM_KEYS.has(key)) gameOptions[key] = record[key];
  const options = validateOptions(gameOptions);
  if (!options.ok) return fail(options.error);
  return { ok: true, join: { spectator, nickname, private: isPrivate, options: options.options } };
}

function fail(error: RuleError): JoinParse {
  return { ok: false, code: error.code, field: error.field };
}
