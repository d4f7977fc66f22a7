import http from 'node:http';
import type { Socket } from 'node:net';
import type { RequestListener } from 'node:http';
import type { EdgeConfig } from '../ops/config';
import { ROOM_MESSAGES } from '../protocol';
import { edgeRefused } from './edgeMetrics';
import { isMatchmakePath, MatchmakeGuard } from './matchmake';

/**
 * The public HTTP server with the edge's timeouts: a connection that never finishes its
 * headers, never finishes its request, or sits idle is closed. The timeouts are checked every
 * second (Node's default check runs every 30 s, so a 10 s limit would hold for up to 40 s).
 * WebSockets are not affected: ws clears the socket timeout on upgrade and the rooms ping.
 */
export function createEdgeServer(edge: EdgeConfig): http.Server {
  const server = http.createServer({
    headersTimeout: edge.headersTimeoutMs,
    requestTimeout: Math.max(edge.requestTimeoutMs, edge.headersTimeoutMs),
    keepAliveTimeout: edge.keepAliveTimeoutMs,
    connectionsCheckingInterval: 1000,
  });
  server.timeout = edge.idleTimeoutMs;
  limitConnections(server, edge.maxConnections);
  return server;
}

/**
 * Replaces Colyseus's request listener (it treats any URL containing "/matchmake" as
 * matchmaking and reads the body without a limit) with one router: `/matchmake` and
 * `/matchmake/…` by path go to the guard, everything else to `app`. Call after `new Server()`.
 */
export function routeRequests(server: http.Server, app: RequestListener, edge: EdgeConfig): MatchmakeGuard {
  const guard = new MatchmakeGuard(edge);
  server.removeAllListeners('request');
  server.on('request', (req, res) => (isMatchmakePath(req.url) ? guard.handle(req, res) : app(req, res)));
  return guard;
}

const BUSY_BODY = JSON.stringify({ code: 'SERVER_BUSY', message: ROOM_MESSAGES.SERVER_BUSY, error: `SERVER_BUSY: ${ROOM_MESSAGES.SERVER_BUSY}` });
const BUSY_RESPONSE =
  'HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nConnection: close\r\n' +
  `Content-Length: ${Buffer.byteLength(BUSY_BODY)}\r\n\r\n${BUSY_BODY}`;

/**
 * At most `max` open connections; one more is answered 503 SERVER_BUSY and closed. Node's own
 * `maxConnections`, a little above, is the backstop that drops without a word.
 */
export function limitConnections(server: http.Server, max: number): { open(): number } {
  let open = 0;
  server.maxConnections = max + 64;
  server.on('connection', (socket: Socket) => {
    if (open >= max) {
      edgeRefused('SERVER_BUSY');
      socket.on('error', () => undefined);
      socket.end(BUSY_RESPONSE);
      socket.setTimeout(2000, () => socket.destroy());
      return;
    }
    open++;
    socket.once('close', () => open--);
  });
  return { open: () => open };
}
