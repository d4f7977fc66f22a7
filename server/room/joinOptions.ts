import { ruleError, RuleError, validateOptions, GameOptions, OPTION_KEYS } from '../rules';
// `entropy` (PROTOCOL v2 "Fair play"): 16–64 hex characters, players only.
import { isEntropy } from '../fairness/derive';

import { NICKNAME_MAX } from '../protocol';
import { isReservedNickname, parseNickname } from '../identity/nickname';

export { NICKNAME_MAX };
const ROOM_KEYS = new Set(['nickname', 'spectator', 'private', 'entropy']);

export interface JoinRequest {
  spectator: boolean;
  nickname: string;
  private: boolean;
  /** The player's fair-play entropy as given; '' when none was given (spectators always ''). */
  entropy: string;
  options: GameOptions;
}

export type JoinParse =
  { ok: true; join: JoinRequest } | { ok: false; code: 'BAD_NICKNAME' | 'RESERVED_NICKNAME' | RuleError['code']; field?: string };

/**
 * Validates create/join options from an untrusted client. Room keys (`nickname`, `spectator`,
 * `private`, `entropy`) are taken out; everything else must be a valid game option.
 */
export function parseJoinOptions(raw: unknown): JoinParse {
  const input = raw ?? {};
  if (typeof input !== 'object' || Array.isArray(input)) return { ok: false, code: 'BAD_OPTIONS' };
  const proto = Object.getPrototypeOf(input);
  if (proto !== Object.prototype && proto !== null) return { ok: false, code: 'BAD_OPTIONS' };
  const record = input as Record<string, unknown>;
  const own = (key: string) => (Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined);
  // `null` is a value of the wrong type like any other, never "not given" (issue 20).
  for (const key of Object.keys(record)) {
    if (record[key] !== null) continue;
    return key === 'nickname'
      ? { ok: false, code: 'BAD_NICKNAME' }
      : fail(ruleError(ROOM_KEYS.has(key) ? 'BAD_OPTION' : unknownOr(key), key.slice(0, 40)));
  }

  const spectator = own('spectator') === undefined ? false : own('spectator');
  if (typeof spectator !== 'boolean') return fail(ruleError('BAD_OPTION', 'spectator'));
  const isPrivate = own('private') === undefined ? false : own('private');
  if (typeof isPrivate !== 'boolean') return fail(ruleError('BAD_OPTION', 'private'));

  const rawEntropy = own('entropy');
  let entropy = '';
  if (rawEntropy !== undefined) {
    if (spectator || !isEntropy(rawEntropy)) return fail(ruleError('BAD_OPTION', 'entropy'));
    entropy = rawEntropy;
  }

  let nickname = '';
  if (!spectator || own('nickname') !== undefined) {
    const parsed = parseNickname(own('nickname'));
    if (parsed === null) return { ok: false, code: 'BAD_NICKNAME' };
    if (isReservedNickname(parsed)) return { ok: false, code: 'RESERVED_NICKNAME' };
    nickname = parsed;
  }

  const gameOptions: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(record)) if (!ROOM_KEYS.has(key)) gameOptions[key] = record[key];
  const options = validateOptions(gameOptions);
  if (!options.ok) return fail(options.error);
  return { ok: true, join: { spectator, nickname, private: isPrivate, entropy, options: options.options } };
}

/** A game option's key given as `null` is a bad value; any other key is unknown, as validateOptions says. */
function unknownOr(key: string): 'BAD_OPTION' | 'UNKNOWN_OPTION' {
  return OPTION_KEYS.includes(key) ? 'BAD_OPTION' : 'UNKNOWN_OPTION';
}

function fail(error: RuleError): JoinParse {
  return { ok: false, code: error.code, field: error.field };
}
