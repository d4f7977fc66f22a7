import { MAX_CONNECTIONS_CEILING, processConnectionCapacity } from './fileLimit';
import { LOG_LEVELS, LogLevel } from './log';
import { parseAllowedOrigins } from './allowedOrigins';

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
  /** The network edge: matchmaking limits, HTTP timeouts, connections, the ops listener. */
  edge: EdgeConfig;
  /** Logged once at start (e.g. a default public address that only this machine can reach). */
  warnings: string[];
}

/**
 * Limits at the network edge (docs/operations.md, "Limits"). A per-minute or per-address limit of
 * 0 is off. Client addresses are the socket's peer unless it is one of `trustedProxies`.
 */
export interface EdgeConfig {
  /** Matchmaking bodies past this many bytes are refused with 413 before they are read. */
  maxBodyBytes: number;
  // Per identity (an app or guest token's player): the limits that count people (issue 21).
  /** `create`, and `joinOrCreate` that creates, per identity per minute. */
  createsPerMinute: number;
  /** `join`, `joinById`, `joinOrCreate` that joins, per identity per minute (never a reconnection or a seat taken back). */
  joinsPerMinute: number;
  /** Lobbies one identity may hold open (created, not yet started or gone). */
  lobbiesPerPlayer: number;
  /** Seat reservations one identity may hold at once before opening their sockets. */
  pendingSeatsPerPlayer: number;
  /** `joinById` of a room that does not exist, per identity per hour (issue 22: guessing codes). */
  wrongCodesPerHour: number;
  // Per client address: a coarse backstop sized for a school or a carrier NAT behind one
  // address, and the only count of anonymous players (guest mode without a token).
  addressCreatesPerMinute: number;
  addressJoinsPerMinute: number;
  /** Lobbies one address may hold open. */
  lobbiesPerAddress: number;
  /** Seat reservations one address may hold at once before opening their sockets. */
  pendingSeatsPerAddress: number;
  addressWrongCodesPerHour: number;
  /** Guest tokens (`POST /api/guest`) one address may be given per hour. */
  guestsPerAddressPerHour: number;
  /** Guest token renewals (`POST /api/guest/renew`) per address per hour: no new identity, so generous. */
  guestRenewalsPerAddressPerHour: number;
  /** Open connections from one address that is not a trusted proxy. */
  connectionsPerAddress: number;
  /** Matchmaking requests in progress at once in this process; past it SERVER_BUSY. */
  maxPendingMatchmakes: number;
  /** Open TCP connections (HTTP and WebSocket); past it new ones get SERVER_BUSY and are closed. Default: from the open-file limit (./fileLimit.ts). */
  maxConnections: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** An HTTP connection that sends nothing for this long is closed (WebSockets have their own heartbeat). */
  idleTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /**
   * Seconds a matchmade seat waits for its WebSocket. A phone on a weak network, or a client whose
   * process stalls, can take more than 5 s between the reservation and its socket; a reservation
   * that never connects takes no seat (server/table/admission.ts), so a longer wait costs only the
   * pending counters (per identity, address and room), which are what hold a script back.
   */
  seatReservationSeconds: number;
  /** Seconds a lobby may wait without a game starting before it is closed (LOBBY_EXPIRED); also how long a lobby placed on another process counts for its creator. */
  idleLobbySeconds: number;
  /** Peer addresses whose X-Forwarded-For is believed (exact IPs, e.g. 127.0.0.1 for a local nginx). */
  trustedProxies: string[];
  /** Browser origins that may call matchmaking and /api/guest (ALLOWED_ORIGINS); null: the server's own origin only (server/http/origins.ts). */
  allowedOrigins: string[] | null;
  /** Port of the internal listener for /metrics and /colyseus; null: none. */
  opsPort: number | null;
  /** Address the ops listener binds: loopback unless the scraper is elsewhere. */
  opsHost: string;
  /** Also answer /metrics and /colyseus on the public port (development only). */
  opsOnPublicPort: boolean;
}

/** This process's default MAX_CONNECTIONS and where it came from (logged at start by server/index.ts). */
export const CONNECTION_CAPACITY = processConnectionCapacity();

