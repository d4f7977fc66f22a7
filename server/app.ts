import http from 'node:http';
import express from 'express';
import { matchMaker, Server } from 'colyseus';
import { CockroachRoom } from './room/CockroachRoom';
import { GuardedTransport } from './transport/GuardedTransport';
import { COMMANDS } from './commands';
import type { ServerConfig } from './config';
import { EMBEDDED_OPS } from './ops/config';
import { Drain, DrainReport, exitOnSignals } from './ops/drain';
import { mountOps } from './ops/http';
import { colyseusLogger, log, setLogContext, setLogLevel } from './ops/log';
import { trackRooms } from './ops/rooms';
import { scaleOutOptions } from './ops/scale';

export const ROOM_NAME = 'cockroach-poker';

export interface RunningServer {
  gameServer: Server;
  httpServer: http.Server;
  port: number;
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
  const ops = config.ops ?? EMBEDDED_OPS;
  setLogLevel(ops.logLevel);
  const app = express();
  app.disable('x-powered-by');
  app.get('/health', (_req, res) => {
    res.json({ ok: true, uptimeSeconds: Math.round(process.uptime()) });
  });
  mountOps(app, ops);

  const httpServer = http.createServer(app);
  const gameServer = new Server({
    // pingInterval 0: the rooms ping their own sockets, spread out (CockroachRoom's heartbeat).
    transport: new GuardedTransport({ server: httpServer, maxPayload: 4 * 1024, pingInterval: 0, messageTypes: Object.keys(COMMANDS) }),
    gracefullyShutdown: false, // signals go to the drain instead (server/ops/drain.ts)
    greet: false,
    logger: colyseusLogger,
    ...scaleOutOptions(ops),
  });
  CockroachRoom.settings = {
    reconnectGraceSeconds: config.reconnectGraceSeconds,
    messageBurst: config.messageBurst,
    messagesPerSecond: config.messagesPerSecond,
  };
  trackRooms(gameServer.define(ROOM_NAME, CockroachRoom));
  const drain = new Drain(gameServer);
  if (opts.exitOnSignal) exitOnSignals(drain, ops.drainSeconds);
  await gameServer.listen(config.port);
  setLogContext({ processId: matchMaker.processId });
  for (const warning of ops.warnings) log.warn('config.warning', { msg: warning });
  const address = httpServer.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  return {
    gameServer,
    httpServer,
    port,
    processId: matchMaker.processId,
    close: async () => {
      drain.reset();
      await gameServer.gracefullyShutdown(false);
    },
    drain: (seconds = ops.drainSeconds) => drain.start(seconds),
  };
}
