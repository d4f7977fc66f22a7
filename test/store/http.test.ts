import assert from 'node:assert/strict';
import http from 'node:http';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { gamesRouter } from '../../server/http/games';
import { setLogSink } from '../../server/base/log';
import type { FinishedGameRecord } from '../../server/fairness/record';
import type { RecordSource } from '../../server/store/types';
import { verifyRecord } from '../../server/fairness/verify';
import { playGame } from '../fairness/games';

function get(port: number, path: string): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body, headers: res.headers }));
      })
      .on('error', reject);
  });
}

describe('http: GET /api/games/:gameId', () => {
  const { record } = playGame(3, { botSeed: 'http' });
  const lookups: string[] = [];
  let failing = false;
  const source: RecordSource = {
    async get(gameId: string): Promise<FinishedGameRecord | null> {
      lookups.push(gameId);
      if (failing) throw new Error('database down: password=hunter2');
      return gameId === record.gameId ? record : null;
    },
  };
  let server: http.Server;
  let port: number;
  before(async () => {
    const app = express();
    app.use(gamesRouter(source));
    server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    lookups.length = 0;
    failing = false;
  });

  it('serves a finished game as JSON, which verifies', async () => {
    const res = await get(port, `/api/games/${record.gameId}`);
    assert.equal(res.status, 200);
    assert.match(res.headers['content-type'] ?? '', /^application\/json/);
    const body = JSON.parse(res.body);
    assert.deepEqual(body, JSON.parse(JSON.stringify(record)));
    assert.deepEqual(verifyRecord(body), { ok: true });
  });

  it('answers 404 with a code and a Korean sentence for an unknown id', async () => {
    const res = await get(port, `/api/games/${'a'.repeat(64)}`);
    assert.equal(res.status, 404);
    assert.deepEqual(JSON.parse(res.body), { code: 'GAME_NOT_FOUND', message: '그 게임 기록을 찾을 수 없어요.' });
    assert.equal(res.headers['cache-control'], 'no-store');
  });

  it('answers 404 without a lookup for an id of the wrong shape or length', async () => {
    for (const id of ['abc', 'A'.repeat(64), 'a'.repeat(63), 'a'.repeat(65), 'g'.repeat(64), 'x'.repeat(4000), '%00'.repeat(30)]) {
      const res = await get(port, `/api/games/${id}`);
      assert.equal(res.status, 404, id.slice(0, 20));
      assert.equal(JSON.parse(res.body).code, 'GAME_NOT_FOUND');
    }
    assert.deepEqual(lookups, []);
  });

  it('answers 503 when the store fails, without its error text', async () => {
    failing = true;
    const lines: string[] = [];
    setLogSink((line) => lines.push(line));
    try {
      const res = await get(port, `/api/games/${record.gameId}`);
      assert.equal(res.status, 503);
      assert.equal(JSON.parse(res.body).code, 'RECORDS_UNAVAILABLE');
      assert.ok(!res.body.includes('hunter2') && !res.body.includes('database'));
    } finally {
      setLogSink(null);
    }
    assert.deepEqual(
      lines.map((l) => JSON.parse(l).event),
      ['records.read_failed'],
    );
  });
});