export const DEFAULT_EDGE: Readonly<EdgeConfig> = Object.freeze({
  maxBodyBytes: 4096,
  // Why these numbers: docs/security.md "Limits that count people" (a school of 200 on one address).
  createsPerMinute: 10,
  joinsPerMinute: 30,
  lobbiesPerPlayer: 3,
  pendingSeatsPerPlayer: 3,
  wrongCodesPerHour: 20,
  addressCreatesPerMinute: 120,
  addressJoinsPerMinute: 600,
  lobbiesPerAddress: 100,
  pendingSeatsPerAddress: 100,
  addressWrongCodesPerHour: 60,
  guestsPerAddressPerHour: 300,
  guestRenewalsPerAddressPerHour: 1200,
  connectionsPerAddress: 512,
  maxPendingMatchmakes: 200,
  maxConnections: CONNECTION_CAPACITY.maxConnections,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 15_000,
  idleTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  seatReservationSeconds: 15,
  idleLobbySeconds: 1800,
  trustedProxies: [] as string[],
  allowedOrigins: null,
  opsPort: null,
  opsHost: '127.0.0.1',
  opsOnPublicPort: false,
});

/**
 * Embedded servers (tests, tools) run many clients from one loopback address: no per-address
 * limits there; everything else as in production. Tests of the limits pass their own.
 */
export const EMBEDDED_EDGE: Readonly<EdgeConfig> = Object.freeze({
  ...DEFAULT_EDGE,
  createsPerMinute: 0,
  joinsPerMinute: 0,
  lobbiesPerPlayer: 0,
  pendingSeatsPerPlayer: 0,
  wrongCodesPerHour: 0,
  addressCreatesPerMinute: 0,
  addressJoinsPerMinute: 0,
  lobbiesPerAddress: 0,
  pendingSeatsPerAddress: 0,
  addressWrongCodesPerHour: 0,
  guestsPerAddressPerHour: 0,
  guestRenewalsPerAddressPerHour: 0,
  connectionsPerAddress: 0,
});

export const DEFAULT_DRAIN_SECONDS = 600;
export const MIN_MONITOR_PASSWORD = 12;

