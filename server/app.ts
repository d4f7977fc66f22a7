import http from 'node:http';
import express from 'express';
import { matchMaker, Server } from 'colyseus';
import { CockroachRoom } from './room/CockroachRoom';
import { limitReservations } from './room/reservations';
import { DEFAULT_ROOM_SETTINGS } from './room/constants';
import { GuardedTransport } from './colyseus/transport/GuardedTransport';
import { coalesceSocketWrites } from './colyseus/transport/coalesceWrites';
import { assertWrittenForVersions } from './colyseus/versions';
import { CLIENT_MESSAGES, ROOM_NAME } from './protocol';
import type { ServerConfig } from './config';
import { EMBEDDED_OPS } from './base/config';
import { Drain, DrainReport, exitOnSignals } from './ops/drain';
import { GuestOps, mountOps, mountReady } from './ops/http';
import { closeConnectionsOf } from './ops/revokedConnections';
import { GuestFleet } from './identity/guestFleet';
import { createEdgeServer, routeRequests } from './http/edge';
import { closeIdleLobbies } from './http/idleLobbies';
import { MatchmakeGuard } from './http/matchmake';
import { guestRouter } from './http/guest';
import { identityConfigFromEnv } from './identity/config';
import { Identities } from './identity/tokens';
import { carryIdentity } from './identity/roomAuth';
import { colyseusLogger, log, setLogContext, setLogLevel } from './base/log';
import { trackRooms } from './base/rooms';
import { scaleOutOptions, startScale } from './ops/scale';
import { startRecords } from './store';
import { gamesRouter } from './http/games';
import { answerClientErrors, answerEverythingInJson } from './http/errors';

/** Re-exported for older imports; the name lives in server/protocol.ts. */
export { ROOM_NAME };

export interface RunningServer {
  gameServer: Server;
  httpServer: http.Server;
  port: number;
  /** The internal listener's port for /metrics and /colyseus (OPS_PORT), or null when there is none. */
  opsPort: number | null;
  /** The matchmaking guard (its lobby ledger, for tests and tools). */
  matchmake: MatchmakeGuard;
  /** Colyseus's id for this process (the listing's `processId`). */
  processId: string;
  /** Disposes every room (their clients are told) and closes the listener. */
  close(): Promise<void>;
  /** No new rooms here; running games go on up to `seconds`, then every room closes (server/ops/drain.ts). */
  drain(seconds?: number): Promise<DrainReport>;
}

/**
 * Builds and starts express + Colyseus on one HTTP server. Without `config.ops.redisUrl`:
 * in-process presence and matchmaking, nothing else to install; with it, Redis (server/ops/scale.ts).
 * Port 0 picks a free port (tests). `exitOnSignal`: SIGTERM drains, then exits.
 */
