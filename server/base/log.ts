import { isSecretKey, redact, REDACTED } from './redact';

/**
 * Structured logs: one JSON object per line on stdout, e.g.
 *   {"time":"2025-01-01T12:00:00.000Z","level":"info","event":"game.ended","processId":"x1","roomId":"a2","reason":"four","steps":57}
 *
 * Field values are primitives only (no objects, so no state, hand or match can be dumped by
 * accident), and keys that name hidden data (hands, card kinds, seeds, ...) are dropped before a
 * line is written. Credentials (reconnection and identity tokens) are redacted from every key and
 * string, whoever wrote them (server/base/redact.ts). Errors keep their name, message and a
 * bounded stack.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
export type LogValue = string | number | boolean | null | undefined;
export type LogFields = Record<string, LogValue>;

export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error', 'silent'];
const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/**
 * Keys that could carry a hidden card or what derives one, compared lower-cased. Nothing in the
 * server passes them; this is the net under that promise.
 */
const HIDDEN_KEYS = new Set([
  'hand',
  'hands',
  'cardkind',
  'kind',
  'kinds',
  'card',
  'cards',
  'cardid',
  'removed',
  'seed',
  'rng',
  'state',
  'deck',
  'log',
]);
const MAX_STRING = 1000;
const MAX_STACK = 4000;

let threshold = RANK.info;
let context: LogFields = {};
let sink: (line: string) => void = (line) => void process.stdout.write(line + '\n');

export function setLogLevel(level: LogLevel): void {
  threshold = RANK[level];
}

/** Fields added to every line (the process id, once known). */
export function setLogContext(fields: LogFields): void {
  context = { ...fields };
}

/** Tests: capture lines instead of writing them. `null` restores stdout. A new sink starts with a fresh throttle. */
export function setLogSink(next: ((line: string) => void) | null): void {
  sink = next ?? ((line) => void process.stdout.write(line + '\n'));
  buckets.clear();
}

function clean(value: LogValue): LogValue {
  if (typeof value === 'string') return redact(value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) return value;
  return `[${typeof value}]`; // a cast got past the types: never serialise an object
}

function errorFields(error: unknown): LogFields {
  if (error instanceof Error) {
    const stack = error.stack ?? '';
    return {
      errName: error.name,
      errMessage: clean(error.message),
      errStack: stack.length > MAX_STACK ? `${stack.slice(0, MAX_STACK)}…` : stack,
    };
  }
  if (typeof error === 'string') return { errMessage: clean(error) };
  return { errMessage: `[${error === null ? 'null' : typeof error}]` };
}

/** The one JSON line for an event, or null below the level. Exported for tests. */
export function formatLine(level: Exclude<LogLevel, 'silent'>, event: string, fields: LogFields = {}, error?: unknown): string {
  const out: Record<string, LogValue | string[]> = { time: new Date().toISOString(), level, event };
  const dropped: string[] = [];
  for (const source of [context, fields, error === undefined ? {} : errorFields(error)]) {
    for (const key of Object.keys(source)) {
      if (key === 'time' || key === 'level' || key === 'event') continue;
      if (HIDDEN_KEYS.has(key.toLowerCase())) {
        dropped.push(key);
        continue;
      }
      const value = isSecretKey(key) && source[key] !== undefined ? REDACTED : clean(source[key]);
      if (value !== undefined) out[key] = value;
    }
  }
  if (dropped.length > 0) out.dropped = dropped;
  return JSON.stringify(out);
}

/**
 * Lines per event (debug lines aside): a burst of LOG_BURST, then LOG_LINES_PER_SECOND. A flood (a script creating
 * rooms, a stream of bad sockets) cannot turn into a flood of lines; the next line written for
 * that event says how many were left out (`suppressed`), and /metrics keeps the real counts.
 */
export const LOG_BURST = 100;
export const LOG_LINES_PER_SECOND = 20;
const MAX_THROTTLED_EVENTS = 1000;
const buckets = new Map<string, { tokens: number; at: number; suppressed: number }>();
let clock: () => number = Date.now;

/** Tests: the throttle's clock (null: the real one); also forgets every bucket. */
export function setLogClock(next: (() => number) | null): void {
  clock = next ?? Date.now;
  buckets.clear();
}

/** Suppressed count to report with this line, or null when the line must be dropped. */
function admit(event: string): number | null {
  const now = clock();
  let bucket = buckets.get(event);
  if (!bucket) {
    if (buckets.size >= MAX_THROTTLED_EVENTS) buckets.clear();
    bucket = { tokens: LOG_BURST, at: now, suppressed: 0 };
    buckets.set(event, bucket);
  }
  bucket.tokens = Math.min(LOG_BURST, bucket.tokens + ((now - bucket.at) / 1000) * LOG_LINES_PER_SECOND);
  bucket.at = now;
  if (bucket.tokens < 1) {
    bucket.suppressed++;
    return null;
  }
  bucket.tokens--;
  const suppressed = bucket.suppressed;
  bucket.suppressed = 0;
  return suppressed;
}

function write(level: Exclude<LogLevel, 'silent'>, event: string, fields?: LogFields, error?: unknown, always = false): void {
  if (!always && RANK[level] < threshold) return;
  // LOG_LEVEL=debug asks for a line per action: an investigation gets every one of them.
  const suppressed = always || level === 'debug' ? 0 : admit(event);
  if (suppressed === null) return;
  try {
    sink(formatLine(level, event, suppressed > 0 ? { ...fields, suppressed } : fields, error));
  } catch {
    // A closed stdout must not take a room down with it.
  }
}

export const log = {
  debug: (event: string, fields?: LogFields) => write('debug', event, fields),
  info: (event: string, fields?: LogFields) => write('info', event, fields),
  warn: (event: string, fields?: LogFields, error?: unknown) => write('warn', event, fields, error),
  error: (event: string, fields?: LogFields, error?: unknown) => write('error', event, fields, error),
  /** Written at any LOG_LEVEL: the one start-up line process managers and tests wait for. */
  always: (event: string, fields?: LogFields) => write('info', event, fields, undefined, true),
};

/**
 * Colyseus's own logger (`new Server({ logger })`), routed into the same JSON lines. Arguments
 * become one `msg` string: strings and numbers as they are, errors by stack, any other object
 * by its class name only.
 */
export const colyseusLogger = {
  debug: (...args: unknown[]) => write('debug', 'colyseus', { msg: joinArgs(args) }),
  trace: (...args: unknown[]) => write('debug', 'colyseus', { msg: joinArgs(args) }),
  info: (...args: unknown[]) => write('info', 'colyseus', { msg: joinArgs(args) }),
  warn: (...args: unknown[]) => write('warn', 'colyseus', { msg: joinArgs(args) }),
  error: (...args: unknown[]) => write('error', 'colyseus', { msg: joinArgs(args) }),
};

function joinArgs(args: unknown[]): string {
  return args
    .map((a) => {
      if (typeof a === 'string' || typeof a === 'number' || typeof a === 'boolean') return String(a);
      if (a instanceof Error) return a.stack ?? `${a.name}: ${a.message}`;
      if (a === null || a === undefined) return String(a);
      return `[${(a as object).constructor?.name ?? 'object'}]`;
    })
    .join(' ');
}
