import type { Socket } from 'node:net';
import type { Express, NextFunction, Request, Response } from 'express';
import { ErrorCode, ROOM_MESSAGES } from '../protocol';
import { edgeFailed, edgeRefused } from './edgeMetrics';

/**
 * Every HTTP answer is JSON with a stable code (issue 20): an unknown path, a malformed URI
 * (`%ZZ`, a truncated or overlong UTF-8 sequence, an encoded lone surrogate), a request Node
 * cannot parse, and anything a route throws. Never Express's HTML page, a stack or a path.
 * Client mistakes are counted (`cockroach_http_refusals_total`), not logged; server failures
 * are counted and logged as one JSON line through the log's per-event throttle.
 */
export function httpErrorBody(code: ErrorCode): { code: ErrorCode; message: string; error: string } {
  const message = (ROOM_MESSAGES as Record<string, string>)[code] ?? ROOM_MESSAGES.SERVER_ERROR;
  return { code, message, error: `${code}: ${message}` };
}

export function sendJsonError(res: Response, status: number, code: ErrorCode): void {
  if (res.headersSent) return void res.end();
  res.status(status).set('Cache-Control', 'no-store').json(httpErrorBody(code));
}

/** Last in the app: whatever no route answered. */
export function notFound(_req: Request, res: Response): void {
  edgeRefused('NOT_FOUND');
  sendJsonError(res, 404, 'NOT_FOUND');
}

/**
 * Express's error middleware (four arguments): a 4xx that Express or a middleware raised (a
 * URIError from decoding a path parameter is 400) is the client's mistake; anything else is ours.
 */
export function jsonErrors(error: unknown, _req: Request, res: Response, _next: NextFunction): void {
  const status = (error as { status?: unknown; statusCode?: unknown } | null)?.status ?? (error as { statusCode?: unknown })?.statusCode;
  if (error instanceof URIError || (typeof status === 'number' && status >= 400 && status < 500)) {
    const code: ErrorCode = status === 413 ? 'PAYLOAD_TOO_LARGE' : 'BAD_REQUEST';
    edgeRefused(code);
    return sendJsonError(res, status === 413 ? 413 : 400, code);
  }
  edgeFailed('http', error);
  sendJsonError(res, 500, 'SERVER_ERROR');
}

/** The catch-all at the end of an express app: JSON 404 for unknown paths, JSON for every error. */
export function answerEverythingInJson(app: Express): void {
  app.use(notFound);
  app.use(jsonErrors);
}

/** A raw JSON answer on a socket Node could not parse a request from (no request object exists). */
export function rawJsonAnswer(status: number, reason: string, code: ErrorCode): string {
  const body = JSON.stringify(httpErrorBody(code));
  return (
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nConnection: close\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

const CLIENT_ERRORS: Record<string, [number, string, ErrorCode]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'BAD_REQUEST'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'BAD_REQUEST'],
};

/**
 * Node's 'clientError' (a request line or header it cannot parse, a request that timed out):
 * Node's own answer is a bare 400 text; ours is the same status in JSON, counted, not logged.
 */
export function answerClientErrors(server: { on(event: 'clientError', listener: (error: Error, socket: Socket) => void): unknown }): void {
  server.on('clientError', (error: Error & { code?: string }, socket: Socket) => {
    const known = error.code !== undefined && Object.prototype.hasOwnProperty.call(CLIENT_ERRORS, error.code);
    const [status, reason, code] = known ? CLIENT_ERRORS[error.code!] : [400, 'Bad Request', 'BAD_REQUEST' as ErrorCode];
    edgeRefused(code);
    const answering = (socket as { _httpMessage?: { _headerSent?: boolean } })._httpMessage?._headerSent === true;
    if (error.code === 'ECONNRESET' || !socket.writable || answering) return void socket.destroy();
    socket.end(rawJsonAnswer(status, reason, code));
    // As Node's own answer: the connection is over either way, read or not.
    setTimeout(() => socket.destroy(), 1000).unref();
  });
}
