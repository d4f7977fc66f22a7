import { LOG_LEVELS, LogLevel } from './log';

/** Operations settings read from the environment (docs/operations.md lists every variable). */
export interface OpsConfig {
  /** `redis://` or `rediss://` URL: presence + matchmaking shared by every process. Null: one process, in memory. */
  redisUrl: string | null;
  /**
   * `host[:port][/path]` (no scheme) where clients reach THIS process; Colyseus clients open
   * `ws(s)://{publicAddress}/{processId}/{roomId}`. Null: clients use the address they matchmade with.
   */
  publicAddress: string | null;
  /** On SIGTERM, how long running games may go on before they are cut (players told). */
  drainSeconds: number;
  /** Basic-auth credentials for `/colyseus`; null: the monitor is not mounted. */
  monitor: { user: string; password: string } | null;
  logLevel: LogLevel;
  /** Logged once at start (e.g. a default public address that only this machine can reach). */
  warnings: string[];
}

export const DEFAULT_DRAIN_SECONDS = 600;
export const MIN_MONITOR_PASSWORD = 12;

/** What an embedded server (tests, tools) runs with: one process, no monitor, quiet logs. */
export const EMBEDDED_OPS: OpsConfig = { redisUrl: null, publicAddress: null, drainSeconds: DEFAULT_DRAIN_SECONDS, monitor: null, logLevel: 'warn', warnings: [] };

type Env = Record<string, string | undefined>;

function value(env: Env, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw.trim() === '' ? undefined : raw.trim();
}

export function opsConfigFromEnv(port: number, env: Env = process.env): OpsConfig {
  const warnings: string[] = [];

  const redisUrl = value(env, 'REDIS_URL') ?? null;
  if (redisUrl !== null && !/^rediss?:\/\/[^\s]+$/.test(redisUrl)) {
    throw new Error(`REDIS_URL must be a redis:// or rediss:// URL, got "${redisUrl}"`);
  }

  let publicAddress = value(env, 'PUBLIC_ADDRESS') ?? null;
  if (publicAddress !== null) {
    if (/^[a-z]+:\/\//i.test(publicAddress)) {
      throw new Error(`PUBLIC_ADDRESS is host[:port][/path] without a scheme (clients add ws:// or wss://), got "${publicAddress}"`);
    }
    if (!/^[A-Za-z0-9.\-\[\]:]+(\/[A-Za-z0-9._~\-/]*[A-Za-z0-9._~\-])?$/.test(publicAddress)) {
      throw new Error(`PUBLIC_ADDRESS must look like host[:port][/path] with no trailing slash, got "${publicAddress}"`);
    }
  } else if (redisUrl !== null) {
    // Each process must advertise an address that reaches it, or a client matchmade by another
    // process connects to the wrong one. The default serves one machine only (development).
    if (port === 0) throw new Error('with REDIS_URL, set PUBLIC_ADDRESS or a fixed PORT (port 0 cannot be advertised)');
    publicAddress = `127.0.0.1:${port}`;
    warnings.push(`PUBLIC_ADDRESS not set: advertising ${publicAddress}, which only clients on this machine can reach`);
  }

  const drainRaw = value(env, 'DRAIN_SECONDS');
  const drainSeconds = drainRaw === undefined ? DEFAULT_DRAIN_SECONDS : Number(drainRaw);
  if (!Number.isInteger(drainSeconds) || drainSeconds < 0 || drainSeconds > 86_400) {
    throw new Error(`DRAIN_SECONDS must be an integer from 0 to 86400, got "${drainRaw}"`);
  }

  const user = value(env, 'MONITOR_USER');
  const password = env.MONITOR_PASSWORD === undefined || env.MONITOR_PASSWORD === '' ? undefined : env.MONITOR_PASSWORD;
  if ((user === undefined) !== (password === undefined)) {
    throw new Error('set both MONITOR_USER and MONITOR_PASSWORD to mount the monitor, or neither');
  }
  if (password !== undefined && password.length < MIN_MONITOR_PASSWORD) {
    throw new Error(`MONITOR_PASSWORD must be at least ${MIN_MONITOR_PASSWORD} characters (the monitor shows every hand)`);
  }
  if (user !== undefined && user.includes(':')) throw new Error('MONITOR_USER cannot contain ":"');

  const level = (value(env, 'LOG_LEVEL') ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(level)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${level}"`);

  return { redisUrl, publicAddress, drainSeconds, monitor: user !== undefined ? { user, password: password! } : null, logLevel: level, warnings };
}
