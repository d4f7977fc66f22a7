import assert from 'node:assert/strict';
import { createSecretKey, generateKeyPairSync } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { matchMaker } from 'colyseus';
import { Client } from 'colyseus.js';
import { base64url, decodeJwt, exportSPKI, generateKeyPair, KeyLike, SignJWT } from 'jose';
import { ROOM_MESSAGES } from '../../server/protocol';
import { GUEST_KEY_FILE_NAME, identityConfigFromEnv } from '../../server/identity/config';
import { GUEST_ISSUER, GUEST_TOKEN_DAYS } from '../../server/identity/tokens';
import { seatIdentity } from '../../server/identity/roomAuth';
import { setLogLevel, setLogSink } from '../../server/base/log';
import { CockroachState } from '../../server/schema/CockroachState';
import { Tracked } from '../support/server';
import { reservationsOf } from '../../server/colyseus/reservations';
import { bootEdge, freshDataDir, post, request, roomCount, ROOM_NAME, useEdge } from './support';

const CREATE = `/matchmake/create/${ROOM_NAME}`;
const SECRET = 'an app backend secret of 32 bytes or more, for tests';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

function assertAuth(reply: { status: number; json: any }, code: 'AUTH_REQUIRED' | 'AUTH_INVALID') {
  assert.equal(reply.status, 401, JSON.stringify(reply.json));
  assert.equal(reply.json.code, code);
  assert.equal(reply.json.error, `${code}: ${ROOM_MESSAGES[code]}`, 'the error text begins with the code (PROTOCOL v3)');
}

/** An app backend's token: a few lines, as docs/operations.md shows them. */
function appToken(claims: Record<string, unknown>, opts: { key?: Uint8Array | KeyLike; alg?: string; exp?: number | string } = {}) {
  const jwt = new SignJWT(claims).setProtectedHeader({ alg: opts.alg ?? 'HS256' }).setIssuedAt();
  if (claims.sub === undefined) jwt.setSubject('player-1');
  if (opts.exp !== undefined) jwt.setExpirationTime(opts.exp);
  else jwt.setExpirationTime('1h');
  return jwt.sign(opts.key ?? new TextEncoder().encode(SECRET));
}

