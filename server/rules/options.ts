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

type Check = (value: unknown) => boolean;
const isBool: Check = (v) => typeof v === 'boolean';
const oneOf =
  (...allowed: unknown[]): Check =>
  (v) =>
    allowed.includes(v);

/** How an option travels in the room's state (`state.options`): a schema 2.x primitive type. */
export type OptionWireType = 'uint8' | 'boolean';

export interface OptionSpec {
  readonly key: string;
  /** Allowed values of a client's create option. */
  readonly check: Check;
  /** The value when the creator leaves it out (undefined: decided at the start). */
  readonly default: number | boolean | undefined;
  readonly wire: OptionWireType;
  /** What `state.options` shows while the value is undefined. */
  readonly unset: number | boolean;
  /** false for a room option the rules never see (`private`, parsed with the join). */
  readonly game: boolean;
}

/**
 * Every create option, described once: this list drives the validation below, the schema fields
 * of `RoomOptions` (server/schema/CockroachState.ts), the projection (server/project.ts) and the
 * SDK snapshot's `options` (client-sdk/snapshot.ts). A new house rule is one line here, plus its
 * type in `GameOptions` and the rules that use it.
 */
export const OPTION_SPECS = [
  { key: 'loseCount', check: oneOf(3, 4, 5), default: undefined, wire: 'uint8', unset: 0, game: true },
  { key: 'turnSeconds', check: oneOf(15, 30, 60), default: 30, wire: 'uint8', unset: 30, game: true },
  { key: 'claimHistory', check: isBool, default: true, wire: 'boolean', unset: true, game: true },
  { key: 'quickChat', check: isBool, default: true, wire: 'boolean', unset: true, game: true },
  { key: 'eightKindsRule', check: isBool, default: false, wire: 'boolean', unset: false, game: true },
  { key: 'twoPlayerPass', check: isBool, default: false, wire: 'boolean', unset: false, game: true },
  { key: 'showSeenBy', check: oneOf(true), default: true, wire: 'boolean', unset: true, game: true },
  { key: 'private', check: isBool, default: false, wire: 'boolean', unset: false, game: false },
] as const satisfies readonly OptionSpec[];

type Spec = (typeof OPTION_SPECS)[number];
export type OptionKey = Spec['key'];

/** `state.options` as a client decodes it: every option of the list, with its wire type. */
export type WireOptions = { -readonly [S in Spec as S['key']]: S['wire'] extends 'boolean' ? boolean : number };

const GAME_SPECS: readonly OptionSpec[] = OPTION_SPECS.filter((spec) => spec.game);

export const DEFAULT_OPTIONS: Readonly<GameOptions> = Object.freeze(
  Object.fromEntries(
    GAME_SPECS.filter((spec) => spec.default !== undefined).map((spec) => [spec.key, spec.default]),
  ) as unknown as GameOptions,
);

const OPTION_CHECKS: ReadonlyMap<string, Check> = new Map(GAME_SPECS.map((spec) => [spec.key, spec.check]));

export const OPTION_KEYS: readonly string[] = [...OPTION_CHECKS.keys()];

/** What `state.options` holds for these game options and the room's `private` flag. */
export function wireOptions(options: GameOptions, isPrivate: boolean): WireOptions {
  const given: Record<string, unknown> = { ...options, private: isPrivate };
  const out: Record<string, unknown> = {};
  for (const spec of OPTION_SPECS) out[spec.key] = given[spec.key] ?? spec.unset;
  return out as WireOptions;
}

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
