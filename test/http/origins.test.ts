import assert from 'node:assert/strict';
import net from 'node:net';
import { matchMaker } from 'colyseus';
import { ROOM_MESSAGES } from '../../server/protocol';
import type { TestServer } from '../support/server';
import { bootEdge, Reply, request, ROOM_NAME, useEdge } from './support';

/**
 * Issue 32 "any web page can make its visitors guess codes": a page of another origin gets no CORS
 * answer and is refused before anything is counted, and a body a page can send without a
 * preflight (text/plain, a form) is refused 415 before it is read. The attacker's page is seen
 * from 127.0.0.2+, the family on 127.0.0.1. docs/security.md "Browser origins".
 */
const EVIL = 'https://evil.example';
const LIMIT = 3;
const code = (n: number) => String(100000 + n);

function assertNoCors(reply: Reply, what: string) {
  assert.equal(reply.headers['access-control-allow-origin'], undefined, `${what}: no Access-Control-Allow-Origin`);
  assert.equal(reply.headers['access-control-allow-credentials'], undefined, `${what}: never credentials`);
}

function assertRefused(reply: Reply, status: number, code: keyof typeof ROOM_MESSAGES, what: string) {
  assert.equal(reply.status, status, `${what}: ${reply.body}`);
  assert.equal(reply.json.code, code, what);
  assert.equal(reply.json.error, `${code}: ${ROOM_MESSAGES[code]}`, what);
}

/** A POST with a body and no Content-Type at all (the support helper always sends one). */
function untypedPost(port: number, path: string, body: string, from: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port, localAddress: from }, () =>
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      ),
    );
    let answer = '';
    socket.on('data', (d) => (answer += d));
    socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d+)/.exec(answer)?.[1] ?? 0)));
    socket.on('error', reject);
  });
}

/** The address's whole budgets are still there: LIMIT wrong codes, then TOO_MANY_GUESSES; LIMIT guest tokens, then 429. */
async function assertBudgetsUntouched(port: number, from: string) {
  const wrong: string[] = [];
  for (let i = 0; i <= LIMIT; i++)
    wrong.push((await request(port, 'POST', `/matchmake/joinById/${code(i)}`, '{"nickname":"추측"}', {}, from)).json.code);
  assert.deepEqual(wrong, [...Array(LIMIT).fill('ROOM_NOT_FOUND'), 'TOO_MANY_GUESSES'], 'every wrong code of the hour still there');
  const guests: number[] = [];
  for (let i = 0; i <= LIMIT; i++) guests.push((await request(port, 'POST', '/api/guest', '{}', {}, from)).status);
  assert.deepEqual(guests, [...Array(LIMIT).fill(200), 429], 'every guest token of the hour still there');
}

