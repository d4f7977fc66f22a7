/**
 * The one command-line parser of the load tools (run, fuzz, latency, simulate, ladder): each tool
 * declares its flags once, with kind, default and limits, and gets typed values back or a usage
 * error naming the flag.
 *
 *   const args = parseArgs(process.argv.slice(2), {
 *     rooms: { kind: 'int', default: 20, min: 1, help: 'six-player rooms' },
 *     pace: { kind: 'choice', choices: ['human', 'fast'], default: 'human' },
 *     idle: { kind: 'flag' },
 *   });
 *
 * Flags are `--name value` or `--name=value`; a `flag` takes no value. Unknown flags are refused.
 */

export type FlagSpec =
  | { kind: 'int'; default: number; min?: number; max?: number; help?: string }
  | { kind: 'number'; default: number; min?: number; max?: number; help?: string }
  | { kind: 'string'; default: string; help?: string }
  | { kind: 'optional'; help?: string }
  | { kind: 'choice'; choices: readonly string[]; default: string; help?: string }
  | { kind: 'flag'; help?: string };

export type FlagSpecs = Record<string, FlagSpec>;

type ValueOf<S extends FlagSpec> = S extends { kind: 'int' | 'number' }
  ? number
  : S extends { kind: 'optional' }
    ? string | undefined
    : S extends { kind: 'flag' }
      ? boolean
      : S extends { kind: 'choice'; choices: readonly (infer C)[] }
        ? C
        : string;

export type ParsedArgs<T extends FlagSpecs> = { -readonly [K in keyof T]: ValueOf<T[K]> };

export class UsageError extends Error {}

export function parseArgs<const T extends FlagSpecs>(argv: readonly string[], specs: T): ParsedArgs<T> {
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(specs)) {
    out[name] = spec.kind === 'flag' ? false : spec.kind === 'optional' ? undefined : spec.default;
  }
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i];
    if (!token.startsWith('--')) throw new UsageError(`unexpected argument ${token}`);
    const eq = token.indexOf('=');
    const name = token.slice(2, eq >= 0 ? eq : undefined);
    const spec = Object.prototype.hasOwnProperty.call(specs, name) ? specs[name] : undefined;
    if (!spec) throw new UsageError(`unknown flag --${name}${usageHint(specs)}`);
    if (spec.kind === 'flag') {
      if (eq >= 0) throw new UsageError(`--${name} takes no value`);
      out[name] = true;
      continue;
    }
    const raw = eq >= 0 ? token.slice(eq + 1) : argv[++i];
    if (raw === undefined) throw new UsageError(`--${name} needs a value`);
    out[name] = convert(name, spec, raw);
  }
  return out as ParsedArgs<T>;
}

function convert(name: string, spec: Exclude<FlagSpec, { kind: 'flag' }>, raw: string): unknown {
  switch (spec.kind) {
    case 'int':
    case 'number': {
      const value = raw.trim() === '' ? Number.NaN : Number(raw);
      if (!Number.isFinite(value) || (spec.kind === 'int' && !Number.isInteger(value))) {
        throw new UsageError(`--${name} must be ${spec.kind === 'int' ? 'an integer' : 'a number'}`);
      }
      if (spec.min !== undefined && value < spec.min) throw new UsageError(`--${name} must be at least ${spec.min}`);
      if (spec.max !== undefined && value > spec.max) throw new UsageError(`--${name} must be at most ${spec.max}`);
      return value;
    }
    case 'choice':
      if (!spec.choices.includes(raw)) throw new UsageError(`--${name} must be one of ${spec.choices.join(', ')}`);
      return raw;
    case 'string':
    case 'optional':
      return raw;
  }
}

function usageHint(specs: FlagSpecs): string {
  return ` (known: ${Object.keys(specs)
    .map((n) => `--${n}`)
    .join(' ')})`;
}

/** For a tool's main: a usage error prints one line and exits 2; anything else is rethrown. */
export function parseArgsOrExit<const T extends FlagSpecs>(argv: readonly string[], specs: T): ParsedArgs<T> {
  try {
    return parseArgs(argv, specs);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`usage: ${error.message}`);
    process.exit(2);
  }
}
