import { ruleError, RuleError } from './errors';

/** What a room creator may ask for. `loseCount` left out means "by player count at start". */
export interface GameOptions {
  loseCount?: 3 | 4 | 5;
  turnSeconds: 15 | 30 | 60;
  claimHistory: boolean;
  quickChat: boolean;
  eightKindsRule: boolean;
  twoPlayerPass: boolean;
  showSeenBy: true;
}

/** Options as the game runs them: every value fixed. */
export interface ResolvedOptions extends GameOptions {
  loseCount: 3 | 4 | 5;
}

export const DEFAULT_OPTIONS: Readonly<GameOptions> = Object.freeze({
  turnSeconds: 30,
  claimHistory: true,
  quickChat: true,
  eightKindsRule: false,
  twoPlayerPass: false,
  showSeenBy: true,
});

type Check = (value: unknown) => boolean;
const isBool: Check = (v) => typeof v === 'boolean';
const oneOf = (...allowed: unknown[]): Check => (v) => allowed.includes(v);

const OPTION_CHECKS: ReadonlyMap<string, Check> = new Map<string, Check>([
  ['loseCount', oneOf(3, 4, 5)],
  ['turnSeconds', oneOf(15, 30, 60)],
  ['claimHistory', isBool],
  ['quickChat', isBool],
  ['eightKindsRule', isBool],
  ['twoPlayerPass', isBool],
  ['showSeenBy', oneOf(true)],
]);

export const OPTION_KEYS: readonly string[] = [...OPTION_CHECKS.keys()];

export type OptionsResult = { ok: true; options: GameOptions } | { ok: false; error: RuleError };

/**
 * Validates untrusted game options. Anything but a plain object of known keys with allowed values
 * is refused; the error names the offending key (a key the client sent, so nothing is revealed).
 */
export function validateOptions(raw: unknown): OptionsResult {
  if (raw === undefined || raw === null) return { ok: true, options: { ...DEFAULT_OPTIONS } };
  if (typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, error: ruleError('BAD_OPTIONS') };
  const proto = Object.getPrototypeOf(raw);
  if (proto !== Object.prototype && proto !== null) return { ok: false, error: ruleError('BAD_OPTIONS') };
  const options: Record<string, unknown> = { ...DEFAULT_OPTIONS };
  for (const key of Object.keys(raw)) {
    const check = OPTION_CHECKS.get(key);
    if (!check) return { ok: false, error: ruleError('UNKNOWN_OPTION', key.slice(0, 40)) };
    const value = (raw as Record<string, unknown>)[key];
    if (!check(value)) return { ok: false, error: ruleError('BAD_OPTION', key) };
    options[key] = value;
  }
  return { ok: true, options: options as unknown as GameOptions };
}

/** The original's numbers: five of a kind with two players, four with more. */
export function defaultLoseCount(playerCount: number): 4 | 5 {
  return playerCount === 2 ? 5 : 4;
}

export function resolveOptions(options: GameOptions, playerCount: number): ResolvedOptions {
  return { ...options, loseCount: options.loseCount ?? defaultLoseCount(playerCount) };
}
