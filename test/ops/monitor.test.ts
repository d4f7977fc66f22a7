import assert from 'node:assert/strict';
import http from 'node:http';
import express from 'express';
import { Client } from 'colyseus.js';
import { startServer, RunningServer, ROOM_NAME } from '../../server/app';
import { EMBEDDED_EDGE, EMBEDDED_OPS } from '../../server/base/config';
import { basicAuth, MONITOR_FAILURES_PER_MINUTE } from '../../server/ops/http';
import { setLogSink } from '../../server/base/log';
import { useTestServer } from '../support/server';
import { httpGet } from './support';

const USER = 'ops';
const PASSWORD = 'a long: monitor secret';
const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });

describe('ops: @colyseus/monitor at /colyseus', function () {
  this.timeout(20000);

  describe('with MONITOR_USER / MONITOR_PASSWORD, on the ops port', () => {
    let server: RunningServer;
    let base: string;
    const lines: string[] = [];
    before(async () => {
      setLogSink((line) => lines.push(line));
      const ops = { ...EMBEDDED_OPS, monitor: { user: USER, password: PASSWORD }, edge: { ...EMBEDDED_EDGE, opsPort: 0 } };
      server = await startServer({ port: 0, reconnectGraceSeconds: 90, messageBurst: 1000, messagesPerSecond: 1000, ops });
      assert.ok(server.opsPort !== null && server.opsPort !== server.port);
      base = `http://127.0.0.1:${server.opsPort}/colyseus`;
    });
    after(async () => {
      setLogSink(null);
      await server.close();
    });

    it('is not on the public port, whatever the case or trailing slash', async () => {
      for (const path of ['/colyseus', '/colyseus/', '/colyseus/api', '/COLYSEUS/api', '/metrics', '/METRICS', '/metrics/']) {
        assert.equal((await httpGet(`http://127.0.0.1:${server.port}${path}`, basic(USER, PASSWORD))).status, 404, path);
      }
    });

    it('serves the panel and its API with the right credentials (a password with ":" included)', async () => {
      const room = await new Client(`ws://127.0.0.1:${server.port}`).create(ROOM_NAME, { nickname: 'mon' });
      const page = await httpGet(`${base}/`, basic(USER, PASSWORD));
      assert.equal(page.status, 200);
      assert.match(page.body, /<html/i);
      const api = await httpGet(`${base}/api`, basic(USER, PASSWORD));
      assert.equal(api.status, 200);
      const listed = JSON.parse(api.body) as { rooms: { roomId: string }[] };
      assert.ok(listed.rooms.some((r) => r.roomId === room.roomId));
      await room.leave();
    });

    it('answers 401 with a Basic challenge without credentials or with wrong ones, then 429 to a guesser even with the right password', async () => {
      const wrong = [
        basic(USER, 'wrong'),
        basic('root', PASSWORD),
        basic(USER, `${PASSWORD}x`),
        basic(USER, ''),
        { authorization: 'Basic !!!' },
        { authorization: `Bearer ${PASSWORD}` },
        { authorization: `Basic ${Buffer.from(USER + PASSWORD).toString('base64')}` },
      ];
      for (const path of ['/', '/api']) {
        const res = await httpGet(base + path, {});
        assert.equal(res.status, 401, `${path} without credentials`);
        assert.match(res.headers.get('www-authenticate') ?? '', /^Basic realm=/);
      }
      let failures = 0;
      for (const headers of wrong) {
        const res = await httpGet(`${base}/api/room?roomId=x`, headers);
        failures++;
        assert.equal(res.status, 401, JSON.stringify(headers));
        assert.doesNotMatch(res.body, /rooms|roomId/);
      }
      while (failures < MONITOR_FAILURES_PER_MINUTE) {
        assert.equal((await httpGet(`${base}/api`, basic(USER, `guess${failures}`))).status, 401);
        failures++;
      }
      const blocked = await httpGet(`${base}/api`, basic(USER, PASSWORD));
      assert.equal(blocked.status, 429, 'throttled: not even the right password is compared');
      assert.doesNotMatch(blocked.body, /rooms|roomId/);
      const warned = lines.map((l) => JSON.parse(l)).filter((e) => e.event === 'monitor.auth_failed');
      assert.equal(warned.length, 1, 'failed attempts logged, at most one line per 10 s');
    });
  });

  it('basicAuth lets an address try again once its minute has passed', async () => {
    let now = 1_000_000;
    const app = express();
    app.use(
      basicAuth(USER, PASSWORD, () => now),
      (_req, res) => void res.send('in'),
    );
    const server = http.createServer(app).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
    try {
      for (let i = 0; i < MONITOR_FAILURES_PER_MINUTE; i++) assert.equal((await httpGet(url, basic(USER, 'no'))).status, 401);
      assert.equal((await httpGet(url, basic(USER, PASSWORD))).status, 429);
      now += 61_000;
      assert.equal((await httpGet(url, basic(USER, 'no'))).status, 401, 'guesses compared again, and counted again');
      now += 61_000;
      assert.equal((await httpGet(url, basic(USER, PASSWORD))).status, 200);
    } finally {
      server.close();
      server.closeAllConnections();
    }
  });

  describe('without them (the default)', () => {
    const ts = useTestServer();
    it('is not mounted at all', async () => {
      for (const path of ['/colyseus', '/colyseus/', '/colyseus/api']) {
        assert.equal((await httpGet(`http://127.0.0.1:${ts.server.port}${path}`, basic(USER, PASSWORD))).status, 404, path);
      }
    });
  });
});
