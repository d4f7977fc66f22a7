import http from 'node:http';
import net from 'node:net';
import { matchMaker } from 'colyseus';
import { Client } from 'colyseus.js';
import { startServer, RunningServer } from '../../server/app';
import { EdgeConfig, EMBEDDED_EDGE, EMBEDDED_OPS, OpsConfig } from '../../server/base/config';
import { ROOM_NAME } from '../../server/protocol';
import type { TestServer } from '../support/server';
import { tempDir } from '../support/tempDirs';

export { ROOM_NAME };

/**
 * An in-process server on port 0 with these edge settings (the rest as embedded). `env` is what
 * it reads for identities and records (AUTH_JWT_*, DATA_DIR): a fresh data directory unless given,
 * so each server has its own guest key.
 */
export async function bootEdge(
  edge: Partial<EdgeConfig> = {},
  ops: Partial<OpsConfig> = {},
  env: Record<string, string | undefined> = { DATA_DIR: freshDataDir() },
): Promise<TestServer> {
  const server: RunningServer = await startServer({
    port: 0,
    reconnectGraceSeconds: 90,
    messageBurst: 1_000_000,
    messagesPerSecond: 1_000_000,
    ops: { ...EMBEDDED_OPS, ...ops, edge: { ...EMBEDDED_EDGE, ...edge } },
    recordsEnv: { DATA_DIR: env.DATA_DIR ?? freshDataDir(), DATABASE_FILE: env.DATABASE_FILE },
    identityEnv: env,
  });
  const endpoint = `ws://127.0.0.1:${server.port}`;
  return { server, endpoint, client: () => new Client(endpoint), serverRoom: (id) => matchMaker.getRoomById(id) as never };
}

export function freshDataDir(): string {
  return tempDir('cockroach-edge-');
}

/** Boots for the enclosing `describe`, closes after. */
export function useEdge(edge: Partial<EdgeConfig> = {}, env?: Record<string, string | undefined>): TestServer {
  const ts = {} as TestServer;
  before(async () => Object.assign(ts, await bootEdge(edge, {}, env)));
  after(async () => ts.server.close());
  return ts;
}

export interface Reply {
  status: number;
  body: string;
  json: any;
  headers: http.IncomingHttpHeaders;
  ms: number;
}

/**
 * One raw HTTP request. `body` may be a string or Buffer (sent with Content-Length), or a
 * generator of chunks (sent chunked, no length), so a test can stream past a limit.
 */
export function request(
  port: number,
  method: string,
  path: string,
  body?: string | Buffer | (() => Iterable<Buffer>),
  headers: Record<string, string> = {},
  from?: string,
): Promise<Reply> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        localAddress: from,
        headers: { 'content-type': 'application/json', ...headers },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown = undefined;
          try {
            json = JSON.parse(text);
          } catch {
            /* not JSON */
          }
          resolve({ status: res.statusCode ?? 0, body: text, json, headers: res.headers, ms: performance.now() - started });
        });
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) => {
      // The server may answer and close while we are still streaming: that is the point.
      if (e.code === 'EPIPE' || e.code === 'ECONNRESET') return;
      reject(e);
    });
    if (typeof body === 'function') {
      const write = async () => {
        for (const chunk of body()) {
          if (req.destroyed) return;
          if (!req.write(chunk)) await new Promise((r) => req.once('drain', r).once('close', r));
        }
        req.end();
      };
      void write();
    } else {
      req.end(body);
    }
  });
}

export const post = (port: number, path: string, body: unknown, headers: Record<string, string> = {}) =>
  request(port, 'POST', path, typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body), headers);

export async function roomCount(): Promise<number> {
  return (await matchMaker.query({ name: ROOM_NAME })).length;
}

/** Live timers of this process (Node's own count: Colyseus's room timers are plain setTimeout/setInterval). */
export function timerCount(): number {
  return process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
}

/**
 * Opens a TCP connection that sends nothing; resolves with it once connected. It reads (and drops)
 * whatever the server sends: a socket that never reads never sees the server's close once the
 * server wrote anything first (the JSON 408 for a request that timed out), which is what made the
 * idle-socket test miss a close under load (issue 19 item 6).
 */
export function idleSocket(port: number, from?: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port, localAddress: from }, () => resolve(socket));
    socket.on('error', reject);
    socket.resume();
  });
}

/**
 * Resolves once every HTTP timeout of the server has run out at least once since the call: three
 * witness connections, one silent (headers timeout), one with its headers and half a body (request
 * timeout), one that asked and then idles (keep-alive and idle timeouts), each closed by the
 * server. A connection opened before the call that is still open afterwards outlived them all.
 * No fixed sleep: it waits on the server's own closes.
 */
export async function pastHttpTimeouts(port: number, ms = 20_000): Promise<void> {
  const closedBy = (socket: net.Socket) => new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const silent = await idleSocket(port);
  const halfBody = await idleSocket(port);
  halfBody.write('POST /matchmake/create/cockroach-poker HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nx');
  const asked = await idleSocket(port);
  asked.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error('an HTTP timeout never closed its witness')), ms)),
  );
  try {
    await Promise.race([Promise.all([closedBy(silent), closedBy(halfBody), closedBy(asked)]), late]);
  } finally {
    clearTimeout(timer);
    for (const s of [silent, halfBody, asked]) s.destroy();
  }
}

export async function waitFor(test: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
