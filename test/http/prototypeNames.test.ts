import assert from 'node:assert/strict';
import net from 'node:net';
import WebSocket from 'ws';
import { Client, Room } from 'colyseus.js';
import { startServerProcess, ServerProcess } from '../../loadtest/lib/serverProcess';
import { ROOM_NAME } from '../../server/protocol';
import { request, Reply } from './support';

/**
 * Issue 20 "no request can crash, hang or pollute", against `npm start`'s server in a child
 * process (so "the process is alive" means something): the prototype names and percent-encoding
 * attacks sent to every HTTP route, every matchmaking method, the WebSocket path and every message
 * field that names an id. Each answer must be fast JSON with a stable code (the /play pages are the
 * web part's: there only no HTML error page and no stack), and nothing may be logged as a stack.
 */
const NAMES = ['__proto__', 'constructor', 'hasOwnProperty', 'toString', 'prototype', 'valueOf'];
/** Malformed escapes, a truncated UTF-8 sequence, a lone `%`, an overlong `/`, an encoded lone surrogate, NUL, an encoded `../`. */
const ENCODINGS = ['%ZZ', '%E0%A4%A', '%', '%C0%AF', '%ED%A0%80', '%00', '%2e%2e%2f', '__proto__%00', '%5F_proto__'];
const FAST_MS = 2000;

function assertClean(reply: Reply, what: string) {
  assert.ok(reply.ms < FAST_MS, `${what}: answered after ${reply.ms.toFixed(0)} ms`);
  assert.doesNotMatch(
    reply.body,
    /<html|<!DOCTYPE|\n\s+at |node_modules|\/work\/|URIError|TypeError/i,
    `${what}: ${reply.body.slice(0, 200)}`,
  );
}

function assertJsonCode(reply: Reply, what: string) {
  assertClean(reply, what);
  assert.match(String(reply.headers['content-type']), /application\/json/, `${what}: ${reply.headers['content-type']}`);
  if (reply.status === 200 && Array.isArray(reply.json)) return; // a room listing (none by that name)
  const code = reply.json?.code;
  assert.ok(
    (typeof code === 'string' && /^[A-Z][A-Z_]+$/.test(code)) || (typeof code === 'number' && reply.status === 200),
    `${what}: ${reply.status} ${reply.body.slice(0, 200)}`,
  );
}

