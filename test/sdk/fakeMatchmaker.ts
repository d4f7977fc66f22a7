/**
 * A tiny HTTP stand-in for the server's matchmaking routes, for answers that are hard to get from
 * a real server on cue (a process that died: 500s, ROOM_CLOSED; identity refusals). Each request
 * is recorded; `answer` decides the reply.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from 'colyseus.js';
import type { GameSession } from '../../client-sdk/index';

export interface Seen {
  method: string;
  path: string;
  at: number;
  authorization: string | undefined;
  contentType: string | undefined;
  body: string;
}

export interface Reply {
  status: number;
  body: unknown;
}

export interface FakeMatchmaker {
  port: number;
  seen: Seen[];
  answer: (request: Seen) => Reply;
  close(): Promise<void>;
}

export async function fakeMatchmaker(answer: (request: Seen) => Reply): Promise<FakeMatchmaker> {
  const fake: FakeMatchmaker = { port: 0, seen: [], answer, close: async () => undefined };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen: Seen = {
        method: req.method ?? '',
        path: req.url ?? '',
        at: Date.now(),
        authorization: req.headers.authorization,
        contentType: req.headers['content-type'],
        body: Buffer.concat(chunks).toString('utf8'),
      };
      if (req.method === 'OPTIONS') return void res.writeHead(204).end();
      fake.seen.push(seen);
      const reply = fake.answer(seen);
      const text = JSON.stringify(reply.body);
      res.writeHead(reply.status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.port = (server.address() as AddressInfo).port;
  fake.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return fake;
}

/** The edge's refusal body (server/http/matchmake.ts refusalBody): "CODE: 한국어". */
export const refusal = (status: number, code: string, message = '한국어 문장이에요.'): Reply => ({
  status,
  body: { code, message, error: `${code}: ${message}` },
});

/** From now on the session's matchmaking requests (its reconnections) go to the fake. */
export function pointAt(session: GameSession, fake: FakeMatchmaker): void {
  const client = (session as unknown as { client: Client }).client;
  (client as unknown as { settings: { port: number } }).settings.port = fake.port;
}