export async function startServer(config: ServerConfig, opts: { exitOnSignal?: boolean } = {}): Promise<RunningServer> {
  // server/colyseus/ reaches past the libraries' APIs: on versions it was not written for, stop here.
  assertWrittenForVersions();
  const ops = config.ops ?? EMBEDDED_OPS;
  setLogLevel(ops.logLevel);
  const app = edgeApp();
  app.get('/health', (_req, res) => {
    res.json({ ok: true, uptimeSeconds: Math.round(process.uptime()) });
  });
  mountReady(app, ops);
  // Who is playing (server/identity/): app tokens, or guest tokens from POST /api/guest.
  const identityConfig = identityConfigFromEnv(config.identityEnv ?? config.recordsEnv ?? process.env);
  const identities = Identities.start(identityConfig, (msg) => log.warn('config.warning', { msg }));
  let fleet: GuestFleet | null = null;
  // A revoked guest's connections close wherever they are (here, or learned from the fleet).
  const stopClosing = identities.revocations?.onRevoked((key) => void closeConnectionsOf(key));
  const guestOps = { identities, fleet: () => fleet };
  // The operators' routes stay off the public port unless OPS_ON_PUBLIC_PORT=1 (development).
  if (ops.edge.opsOnPublicPort) mountOps(app, ops, guestOps);
  (await import('./http/play')).mountPlay(app); // the browser table at /play (server/http/play.ts)
  // Finished games, in the embedded SQLite file by default or PostgreSQL with DATABASE_URL;
  // RECORDS=off (benchmarks only) keeps none.
  const recordsEnv = config.recordsEnv ?? process.env;
  const records = recordsEnv.RECORDS === 'off' ? null : await startRecords(recordsEnv, { multiProcess: ops.redisUrl !== null });
  if (records) app.use(gamesRouter(records.writer));
  // With Redis, guest keys and revocations are the fleet's (server/identity/guestFleet.ts).
  if (identityConfig.mode === 'guest' && ops.redisUrl) fleet = await GuestFleet.join(ops.redisUrl, identities, identityConfig.fleetFile);
  CockroachRoom.records = records?.writer ?? null;
  const guard = new MatchmakeGuard(ops.edge, identities);
  app.use(guestRouter(identities, guard.limits, ops.edge.trustedProxies, guard.origins));
  answerEverythingInJson(app); // last: JSON 404 and JSON errors, never Express's HTML page (server/http/errors.ts)

  const httpServer = createEdgeServer(ops.edge);
  coalesceSocketWrites(); // one write per client per tick (server/colyseus/transport/coalesceWrites.ts)
  const gameServer = new Server({
    // pingInterval 0: the rooms ping their own sockets, spread out (CockroachRoom's heartbeat).
    transport: new GuardedTransport({ server: httpServer, maxPayload: 4 * 1024, pingInterval: 0, messageTypes: CLIENT_MESSAGES }),
    gracefullyShutdown: false, // signals go to the drain instead (server/ops/drain.ts)
    greet: false,
    logger: colyseusLogger,
    ...scaleOutOptions(ops),
  });
  // After `new Server()`: it installed its own substring-matching matchmaking listener.
  const matchmake = routeRequests(httpServer, app, guard);
  CockroachRoom.settings = {
    reconnectGraceSeconds: config.reconnectGraceSeconds,
    lobbyGraceSeconds: config.lobbyGraceSeconds ?? DEFAULT_ROOM_SETTINGS.lobbyGraceSeconds,
    botThinkMs: config.botThinkMs ?? DEFAULT_ROOM_SETTINGS.botThinkMs,
    messageBurst: config.messageBurst,
    messagesPerSecond: config.messagesPerSecond,
  };
  limitReservations(CockroachRoom); // no reservation without valid options and a free place of its kind
  const handler = gameServer.define(ROOM_NAME, CockroachRoom);
  carryIdentity(CockroachRoom); // after define: the static onAuth hands the guard's Identity to the room (server/identity/roomAuth.ts)
  trackRooms(handler);
  // 'create' fires before the creator's seat is reserved: every seat of the room gets the short time.
  handler.on('create', (room: CockroachRoom) => room.setSeatReservationTime(ops.edge.seatReservationSeconds));
  const drain = new Drain(gameServer);
  // Records of games that ended during the drain are durable (and delivery tried) before exit.
  if (records) {
    drain.beforeShutdown = () => records.writer.durable();
    drain.beforeExit = () => records.close();
    drain.beforeExitMs = records.closeMs;
  }
  if (opts.exitOnSignal) exitOnSignals(drain, ops.drainSeconds);
  await gameServer.listen(config.port);
  await startScale(gameServer); // with Redis: liveness, burial of dead processes, resync (server/ops/cluster.ts)
  const opsServer = ops.edge.opsPort === null ? null : await listenOps(ops, guestOps);
  const idleLobbies = closeIdleLobbies(ops.edge.idleLobbySeconds * 1000);
  setLogContext({ processId: matchMaker.processId });
  for (const warning of ops.warnings) log.warn('config.warning', { msg: warning });
  const address = httpServer.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  return {
    gameServer,
    httpServer,
    port,
    opsPort: opsServer ? (opsServer.address() as { port: number }).port : null,
    matchmake,
    processId: matchMaker.processId,
    close: async () => {
      drain.reset();
      idleLobbies.stop();
      fleet?.stop();
      stopClosing?.();
      opsServer?.close();
      opsServer?.closeAllConnections();
      await gameServer.gracefullyShutdown(false);
      if (records && CockroachRoom.records === records.writer) CockroachRoom.records = null;
      await records?.close();
    },
    drain: (seconds = ops.drainSeconds) => drain.start(seconds),
  };
}

/** Express with exact routing: `/METRICS` and `/metrics/` are not `/metrics`. */
function edgeApp(): express.Express {
  const app = express();
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  app.disable('x-powered-by');
  return app;
}

/** /metrics and the monitor on their own listener (OPS_PORT, bound to OPS_HOST). */
function listenOps(ops: NonNullable<ServerConfig['ops']>, guests: GuestOps): Promise<http.Server> {
  const app = edgeApp();
  mountOps(app, ops, guests);
  answerEverythingInJson(app);
  const server = http.createServer(app);
  answerClientErrors(server);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(ops.edge.opsPort!, ops.edge.opsHost, () => resolve(server));
  });
}
