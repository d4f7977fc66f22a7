/**
 * How many connections this process can hold: every TCP connection (HTTP request or WebSocket)
 * is one open file, so `MAX_CONNECTIONS`' default follows the soft open-file limit
 * (RLIMIT_NOFILE, what `ulimit -n` shows and raises), less headroom for what else the process
 * keeps open. `MAX_CONNECTIONS` set explicitly still wins (server/base/config.ts).
 */
import { readFileSync } from 'node:fs';

/**
 * Files kept for everything but players' connections: about 25 at idle (stdio, the SQLite file
 * and its WAL, event loop internals, the listening sockets), Redis and a PostgreSQL pool (up to
 * about 15), the esbuild service for /play, and the 64 connections past the limit the edge still
 * accepts to answer SERVER_BUSY (server/http/edge.ts). 256 leaves room to spare.
 */
export const FILE_HEADROOM = 256;
/** The largest MAX_CONNECTIONS accepted, and the default when the file limit is unlimited. */
export const MAX_CONNECTIONS_CEILING = 1_000_000;
/** Used where no file limit can be read (not Linux). */
export const FALLBACK_MAX_CONNECTIONS = 10_000;

export interface ConnectionCapacity {
  maxConnections: number;
  /** Where the figure came from, for the start-up log. */
  source: string;
}

/** The soft and hard "Max open files" of `/proc/<pid>/limits` text; null when absent. Infinity for "unlimited". */
export function parseOpenFileLimit(limits: string): { soft: number; hard: number } | null {
  const m = /^Max open files\s+(\d+|unlimited)\s+(\d+|unlimited)\s+files\s*$/m.exec(limits);
  if (!m) return null;
  const num = (s: string) => (s === 'unlimited' ? Infinity : Number(s));
  return { soft: num(m[1]), hard: num(m[2]) };
}

/** The default MAX_CONNECTIONS for a soft open-file limit (null: unknown). */
export function connectionCapacity(soft: number | null): ConnectionCapacity {
  if (soft === null) return { maxConnections: FALLBACK_MAX_CONNECTIONS, source: 'default (no open-file limit readable)' };
  if (!Number.isFinite(soft)) return { maxConnections: MAX_CONNECTIONS_CEILING, source: 'open-file limit unlimited' };
  // A small limit keeps half for itself rather than none for the players.
  const headroom = Math.min(FILE_HEADROOM, Math.floor(soft / 2));
  return {
    maxConnections: Math.min(MAX_CONNECTIONS_CEILING, Math.max(1, soft - headroom)),
    source: `open-file limit ${soft} (soft RLIMIT_NOFILE) - ${headroom} headroom`,
  };
}

/** This process's capacity, read once from /proc/self/limits. */
export function processConnectionCapacity(read: () => string = () => readFileSync('/proc/self/limits', 'utf8')): ConnectionCapacity {
  let limits: string;
  try {
    limits = read();
  } catch {
    return connectionCapacity(null);
  }
  return connectionCapacity(parseOpenFileLimit(limits)?.soft ?? null);
}