/** What an embedded server (tests, tools) runs with: one process, no monitor, quiet logs. */
export const EMBEDDED_OPS: OpsConfig = {
  redisUrl: null,
  publicAddress: null,
  drainSeconds: DEFAULT_DRAIN_SECONDS,
  monitor: null,
  logLevel: 'warn',
  edge: EMBEDDED_EDGE,
  warnings: [],
};

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
    if (!/^[A-Za-z0-9.[\]:-]+(\/[A-Za-z0-9._~/-]*[A-Za-z0-9._~-])?$/.test(publicAddress)) {
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

  const edge = edgeConfigFromEnv(env, port);
  if (edge.maxConnections > CONNECTION_CAPACITY.maxConnections && CONNECTION_CAPACITY.source.startsWith('open-file limit')) {
    warnings.push(
      `MAX_CONNECTIONS ${edge.maxConnections} is more than the open-file limit leaves room for (${CONNECTION_CAPACITY.maxConnections}): raise the limit (ulimit -n, LimitNOFILE) or connections past it fail`,
    );
  }
  return {
    redisUrl,
    publicAddress,
    drainSeconds,
    monitor: user !== undefined ? { user, password: password! } : null,
    logLevel: level,
    edge,
    warnings,
  };
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = value(env, name);
  if (raw === undefined) return fallback;
  const parsed = Number(raw);
  if (!/^\d+$/.test(raw) || parsed < min || parsed > max) throw new Error(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  return parsed;
}

function opsHost(host: string): string {
  if (!IP.test(host)) throw new Error(`OPS_HOST is an IP address to bind (e.g. 127.0.0.1 or 0.0.0.0), got "${host}"`);
  return host;
}

const IP = /^(\d{1,3}(\.\d{1,3}){3}|[0-9a-fA-F:]+(%\w+)?)$/;

export function edgeConfigFromEnv(env: Env, port: number): EdgeConfig {
  const d = DEFAULT_EDGE;
  const limitsOff = value(env, 'RATE_LIMITS') === 'off';
  if (value(env, 'RATE_LIMITS') !== undefined && !limitsOff)
    throw new Error(`RATE_LIMITS is "off" or unset, got "${value(env, 'RATE_LIMITS')}"`);
  const proxies = (value(env, 'TRUSTED_PROXY') ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  for (const proxy of proxies)
    if (!IP.test(proxy)) throw new Error(`TRUSTED_PROXY is a comma-separated list of IP addresses, got "${proxy}"`);
  const allowedOrigins = value(env, 'ALLOWED_ORIGINS');
  const opsPortRaw = value(env, 'OPS_PORT');
  const opsPort = opsPortRaw === undefined ? null : int(env, 'OPS_PORT', 0, 0, 65535);
  if (opsPort !== null && opsPort !== 0 && opsPort === port)
    throw new Error('OPS_PORT must differ from PORT (the ops routes stay off the public port)');
  const opsOnPublicRaw = value(env, 'OPS_ON_PUBLIC_PORT');
  if (opsOnPublicRaw !== undefined && opsOnPublicRaw !== '1' && opsOnPublicRaw !== '0')
    throw new Error(`OPS_ON_PUBLIC_PORT is 1 or 0, got "${opsOnPublicRaw}"`);
  return {
    maxBodyBytes: int(env, 'MATCHMAKE_MAX_BODY_BYTES', d.maxBodyBytes, 256, 65_536),
    createsPerMinute: limitsOff ? 0 : int(env, 'CREATES_PER_MINUTE', d.createsPerMinute, 0, 100_000),
    joinsPerMinute: limitsOff ? 0 : int(env, 'JOINS_PER_MINUTE', d.joinsPerMinute, 0, 100_000),
    lobbiesPerPlayer: limitsOff ? 0 : int(env, 'LOBBIES_PER_PLAYER', d.lobbiesPerPlayer, 0, 10_000),
    pendingSeatsPerPlayer: limitsOff ? 0 : int(env, 'PENDING_SEATS_PER_PLAYER', d.pendingSeatsPerPlayer, 0, 10_000),
    wrongCodesPerHour: limitsOff ? 0 : int(env, 'WRONG_CODES_PER_HOUR', d.wrongCodesPerHour, 0, 1_000_000),
    addressCreatesPerMinute: limitsOff ? 0 : int(env, 'ADDRESS_CREATES_PER_MINUTE', d.addressCreatesPerMinute, 0, 1_000_000),
    addressJoinsPerMinute: limitsOff ? 0 : int(env, 'ADDRESS_JOINS_PER_MINUTE', d.addressJoinsPerMinute, 0, 1_000_000),
    lobbiesPerAddress: limitsOff ? 0 : int(env, 'LOBBIES_PER_ADDRESS', d.lobbiesPerAddress, 0, 100_000),
    pendingSeatsPerAddress: limitsOff ? 0 : int(env, 'PENDING_SEATS_PER_ADDRESS', d.pendingSeatsPerAddress, 0, 100_000),
    addressWrongCodesPerHour: limitsOff ? 0 : int(env, 'ADDRESS_WRONG_CODES_PER_HOUR', d.addressWrongCodesPerHour, 0, 1_000_000),
    guestsPerAddressPerHour: limitsOff ? 0 : int(env, 'GUESTS_PER_ADDRESS_PER_HOUR', d.guestsPerAddressPerHour, 0, 1_000_000),
    guestRenewalsPerAddressPerHour: limitsOff
      ? 0
      : int(env, 'GUEST_RENEWALS_PER_ADDRESS_PER_HOUR', d.guestRenewalsPerAddressPerHour, 0, 1_000_000),
    connectionsPerAddress: limitsOff ? 0 : int(env, 'CONNECTIONS_PER_ADDRESS', d.connectionsPerAddress, 0, 1_000_000),
    maxPendingMatchmakes: int(env, 'MAX_PENDING_MATCHMAKES', d.maxPendingMatchmakes, 1, 100_000),
    maxConnections: int(env, 'MAX_CONNECTIONS', d.maxConnections, 1, MAX_CONNECTIONS_CEILING),
    headersTimeoutMs: int(env, 'HEADERS_TIMEOUT_SECONDS', d.headersTimeoutMs / 1000, 1, 600) * 1000,
    requestTimeoutMs: int(env, 'REQUEST_TIMEOUT_SECONDS', d.requestTimeoutMs / 1000, 1, 600) * 1000,
    idleTimeoutMs: int(env, 'IDLE_TIMEOUT_SECONDS', d.idleTimeoutMs / 1000, 1, 3600) * 1000,
    keepAliveTimeoutMs: int(env, 'KEEP_ALIVE_TIMEOUT_SECONDS', d.keepAliveTimeoutMs / 1000, 1, 600) * 1000,
    seatReservationSeconds: int(env, 'SEAT_RESERVATION_SECONDS', d.seatReservationSeconds, 2, 60),
    idleLobbySeconds: int(env, 'IDLE_LOBBY_SECONDS', d.idleLobbySeconds, 60, 86_400),
    trustedProxies: proxies,
    allowedOrigins: allowedOrigins === undefined ? null : parseAllowedOrigins(allowedOrigins),
    opsPort,
    opsHost: opsHost(value(env, 'OPS_HOST') ?? d.opsHost),
    opsOnPublicPort: opsOnPublicRaw === '1',
  };
}
