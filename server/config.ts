import { OpsConfig, opsConfigFromEnv } from './base/config';
import {
  DEFAULT_BOT_THINK_MS,
  DEFAULT_LOBBY_GRACE_SECONDS,
  DEFAULT_MESSAGE_BURST,
  DEFAULT_MESSAGES_PER_SECOND,
  DEFAULT_RECONNECT_GRACE_SECONDS,
} from './room/constants';

/** Every setting the server reads from its environment, in one place. */
export interface ServerConfig {
  port: number;
  /** Seconds a dropped player's seat is held for a reconnect (RULINGS "Connections"). */
  reconnectGraceSeconds: number;
  /** Seconds a dropped player's lobby seat is held (PROTOCOL v2 "Seats come back"). */
  lobbyGraceSeconds?: number;
  /** Bots think a random time up to this many ms (PROTOCOL v2 "Practice bots"). */
  botThinkMs?: number;
  /** Per-client message rate: a burst, then a steady rate (flood protection). */
  messageBurst: number;
  messagesPerSecond: number;
  /** Where game records go (DATABASE_URL, DATABASE_FILE, DATA_DIR, RECORD_RETENTION_DAYS); process.env when absent. */
  recordsEnv?: Record<string, string | undefined>;
  /** AUTH_JWT_SECRET / AUTH_JWT_PUBLIC_KEY, or DATA_DIR for the guest key (server/identity/config.ts); recordsEnv, else process.env, when absent. */
  identityEnv?: Record<string, string | undefined>;
  /** Redis scale-out, drain, monitor, logs (server/base/config.ts); embedded defaults when absent. */
  ops?: OpsConfig;
}

function intFromEnv(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

export function configFromEnv(): ServerConfig {
  const port = intFromEnv('PORT', 2567, 0, 65535);
  return {
    port,
    reconnectGraceSeconds: intFromEnv('RECONNECT_GRACE_SECONDS', DEFAULT_RECONNECT_GRACE_SECONDS, 1, 3600),
    lobbyGraceSeconds: intFromEnv('LOBBY_GRACE_SECONDS', DEFAULT_LOBBY_GRACE_SECONDS, 1, 3600),
    botThinkMs: intFromEnv('BOT_THINK_MS', DEFAULT_BOT_THINK_MS, 0, 60_000),
    messageBurst: intFromEnv('MESSAGE_BURST', DEFAULT_MESSAGE_BURST, 1, 1_000_000),
    messagesPerSecond: intFromEnv('MESSAGES_PER_SECOND', DEFAULT_MESSAGES_PER_SECOND, 1, 1_000_000),
    ops: opsConfigFromEnv(port),
  };
}
