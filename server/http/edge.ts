import http from 'node:http';
import type { Socket } from 'node:net';
import type { RequestListener } from 'node:http';
import type { EdgeConfig } from '../base/config';
import { ROOM_MESSAGES } from '../protocol';
import { normaliseAddress } from './clientAddress';
import { edgeFailed, edgeRefused } from './edgeMetrics';
import { answerClientErrors, httpErrorBody } from './errors';
import { isMatchmakePath, MatchmakeGuard } from './matchmake';
import { takeOverRequests } from '../colyseus/matchmaker';

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
  limitConnections(server, edge);
  answerClientErrors(server);
  return server;
}

/**
 * Replaces Colyseus's request listener (it treats any URL containing "/matchmake" as
 * matchmaking and reads the body without a limit) with one router: `/matchmake` and
 * `/matchmake/…` by path go to the guard, everything else to `app`. Call after `new Server()`.
 */
export function routeRequests(server: http.Server, app: RequestListener, guard: MatchmakeGuard): MatchmakeGuard {
  takeOverRequests(server);
  server.on('request', (req, res) => {
    spoke(req.socket);
    try {
      if (isMatchmakePath(req.url)) guard.handle(req, res);
      else app(req, res);
    } catch (error) {
      // Nothing a request carries may throw past here; if it does, one JSON answer, one throttled line.
      edgeFailed('router', error);
      if (res.headersSent) return void res.end();
      const body = JSON.stringify(httpErrorBody('SERVER_ERROR'));
      res.writeHead(500, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    }
  });
  return guard;
}

/** Connections that have not started a request yet, with the timer that closes them. */
const silent = new WeakMap<Socket, ReturnType<typeof setTimeout>>();

function spoke(socket: Socket): void {
  const timer = silent.get(socket);
  if (timer === undefined) return;
  clearTimeout(timer);
  silent.delete(socket);
}

const BUSY_BODY = JSON.stringify({
  code: 'SERVER_BUSY',
  message: ROOM_MESSAGES.SERVER_BUSY,
  error: `SERVER_BUSY: ${ROOM_MESSAGES.SERVER_BUSY}`,
});
const BUSY_RESPONSE =
  'HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nConnection: close\r\n' +
  `Content-Length: ${Buffer.byteLength(BUSY_BODY)}\r\n\r\n${BUSY_BODY}`;

/**
 * Connections the edge lets in:
 * - at most `maxConnections` open; one more is answered 503 SERVER_BUSY and closed (Node's own
 *   `maxConnections`, a little above, is the backstop that drops without a word);
 * - at most `connectionsPerAddress` from one address that is not a trusted proxy (a proxy
 *   carries everyone's connections and limits them per client itself): the rest are closed at once;
 * - a connection must start a request (or a WebSocket upgrade) within the headers timeout.
 *   Node's own headers timeout only runs once a request has begun, so a socket that sends
 *   nothing at all would otherwise live until the idle timeout.
 */
export function limitConnections(
  server: http.Server,
  edge: Pick<EdgeConfig, 'maxConnections' | 'connectionsPerAddress' | 'trustedProxies' | 'headersTimeoutMs'>,
): { open(): number } {
  let open = 0;
  const max = edge.maxConnections;
  const trusted = new Set(edge.trustedProxies);
  const perAddress = new Map<string, number>();
  server.maxConnections = max + 64;
  // Requests are marked by the router (routeRequests): Colyseus replaces every 'request' listener.
  server.on('upgrade', (req: http.IncomingMessage) => spoke(req.socket));
  server.on('connection', (socket: Socket) => {
    socket.on('error', () => undefined);
    if (open >= max) {
      edgeRefused('SERVER_BUSY');
      socket.end(BUSY_RESPONSE);
      socket.setTimeout(2000, () => socket.destroy());
      return;
    }
    const address = normaliseAddress(socket.remoteAddress ?? '');
    const limited = edge.connectionsPerAddress > 0 && !trusted.has(address);
    if (limited) {
      const count = perAddress.get(address) ?? 0;
      if (count >= edge.connectionsPerAddress) {
        edgeRefused('TOO_MANY_CONNECTIONS');
        socket.destroy();
        return;
      }
      perAddress.set(address, count + 1);
    }
    open++;
    const timer = setTimeout(() => socket.destroy(), edge.headersTimeoutMs);
    timer.unref();
    silent.set(socket, timer);
    socket.once('close', () => {
      open--;
      spoke(socket);
      if (!limited) return;
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left <= 0) perAddress.delete(address);
      else perAddress.set(address, left);
    });
  });
  return { open: () => open };
}