describe('http: browser origins and JSON bodies (issue 32)', function () {
  this.timeout(30000);

  describe("the default: the server's own origin", () => {
    const ts = useEdge({ addressWrongCodesPerHour: LIMIT, guestsPerAddressPerHour: LIMIT, guestRenewalsPerAddressPerHour: LIMIT });
    const port = () => ts.server.port;
    const own = () => `http://127.0.0.1:${port()}`;
    afterEach(async () => {
      await Promise.all(matchMaker.disconnectAll());
    });

    it('refuses a cross-origin text/plain POST (no preflight) with 415 and no CORS echo, before anything is counted', async () => {
      const attacker = '127.0.0.2';
      const page = { origin: EVIL, 'content-type': 'text/plain' };
      for (let i = 0; i < 2 * LIMIT; i++) {
        const guess = await request(port(), 'POST', `/matchmake/joinById/${code(i)}`, '{"nickname":"추측"}', page, attacker);
        assertRefused(guess, 415, 'UNSUPPORTED_MEDIA_TYPE', 'joinById');
        assertNoCors(guess, 'joinById');
        const guest = await request(port(), 'POST', '/api/guest', '{}', page, attacker);
        assertRefused(guest, 415, 'UNSUPPORTED_MEDIA_TYPE', '/api/guest');
        assertNoCors(guest, '/api/guest');
      }
      // The other bodies a page may send without asking, and a body that names no type, are refused the same way.
      for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'text/plain; charset=utf-8'])
        assertRefused(
          await request(port(), 'POST', `/matchmake/create/${ROOM_NAME}`, '{"nickname":"x"}', { 'content-type': type }, attacker),
          415,
          'UNSUPPORTED_MEDIA_TYPE',
          type,
        );
      assert.equal(await untypedPost(port(), `/matchmake/joinById/${code(9)}`, '{"nickname":"x"}', attacker), 415);
      assert.equal(await untypedPost(port(), '/api/guest', '{}', attacker), 415);
      assert.equal((await matchMaker.query({})).length, 0, 'no room');
      await assertBudgetsUntouched(port(), attacker);
    });

    it('refuses a foreign Origin with 403 FORBIDDEN_ORIGIN even with a JSON body, preflight and listing included, uncounted', async () => {
      const attacker = '127.0.0.3';
      const page = { origin: EVIL };
      for (let i = 0; i < 2 * LIMIT; i++) {
        for (const [method, path] of [
          ['POST', `/matchmake/joinById/${code(i)}`],
          ['POST', '/api/guest'],
          ['POST', '/api/guest/renew'],
          ['OPTIONS', `/matchmake/joinById/${code(i)}`],
          ['OPTIONS', '/api/guest'],
          ['GET', `/matchmake/${ROOM_NAME}`],
        ]) {
          const reply = await request(port(), method, path, method === 'POST' ? '{}' : undefined, page, attacker);
          assertRefused(reply, 403, 'FORBIDDEN_ORIGIN', `${method} ${path}`);
          assertNoCors(reply, `${method} ${path}`);
        }
      }
      // Near misses are other origins: another port, another scheme, a name that only starts alike, `null` (a sandboxed frame).
      for (const origin of [`http://127.0.0.1:${port() + 1}`, `https://127.0.0.1:${port()}`, `${own()}.evil.example`, 'null', `${own()}/`])
        assertRefused(await request(port(), 'POST', '/api/guest', '{}', { origin }, attacker), 403, 'FORBIDDEN_ORIGIN', origin);
      await assertBudgetsUntouched(port(), attacker);
    });

    it('serves its own origin (/play) with the origin echoed and no credentials, and the app (no Origin) without CORS', async () => {
      const page = { origin: own() };
      const preflight = await request(port(), 'OPTIONS', `/matchmake/create/${ROOM_NAME}`, undefined, page);
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers['access-control-allow-origin'], own());
      assert.match(String(preflight.headers['access-control-allow-headers']), /Authorization/);
      assert.equal(preflight.headers['access-control-allow-credentials'], undefined);
      const guest = await request(port(), 'POST', '/api/guest', '{}', page);
      assert.equal(guest.status, 200);
      assert.equal(guest.headers['access-control-allow-origin'], own());
      assert.equal(guest.headers['access-control-allow-credentials'], undefined);
      assert.match(String(guest.headers.vary), /Origin/);
      const created = await request(port(), 'POST', `/matchmake/create/${ROOM_NAME}`, '{"nickname":"방장"}', {
        ...page,
        authorization: `Bearer ${guest.json.token}`,
      });
      assert.ok(created.json.room, created.body);
      assert.equal(created.headers['access-control-allow-origin'], own());
      assert.equal(created.headers['access-control-allow-credentials'], undefined);
      const listed = await request(port(), 'GET', `/matchmake/${ROOM_NAME}`, undefined, page);
      assert.equal(listed.status, 200);
      assert.equal(listed.headers['access-control-allow-origin'], own());
      // The app sends no Origin: served, with no CORS headers at all.
      const app = await request(port(), 'POST', '/api/guest', '{}', { 'content-type': 'application/json; charset=utf-8' });
      assert.equal(app.status, 200);
      assertNoCors(app, 'no Origin');
      const joined = await request(port(), 'POST', `/matchmake/joinById/${created.json.room.roomId}`, '{"nickname":"친구"}');
      assert.ok(joined.json.sessionId, joined.body);
    });
  });

  // One embedded server at a time (Colyseus's matchMaker is the process's): each describe its own.
  describe('ALLOWED_ORIGINS', () => {
    let allowing: TestServer;
    before(async () => (allowing = await bootEdge({ allowedOrigins: ['https://app.example.com'] })));
    after(() => allowing.server.close());

    it('answers exactly the listed origins; the rest (its own origin included) are refused', async () => {
      const at = allowing.server.port;
      const ok = await request(at, 'POST', '/api/guest', '{}', { origin: 'https://app.example.com' });
      assert.equal(ok.status, 200);
      assert.equal(ok.headers['access-control-allow-origin'], 'https://app.example.com');
      assert.equal(ok.headers['access-control-allow-credentials'], undefined);
      for (const origin of [`http://127.0.0.1:${at}`, 'https://app.example.com.evil.example', 'http://app.example.com', EVIL]) {
        const refused = await request(at, 'POST', '/api/guest', '{}', { origin }, '127.0.0.2');
        assertRefused(refused, 403, 'FORBIDDEN_ORIGIN', origin);
        assertNoCors(refused, origin);
      }
    });
  });

  describe('behind a trusted proxy', () => {
    let proxied: TestServer;
    before(async () => (proxied = await bootEdge({ trustedProxies: ['127.0.0.1'] })));
    after(() => proxied.server.close());

    it("takes the proxy's scheme and host for its own origin, and only from the proxy", async () => {
      const at = proxied.server.port;
      const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'play.example.com', 'x-forwarded-for': '203.0.113.7' };
      const ok = await request(at, 'POST', '/api/guest', '{}', { ...forwarded, origin: 'https://play.example.com' });
      assert.equal(ok.status, 200);
      assert.equal(ok.headers['access-control-allow-origin'], 'https://play.example.com');
      assertRefused(
        await request(at, 'POST', '/api/guest', '{}', { ...forwarded, 'x-forwarded-proto': 'http', origin: 'https://play.example.com' }),
        403,
        'FORBIDDEN_ORIGIN',
        'another scheme',
      );
      // A client that is not the proxy cannot name the origin it wants.
      assertRefused(
        await request(at, 'POST', '/api/guest', '{}', { ...forwarded, origin: 'https://play.example.com' }, '127.0.0.2'),
        403,
        'FORBIDDEN_ORIGIN',
        'forwarded headers from a client',
      );
    });
  });
});