describe('http: prototype names and broken escapes, on every route and socket path', function () {
  this.timeout(180_000);
  let server: ServerProcess;
  const lines: string[] = [];
  let host: Room;

  before(async () => {
    server = await startServerProcess({ RATE_LIMITS: 'off', LOG_LEVEL: 'debug' });
    server.child.stdout!.on('data', (d: Buffer) =>
      lines.push(
        ...d
          .toString()
          .split('\n')
          .filter((l) => l !== ''),
      ),
    );
    host = await new Client(server.endpoint).create(ROOM_NAME, { nickname: '방장' });
    host.onMessage('*', () => undefined);
  });
  after(async () => {
    await host?.leave();
    await server?.stop();
  });

  const port = () => server.port;
  const post = (path: string, body: unknown) => request(port(), 'POST', path, JSON.stringify(body));

  it('answers every HTTP route fast, in JSON with a code, for every prototype name', async () => {
    for (const name of NAMES) {
      for (const path of [`/${name}`, `/api/games/${name}`, `/matchmake/${name}`, `/api/${name}`, `/health/${name}`, `/ready/${name}`])
        assertJsonCode(await request(port(), 'GET', path), `GET ${path}`);
      for (const method of ['create', 'join', 'joinOrCreate', 'joinById', 'reconnect'])
        assertJsonCode(await post(`/matchmake/${method}/${name}`, { nickname: '이름' }), `POST ${method}/${name}`);
      assertJsonCode(await post(`/matchmake/joinById/${name}`, { spectator: true }), `spectate ${name}`);
      assertJsonCode(await post(`/matchmake/reconnect/${name}`, { reconnectionToken: name }), `reconnect ${name}/${name}`);
      assertJsonCode(
        await post(`/matchmake/reconnect/${host.roomId}`, { reconnectionToken: name }),
        `reconnect to a real room with ${name}`,
      );
      assertJsonCode(await request(port(), 'POST', `/matchmake/joinById/${host.roomId}`, `{"${name}": {"nickname": 1}}`), `key ${name}`);
      assertJsonCode(await request(port(), 'POST', `/matchmake/create/${ROOM_NAME}`, `{"nickname": "a", "${name}": 1}`), `option ${name}`);
      assertJsonCode(await request(port(), 'POST', `/api/guest`, `{"${name}": 1}`), `guest ${name}`);
      assertClean(await request(port(), 'GET', `/play/${name}`), `GET /play/${name}`);
    }
    assert.ok(!server.crashed());
  });

  it('answers malformed percent-encodings in JSON (400 or 404), never an HTML page with a stack', async () => {
    for (const bad of ENCODINGS) {
      for (const path of [`/api/games/${bad}`, `/${bad}`, `/matchmake/${bad}`, `/api/games/x${bad}y`])
        assertJsonCode(await request(port(), 'GET', path), `GET ${path}`);
      for (const method of ['joinById', 'reconnect', 'create'])
        assertJsonCode(await post(`/matchmake/${method}/${bad}`, { nickname: '이름' }), `POST ${method}/${bad}`);
      assertClean(await request(port(), 'GET', `/play/${bad}`), `GET /play/${bad}`);
    }
    // A request line Node cannot parse is answered by the server itself: JSON too.
    const raw = await new Promise<string>((resolve) => {
      const s = net.connect(port(), '127.0.0.1', () => s.write('GET /x HTTP/1.1\r\nHost: %\r\nBad Header\r\n\r\n'));
      let text = '';
      s.on('data', (d) => (text += d.toString()));
      s.on('close', () => resolve(text));
    });
    assert.match(raw, /^HTTP\/1\.1 400[^]*application\/json[^]*"code":"BAD_REQUEST"/);
  });

  it('refuses and closes WebSockets that name a prototype member as room, seat or token; the process goes on', async () => {
    const processId = (await request(port(), 'GET', '/ready')).json.processId as string;
    const urls: string[] = [];
    for (const name of NAMES) {
      urls.push(`/${name}/${name}`, `/x/${name}?sessionId=${name}`, `/${processId}/${name}?sessionId=x&reconnectionToken=${name}`);
      urls.push(
        `/${processId}/${host.roomId}?sessionId=${name}`,
        `/${processId}/${host.roomId}?sessionId=${name}&reconnectionToken=${name}`,
      );
    }
    for (const bad of ENCODINGS) urls.push(`/${processId}/${bad}`, `/${processId}/${host.roomId}?sessionId=${bad}`);
    for (const url of urls) {
      const ws = new WebSocket(`${server.endpoint}${url}`);
      const code = await new Promise<number>((resolve) => {
        ws.once('close', (c) => resolve(c));
        ws.once('error', () => undefined);
      });
      assert.ok(code === 4002 || code === 1006, `${url}: closed ${code}`);
    }
    assert.equal((await request(port(), 'GET', '/health')).status, 200);
    assert.ok(!server.crashed());
  });

  it('refuses messages whose ids are prototype names, and the room plays on', async () => {
    const friend = await new Client(server.endpoint).joinById(host.roomId, { nickname: '친구' });
    const errors: { code: string }[] = [];
    friend.onMessage('error', (m) => errors.push(m));
    friend.onMessage('*', () => undefined);
    let sent = 0;
    for (const name of NAMES) {
      for (const [type, payload] of [
        ['removeBot', { id: name }],
        ['addBot', { level: name }],
        ['chat', { phrase: name }],
        ['offer', { cardId: 0, to: name, claim: 'bat' }],
        ['pass', { to: name, claim: 'bat' }],
      ] as const) {
        friend.send(type, payload);
        sent++;
      }
    }
    const deadline = Date.now() + 10_000;
    while (errors.length < Math.min(sent, 20) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.ok(errors.length >= Math.min(sent, 20), `${errors.length} refusals`);
    assert.ok(errors.every((e) => /^[A-Z][A-Z_]+$/.test(e.code)));
    // The room still answers.
    const pong = new Promise((resolve) => host.onMessage('pong', resolve));
    host.send('ping', { t: 7 });
    assert.deepEqual(await pong, { t: 7 });
    await friend.leave();
  });

  it('logged nothing as a stack, and every line is one JSON object', () => {
    const bad = lines.filter((l) => {
      try {
        JSON.parse(l);
      } catch {
        return true;
      }
      return /errStack|\\n\s+at /.test(l);
    });
    assert.deepEqual(bad, []);
  });
});
