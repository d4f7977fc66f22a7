import http from 'node:http';
import express from 'express';
import { Server } from 'colyseus';
import { CockroachRoom } from './room/CockroachRoom';
import { GuardedTransport } from './transport/GuardedTransport';
import { COMMANDS } from './commands';
import type { ServerConfig } from './config';

export const ROOM_NAME = 'cockroach-poker';

export interface RunningServer {
  gameServer: Server;
  httpServer: http.Server;
  port: number;
  /** Disposes every room (their clients are told) and closes the listener. */
  close(): Promise<void>;
}

/**
 * Builds and starts express + Colyseus on one HTTP server. Embedded defaults only: in-process
 * presence and matchmaking, nothing else to install. Port 0 picks a free port (tests).
 */
export async function startServer(config: ServerConfig, opts: { exitOnSignal?: boolean } = {}): Promise<RunningServer> {
  const app = express();
  app.disable('x-powered-by');
  app.get('/health', (_req, res) => {
    res.json({ ok: true, uptimeSeconds: Math.round(process.uptime()) });
  });

  const httpServer = http.createServer(app);
  const gameServer = new Server({
    transport: new GuardedTransport({ server: httpServer, maxPayload: 4 * 1024, messageTypes: Object.keys(COMMANDS) }),
    gracefullyShutdown: opts.exitOnSignal ?? false,
    greet: false,
  });
  CockroachRoom.settings = {
    reconnectGraceSeconds: config.reconnectGraceSeconds,
    messageBurst: config.messageBurst,
    messagesPerSecond: config.messagesPerSecond,
  };
  gameServer.define(ROOM_NAME, CockroachRoom);
  await gameServer.listen(config.port);
  const address = httpServer.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  return {
    gameServer,
    httpServer,
    port,
    close: () => gameServer.gracefullyShutdown(false),
  };
}
