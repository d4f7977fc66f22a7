import assert from 'node:assert/strict';
import { Client } from 'colyseus.js';
import { startServer, RunningServer, ROOM_NAME } from '../../server/app';
import { EMBEDDED_OPS } from '../../server/ops/config';
import { setLogSink } from '../../server/ops/log';
import { useTestServer } from '../support/server';
import { httpGet } from './support';

const USER = 'ops';
const PASSWORD = 'a long: monitor secret';
const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });

describe('ops: @colyseus/monitor at /colyseus', function () {
  this.timeout(20000);

  describe('with MONITOR_USER / MONITOR_PASSWORD', () => {
    let server: RunningServer;
    let base: string;
    const lines: string[] = [];
    before(async () => {
      setLogSink((line) => lines.push(line));
      server = await startServer({ port: 0, reconnectGraceSeconds: 90, messageBurst: 1000, messagesPerSecond: 1000, ops: { ...EMBEDDED_OPS, monitor: { user: USER, password: PASSWORD } } });
      base = `http://127.0.0.1:${server.port}/colyseus`;
    });
    after(async () => {
      setLogSink(null);
      await server.close();
    });

    it('answers 401 with a Basic challenge without credentials or with wrong ones', async () => {
      for (const headers of [{}, basic(USER, 'wrong'), basic('root', PASSWORD), basic(USER, `${PASSWORD}x`), basic(USER, ''), { authorization: 'Basic !!!' }, { authorization: `Bearer ${PASSWORD}` }, { authorization: `Basic ${Buffer.from(USER + PASSWORD).toString('base64')}` }]) {
        for (const path of ['/', '/api', '/api/room?roomId=x']) {
          const res = await httpGet(base + path, headers);
          assert.equal(res.status, 401, `${path} with ${JSON.stringify(headers)}`);
          assert.match(res.headers.get('www-authenticate') ?? '', /^Basic realm=/);
          assert.doesNotMatch(res.body, /rooms|roomId/);
        }
      }
      const warned = lines.map((l) => JSON.parse(l)).filter((e) => e.event === 'monitor.auth_failed');
      assert.equal(warned.length, 1, 'failed attempts logged, at most one line per 10 s');
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