/** `alg: none`, as a forger writes it. */
function unsigned(claims: Record<string, unknown>): string {
  const part = (o: object) => base64url.encode(JSON.stringify(o));
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.`;
}

describe('identity: guest mode (the embedded default)', function () {
  this.timeout(30000);
  const dataDir = freshDataDir();
  const ts = useEdge({}, { DATA_DIR: dataDir });
  const port = () => ts.server.port;
  afterEach(async () => {
    await Promise.all(matchMaker.disconnectAll());
  });

  it('POST /api/guest answers a server-signed token of the app token shape, each one a new player', async () => {
    const a = await request(port(), 'POST', '/api/guest', '');
    const b = await request(port(), 'POST', '/api/guest', '{}');
    assert.equal(a.status, 200);
    assert.equal(a.headers['cache-control'], 'no-store');
    assert.deepEqual(Object.keys(a.json), ['token']);
    const claims = decodeJwt(a.json.token);
    assert.equal(claims.iss, GUEST_ISSUER);
    assert.ok(typeof claims.sub === 'string' && claims.sub.length >= 16 && claims.sub.length <= 64);
    assert.equal(claims.exp! - claims.iat!, GUEST_TOKEN_DAYS * 86400, 'a guest token lives 30 days');
    assert.ok(Math.abs(claims.exp! - Date.now() / 1000 - 30 * 86400) < 60, 'from now');
    assert.notEqual(decodeJwt(b.json.token).sub, claims.sub);
    assert.equal((await request(port(), 'POST', '/api/guest', '{"nickname":"x"}')).json.code, 'BAD_REQUEST');
    assert.equal((await request(port(), 'GET', '/api/guest')).json.code, 'NOT_FOUND');
    // The key lives with the server's data, readable by its owner only.
    assert.equal(statSync(path.join(dataDir, GUEST_KEY_FILE_NAME)).mode & 0o777, 0o600);
  });

  it('hands the identity to the room with the seat; without a token the player is anonymous', async () => {
    const token = (await request(port(), 'POST', '/api/guest', '')).json.token as string;
    const client = new Client(ts.endpoint);
    client.auth.token = token; // colyseus.js 0.15 sends it as Authorization: Bearer on matchmaking
    const host = new Tracked(await client.create<CockroachState>(ROOM_NAME, { nickname: '손님' }, CockroachState), 'host');
    await host.until(() => host.state.players.size === 1, 'seated');
    const room = matchMaker.getRoomById(host.room.roomId)!;
    const authOf = (id: string) => room.clients.find((c) => c.sessionId === id)?.auth;
    assert.deepEqual(seatIdentity(authOf(host.id)), {
      key: `guest:${decodeJwt(token).sub}`,
      kind: 'guest',
      address: '127.0.0.1',
    });
    const anonymous = await new Client(ts.endpoint).joinById(host.room.roomId, { nickname: '익명' });
    assert.deepEqual(seatIdentity(authOf(anonymous.sessionId)), {
      key: null,
      kind: 'anonymous',
      address: '127.0.0.1',
    });
    await anonymous.leave();
  });

  it('refuses forged, expired, alg:none and foreign tokens with 401 AUTH_INVALID, creating nothing', async () => {
    const guest = (await request(port(), 'POST', '/api/guest', '')).json.token as string;
    const [header, payload] = guest.split('.');
    const forgedPayload = base64url.encode(JSON.stringify({ ...decodeJwt(guest), sub: 'someone-else' }));
    const otherKey = new TextEncoder().encode('x'.repeat(32));
    const tokens = [
      `${header}.${forgedPayload}.${guest.split('.')[2]}`, // another sub under the real signature
      `${header}.${payload}.${base64url.encode('not the signature')}`,
      unsigned({ sub: 'me', iss: GUEST_ISSUER, exp: Math.floor(Date.now() / 1000) + 3600 }),
      await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('me')
        .setIssuer(GUEST_ISSUER)
        .setExpirationTime('1h')
        .sign(otherKey),
      await appToken({ sub: 'app-player' }), // an app token where guests are expected (no issuer)
      'not.a.token',
      'x'.repeat(5000),
    ];
    for (const token of tokens) {
      assertAuth(await post(port(), CREATE, { nickname: '위조' }, bearer(token)), 'AUTH_INVALID');
    }
    assertAuth(await post(port(), CREATE, { nickname: '위조' }, { authorization: 'Basic abc' }), 'AUTH_INVALID');
    assertAuth(await post(port(), CREATE, { nickname: '위조' }, { authorization: 'Bearer' }), 'AUTH_INVALID');
    assert.equal(await roomCount(), 0, 'nothing was created for a refused request');
  });

  it('keeps guest identities across a restart (the key is read back from DATA_DIR)', async () => {
    const token = (await request(port(), 'POST', '/api/guest', '')).json.token as string;
    await ts.server.close();
    const again = await bootEdge({}, {}, { DATA_DIR: dataDir });
    try {
      const reply = await post(again.server.port, CREATE, { nickname: '다시' }, bearer(token));
      assert.ok(reply.json.room, JSON.stringify(reply.json));
    } finally {
      await again.server.close();
      Object.assign(ts, await bootEdge({}, {}, { DATA_DIR: dataDir })); // for the describe's after()
    }
  });
});

describe('identity: guest tokens last 30 days, renew for the same identity, and can be revoked (issue 32)', function () {
  this.timeout(30000);
  const dataDir = freshDataDir();
  const ts = useEdge({ opsPort: 0 }, { DATA_DIR: dataDir });
  const port = () => ts.server.port;
  const guest = async () => (await request(port(), 'POST', '/api/guest', '{}')).json.token as string;
  const renew = (token?: string) => request(port(), 'POST', '/api/guest/renew', '{}', token === undefined ? {} : bearer(token));
  const revoke = (body: unknown, headers: Record<string, string> = {}) =>
    request(ts.server.opsPort!, 'POST', '/guests/revoke', typeof body === 'string' ? body : JSON.stringify(body), headers);
  /** A guest token signed with this server's own key, with the dates a test needs (no knob in the server). */
  const minted = (sub: string, iat: number, exp: number) =>
    new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(sub)
      .setIssuer(GUEST_ISSUER)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(Buffer.from(readFileSync(path.join(dataDir, GUEST_KEY_FILE_NAME), 'utf8').trim(), 'base64'));
  const now = () => Math.floor(Date.now() / 1000);
  const DAY = 86400;
  afterEach(async () => {
    await Promise.all(matchMaker.disconnectAll());
  });

  it('renews a guest token for the same identity and a fresh 30 days: the seat follows the renewed token', async () => {
    const token = await guest();
    const client = new Client(ts.endpoint);
    client.auth.token = token;
    const host = new Tracked(await client.create<CockroachState>(ROOM_NAME, { nickname: '손님' }, CockroachState), 'host');
    await host.until(() => host.state.players.size === 1, 'seated');
    const renewed = await renew(token);
    assert.equal(renewed.status, 200, renewed.body);
    assert.equal(renewed.headers['cache-control'], 'no-store');
    const [before, after] = [decodeJwt(token), decodeJwt(renewed.json.token)];
    assert.equal(after.sub, before.sub, 'the same identity');
    assert.equal(after.exp! - after.iat!, GUEST_TOKEN_DAYS * DAY);
    assert.ok(after.iat! >= before.iat!);
    // The renewed token takes the seat back (the old connection is replaced), as the same player.
    const back = await post(port(), `/matchmake/joinById/${host.room.roomId}`, { nickname: '손님' }, bearer(renewed.json.token));
    assert.equal(back.json.sessionId, host.id, back.body);
    const again = new Tracked(await new Client(ts.endpoint).consumeSeatReservation<CockroachState>(back.json, CockroachState), 'back');
    await again.until(() => again.state.players.get(host.id)?.connected === true, 'the same seat, connected');
    assert.equal(again.state.players.size, 1);
  });

  it('refuses a renewal without a valid token: none, expired, older than 30 days, forged, malformed; a body is not allowed', async () => {
    assert.equal((await renew()).json.code, 'AUTH_REQUIRED');
    const other = new TextEncoder().encode('y'.repeat(32));
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('me')
      .setIssuer(GUEST_ISSUER)
      .setIssuedAt()
      .setExpirationTime('1d')
      .sign(other);
    for (const token of [
      await minted('expired', now() - 31 * DAY, now() - DAY),
      await minted('a-year-token-of-old', now() - 31 * DAY, now() + 334 * DAY), // before 30-day tokens: held to 30 days from iat
      await minted('from-the-future', now() + DAY, now() + 20 * DAY),
      forged,
      'not.a.token',
    ]) {
      const refused = await renew(token);
      assert.equal(refused.status, 401, token);
      assert.equal(refused.json.code, 'AUTH_INVALID');
      assertAuth(await post(port(), CREATE, { nickname: '손님' }, bearer(token)), 'AUTH_INVALID');
    }
    // A year-long token from before, younger than 30 days, still passes, and renews to 30 days.
    const old = await minted('a-recent-year-token', now() - 10 * DAY, now() + 355 * DAY);
    assert.ok((await post(port(), CREATE, { nickname: '손님' }, bearer(old))).json.room);
    const renewed = decodeJwt((await renew(old)).json.token);
    assert.equal(renewed.sub, 'a-recent-year-token');
    assert.equal(renewed.exp! - renewed.iat!, GUEST_TOKEN_DAYS * DAY);
    const token = await guest();
    assert.equal((await request(port(), 'POST', '/api/guest/renew', '{"sub":"x"}', bearer(token))).json.code, 'BAD_REQUEST');
  });

  it('revokes one guest identity on the ops port: every path refuses it and its connections close; other guests play on', async () => {
    const [mine, sister] = [await guest(), await guest()];
    const sub = decodeJwt(mine).sub!;
    const hostClient = new Client(ts.endpoint);
    hostClient.auth.token = sister;
    const host = new Tracked(await hostClient.create<CockroachState>(ROOM_NAME, { nickname: '언니' }, CockroachState), 'sister');
    const meClient = new Client(ts.endpoint);
    meClient.auth.token = mine;
    const me = new Tracked(await meClient.joinById<CockroachState>(host.room.roomId, { nickname: '나' }, CockroachState), 'me');
    const watching = new Tracked(
      await meClient.joinById<CockroachState>(host.room.roomId, { spectator: true }, CockroachState),
      'me watching',
    );
    await host.until(() => host.state.players.size === 2, 'both seated');
    const reconnectionToken = me.room.reconnectionToken;

    const revoked = await revoke({ sub });
    assert.equal(revoked.status, 200, revoked.body);
    assert.deepEqual(revoked.json, { revoked: true, already: false, fleet: 'off' });
    for (const c of [me, watching]) {
      await c.until(() => c.leftWith !== null, `${c.label}: closed`);
      assert.equal(c.messages.find((m) => m.type === 'error')?.message.code, 'AUTH_INVALID', `${c.label}: told why`);
    }
    await host.until(() => host.state.players.size === 1, 'the seat given up');
    assert.equal(host.leftWith, null, "the sister's connection stays");

    const [roomId, secret] = reconnectionToken.split(':');
    for (const [path, body] of [
      [CREATE, { nickname: '나' }],
      [`/matchmake/joinById/${host.room.roomId}`, { nickname: '나' }],
      [`/matchmake/joinById/${host.room.roomId}`, { spectator: true }],
      [`/matchmake/reconnect/${roomId}`, { reconnectionToken: secret }],
    ] as const)
      assertAuth(await post(port(), path, body, bearer(mine)), 'AUTH_INVALID');
    assert.equal((await renew(mine)).json.code, 'AUTH_INVALID', 'no renewal either');
    // Nobody else is logged out.
    assert.ok((await post(port(), `/matchmake/joinById/${host.room.roomId}`, { nickname: '친구' }, bearer(await guest()))).json.sessionId);
    assert.equal((await renew(sister)).status, 200);
    assert.equal((await revoke({ sub })).json.already, true);
    // By a token handed in (expired or not), as well as by sub.
    const third = await guest();
    assert.equal((await revoke({ token: third })).status, 200);
    assertAuth(await post(port(), CREATE, { nickname: '셋째' }, bearer(third)), 'AUTH_INVALID');
  });

  it('keeps revocations across a restart (DATA_DIR), and refuses what it cannot read', async () => {
    const [kept, other] = [await guest(), await guest()];
    assert.equal((await revoke({ sub: decodeJwt(kept).sub })).status, 200);
    for (const [body, headers, status, code] of [
      ['{"sub":5}', {}, 400, 'BAD_REQUEST'],
      ['{}', {}, 400, 'BAD_REQUEST'],
      ['{"sub":"a","token":"b"}', {}, 400, 'BAD_REQUEST'],
      ['not json', {}, 400, 'BAD_REQUEST'],
      [JSON.stringify({ token: 'not.a.token' }), {}, 400, 'AUTH_INVALID'],
      [JSON.stringify({ sub: 'a' }), { 'content-type': 'text/plain' }, 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ] as const) {
      const reply = await revoke(body, headers);
      assert.deepEqual([reply.status, reply.json.code], [status, code], body);
    }
    assert.equal((await request(port(), 'POST', '/guests/revoke', JSON.stringify({ sub: 'a' }))).status, 404, 'not on the public port');
    await ts.server.close();
    Object.assign(ts, await bootEdge({ opsPort: 0 }, {}, { DATA_DIR: dataDir }));
    assertAuth(await post(port(), CREATE, { nickname: '다시' }, bearer(kept)), 'AUTH_INVALID');
    assert.ok((await post(port(), CREATE, { nickname: '다시' }, bearer(other))).json.room, 'the others still pass');
  });
});

describe('identity: app mode (AUTH_JWT_SECRET, HS256)', function () {
  this.timeout(30000);
  const ts = useEdge(
    {},
    { DATA_DIR: freshDataDir(), AUTH_JWT_SECRET: SECRET, AUTH_JWT_SECRET_PREVIOUS: 'the key being rotated out, 32 bytes+' },
  );
  const port = () => ts.server.port;
  afterEach(async () => {
    await Promise.all(matchMaker.disconnectAll());
  });

  it('requires a token on every matchmaking request, reconnect included: 401 AUTH_REQUIRED, nothing reserved', async () => {
    const host = await post(port(), CREATE, { nickname: '방장' }, bearer(await appToken({ sub: 'host' })));
    const roomId = host.json.room.roomId as string;
    const room = matchMaker.getRoomById(roomId);
    const reserved = reservationsOf(room).length;
    for (const [path, body] of [
      [CREATE, { nickname: '민수' }],
      [`/matchmake/joinOrCreate/${ROOM_NAME}`, { nickname: '민수' }],
      [`/matchmake/join/${ROOM_NAME}`, { nickname: '민수' }],
      [`/matchmake/joinById/${roomId}`, { nickname: '민수' }],
      [`/matchmake/reconnect/${roomId}`, { reconnectionToken: 'abc' }],
    ] as const)
      assertAuth(await post(port(), path, body), 'AUTH_REQUIRED');
    assert.equal(reservationsOf(room).length, reserved, 'no seat was reserved');
    assert.equal(await roomCount(), 1);
    assert.equal((await request(port(), 'POST', '/api/guest', '')).json.code, 'NOT_FOUND', 'no guests in app mode');
  });

  it("takes the token's nickname over the join option's (which may then be absent), and refuses a bad one", async () => {
    const named = await post(port(), CREATE, {}, bearer(await appToken({ sub: 'kid-1', nickname: '앱이름' })));
    const host = new Client(ts.endpoint);
    const hostRoom = new Tracked(await host.consumeSeatReservation<CockroachState>(named.json, CockroachState), 'host');
    await hostRoom.until(() => hostRoom.state.players.size === 1, 'seated');
    assert.equal([...hostRoom.state.players.values()][0].nickname, '앱이름');
    const friend = new Client(ts.endpoint);
    friend.auth.token = await appToken({ sub: 'kid-2', nickname: '친구앱' });
    const joined = new Tracked(
      await friend.joinById<CockroachState>(hostRoom.room.roomId, { nickname: '무시됨' }, CockroachState),
      'friend',
    );
    await joined.until(() => joined.state.players.get(joined.id)?.nickname === '친구앱', 'the token nickname');
    for (const nickname of ['', '\u3164', 'x'.repeat(13), 12]) {
      assertAuth(await post(port(), CREATE, { nickname: '괜찮아' }, bearer(await appToken({ sub: 'kid-3', nickname }))), 'AUTH_INVALID');
    }
  });

  it('refuses expired, alg:none, other-algorithm, wrong-key and ill-typed tokens with 401 AUTH_INVALID', async () => {
    const rsa = await generateKeyPair('RS256');
    const now = Math.floor(Date.now() / 1000);
    const bad = [
      await appToken({ sub: 'p' }, { exp: now - 120 }), // expired
      unsigned({ sub: 'p', exp: now + 3600 }),
      await appToken({ sub: 'p' }, { alg: 'HS512', key: new TextEncoder().encode(SECRET) }), // the right secret, another algorithm
      await appToken({ sub: 'p' }, { alg: 'RS256', key: rsa.privateKey }),
      await appToken({ sub: 'p' }, { key: new TextEncoder().encode('another secret that is long enough!!') }),
      await appToken({ sub: '' }),
      await appToken({ sub: 'x'.repeat(65) }),
      await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('no-exp').sign(new TextEncoder().encode(SECRET)),
    ];
    for (const token of bad) assertAuth(await post(port(), CREATE, { nickname: '민수' }, bearer(token)), 'AUTH_INVALID');
    assert.equal(await roomCount(), 0);
    // The key being rotated out still verifies; a sub of 64 characters is fine.
    const previous = await appToken({ sub: 'y'.repeat(64) }, { key: new TextEncoder().encode('the key being rotated out, 32 bytes+') });
    assert.ok((await post(port(), CREATE, { nickname: '민수' }, bearer(previous))).json.room);
  });

  it('never puts the token (or the sub) in a log line, a reply or the state', async () => {
    const lines: string[] = [];
    setLogSink((l) => lines.push(l));
    setLogLevel('debug');
    try {
      const sub = 'secret-player-sub-7f3a';
      const token = await appToken({ sub, nickname: '비밀' });
      const bodies: string[] = [];
      const created = await post(port(), CREATE, {}, bearer(token));
      bodies.push(created.body);
      const client = new Client(ts.endpoint);
      client.auth.token = token;
      const host = new Tracked(await client.consumeSeatReservation<CockroachState>(created.json, CockroachState), 'host');
      const friend = new Client(ts.endpoint);
      friend.auth.token = await appToken({ sub: 'friend-sub-91c2' });
      const guest = new Tracked(await friend.joinById<CockroachState>(host.room.roomId, { nickname: '친구' }, CockroachState), 'friend');
      await host.until(() => host.state.players.size === 2, 'both seated');
      host.room.send('start', {});
      await guest.until(() => guest.state.phase === 'playing', 'started');
      // A drop and a reconnection carry the token too.
      const reconnectionToken = guest.room.reconnectionToken;
      guest.room.connection.close();
      await host.until(() => host.state.players.get(guest.id)?.connected === false, 'dropped');
      const [roomId, secret] = reconnectionToken.split(':');
      const back = await post(
        port(),
        `/matchmake/reconnect/${roomId}`,
        { reconnectionToken: secret },
        bearer(await appToken({ sub: 'friend-sub-91c2' })),
      );
      bodies.push(back.body);
      const returned = new Tracked(
        await friend.consumeSeatReservation<CockroachState>({ ...back.json, reconnectionToken: secret }, CockroachState),
        'back',
      );
      await host.until(() => host.state.players.get(returned.id)?.connected === true, 'back');
      const everything = [
        ...lines,
        ...bodies,
        JSON.stringify(host.state.toJSON()),
        JSON.stringify(returned.state.toJSON()),
        JSON.stringify(host.messages),
        JSON.stringify(returned.messages),
      ].join('\n');
      for (const secretText of [token, token.split('.')[2], sub, 'friend-sub-91c2'])
        assert.ok(!everything.includes(secretText), `leaked: ${secretText.slice(0, 12)}…`);
      assert.ok(lines.length > 0, 'the log was captured');
    } finally {
      setLogSink(null);
      setLogLevel('warn');
    }
  });
});

describe('identity: app tokens name their issuer and audience and live at most AUTH_JWT_MAX_AGE_SECONDS (issue 32)', function () {
  this.timeout(30000);
  const ISSUER = 'https://accounts.example.com';
  const AUDIENCE = 'cockroach-poker';
  const ts = useEdge(
    {},
    {
      DATA_DIR: freshDataDir(),
      AUTH_JWT_SECRET: SECRET,
      AUTH_JWT_ISSUER: ISSUER,
      AUTH_JWT_AUDIENCE: AUDIENCE,
      AUTH_JWT_MAX_AGE_SECONDS: '3600',
    },
  );
  const port = () => ts.server.port;
  const now = () => Math.floor(Date.now() / 1000);
  /** What a well-configured app backend signs; each token changes one claim (undefined: left out). */
  const sign = (changes: Record<string, unknown> = {}) => {
    const claims: Record<string, unknown> = { sub: 'kid-1', iss: ISSUER, aud: AUDIENCE, iat: now(), exp: now() + 3600, ...changes };
    for (const key of Object.keys(claims)) if (claims[key] === undefined) delete claims[key];
    return new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(SECRET));
  };
  afterEach(async () => {
    await Promise.all(matchMaker.disconnectAll());
  });

  it("accepts the backend's token; refuses another issuer or audience, a missing one, a long life, no iat, an iat ahead", async () => {
    assert.ok((await post(port(), CREATE, { nickname: '민수' }, bearer(await sign()))).json.room);
    assert.ok((await post(port(), CREATE, { nickname: '민수' }, bearer(await sign({ aud: ['other', AUDIENCE] })))).json.room);
    const bad = {
      'another issuer': await sign({ iss: 'evil' }),
      'another app': await sign({ aud: 'another-app' }),
      'no issuer': await sign({ iss: undefined }),
      'no audience': await sign({ aud: undefined }),
      '100 years': await sign({ exp: now() + 100 * 365 * 86400 }),
      'two hours': await sign({ exp: now() + 7200 }),
      'no iat': await sign({ iat: undefined }),
      'iat a day ahead': await sign({ iat: now() + 86400, exp: now() + 86400 + 600 }),
      'iat long ago': await sign({ iat: now() - 7200, exp: now() + 60 }),
    };
    for (const [what, token] of Object.entries(bad)) {
      const reply = await post(port(), CREATE, { nickname: '민수' }, bearer(token));
      assert.equal(reply.json.code, 'AUTH_INVALID', what);
    }
  });

  it('lists rooms only for a valid token: 401 AUTH_REQUIRED without, AUTH_INVALID with a bad one', async () => {
    const list = `/matchmake/${ROOM_NAME}`;
    assertAuth(await request(port(), 'GET', list), 'AUTH_REQUIRED');
    assertAuth(await request(port(), 'GET', '/matchmake/'), 'AUTH_REQUIRED');
    assertAuth(await request(port(), 'GET', list, undefined, bearer(await sign({ iss: 'evil' }))), 'AUTH_INVALID');
    const listed = await request(port(), 'GET', list, undefined, bearer(await sign()));
    assert.equal(listed.status, 200);
    assert.ok(Array.isArray(listed.json));
  });

  it('reads the settings at start: a clear error for an unusable one, a warning for each claim not checked', () => {
    for (const [env, message] of [
      [{ AUTH_JWT_MAX_AGE_SECONDS: 'a day' }, /AUTH_JWT_MAX_AGE_SECONDS must be an integer from 60 to 2592000/],
      [{ AUTH_JWT_MAX_AGE_SECONDS: '10' }, /AUTH_JWT_MAX_AGE_SECONDS/],
      [{ AUTH_JWT_ISSUER: 'evil\u0000' }, /AUTH_JWT_ISSUER must be one value/],
      [{ AUTH_JWT_AUDIENCE: 'x'.repeat(300) }, /AUTH_JWT_AUDIENCE must be one value/],
    ] as const)
      assert.throws(() => identityConfigFromEnv({ AUTH_JWT_SECRET: SECRET, ...env }), message);
    assert.throws(() => identityConfigFromEnv({ AUTH_JWT_ISSUER: ISSUER }), /AUTH_JWT_ISSUER is only read together with AUTH_JWT_SECRET/);
    const bare = identityConfigFromEnv({ AUTH_JWT_SECRET: SECRET });
    assert.ok(bare.mode === 'app' && bare.maxAgeSeconds === 86400 && bare.issuer === null && bare.audience === null);
    assert.deepEqual(
      bare.warnings.map((w) => w.split(' ')[0]),
      ['AUTH_JWT_ISSUER', 'AUTH_JWT_AUDIENCE'],
    );
    assert.ok(bare.warnings.every((w) => /strongly recommended/.test(w)));
  });
});

describe('identity: app mode with a public key (AUTH_JWT_PUBLIC_KEY, RS256 or ES256)', function () {
  this.timeout(30000);
  for (const alg of ['RS256', 'ES256'] as const) {
    describe(alg, () => {
      const pair =
        alg === 'RS256' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const pem = pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();
      const ts = useEdge({}, { DATA_DIR: freshDataDir(), AUTH_JWT_PUBLIC_KEY: pem });
      afterEach(async () => {
        await Promise.all(matchMaker.disconnectAll());
      });

      it('accepts the app backend’s token and refuses every other algorithm, the public key used as an HMAC secret included', async () => {
        const good = await appToken({ sub: 'p' }, { alg, key: pair.privateKey });
        assert.ok((await post(ts.server.port, CREATE, { nickname: '민수' }, bearer(good))).json.room);
        const other =
          alg === 'RS256' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('rsa', { modulusLength: 2048 });
        const bad = [
          await appToken({ sub: 'p' }, { alg: 'HS256', key: createSecretKey(Buffer.from(pem)) }), // the classic key confusion
          await appToken({ sub: 'p' }, { alg: alg === 'RS256' ? 'ES256' : 'RS256', key: other.privateKey }),
          await appToken(
            { sub: 'p' },
            {
              alg: alg === 'RS256' ? 'PS256' : 'ES384',
              key: alg === 'RS256' ? pair.privateKey : generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey,
            },
          ),
          unsigned({ sub: 'p', exp: Math.floor(Date.now() / 1000) + 60 }),
        ];
        for (const token of bad) assertAuth(await post(ts.server.port, CREATE, { nickname: '민수' }, bearer(token)), 'AUTH_INVALID');
      });
    });
  }

  it('refuses at start a key it cannot use, naming the variable and never echoing the value', async () => {
    const secretish = 'BEGIN not a key at all 1234567890';
    assert.throws(
      () => identityConfigFromEnv({ AUTH_JWT_PUBLIC_KEY: secretish }),
      (e: Error) => /AUTH_JWT_PUBLIC_KEY/.test(e.message) && !e.message.includes(secretish),
    );
    const dsa = await exportSPKI((await generateKeyPair('EdDSA')).publicKey);
    assert.throws(() => identityConfigFromEnv({ AUTH_JWT_PUBLIC_KEY: dsa }), /RSA \(RS256\) or P-256 \(ES256\)/);
    assert.throws(() => identityConfigFromEnv({ AUTH_JWT_SECRET: SECRET, AUTH_JWT_PUBLIC_KEY: dsa }), /not both/);
    const claimsSet = { AUTH_JWT_ISSUER: 'https://app.example.com', AUTH_JWT_AUDIENCE: 'cockroach-poker' };
    assert.deepEqual(
      identityConfigFromEnv({ AUTH_JWT_SECRET: 'short', ...claimsSet }).warnings.length,
      1,
      'a short secret works, with a warning',
    );
  });
});
