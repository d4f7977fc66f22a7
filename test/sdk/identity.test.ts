import assert from 'node:assert/strict';
import { CockroachClient, MemoryTokenStore } from '../../client-sdk/index';
import { guestTokenEnds } from '../../client-sdk/identity';
import { fakeMatchmaker, FakeMatchmaker, refusal, Reply, Seen } from './fakeMatchmaker';
import { rejects } from './support';

/** A JWT-shaped token (the SDK only carries it; the server checks it). */
const jwt = (n: number) => `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJndWVzdC0${n}In0.c2lnbmF0dXJl${n}`;
const DAY = 86400;
const now = () => Math.floor(Date.now() / 1000);
const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
/** A guest token with dates, as the server writes them (the SDK reads them without checking the signature). */
const dated = (sub: string, iat: number, exp: number) => `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub, iss: 'x', iat, exp })}.c2ln`;

describe('SDK identities: guest and app tokens on every matchmaking request (issue 21)', function () {
  this.timeout(20000);
  let fake: FakeMatchmaker;
  let issued = 0;
  /** The matchmaker's answer to each matchmaking request; /api/guest hands out jwt(1), jwt(2), … */
  let matchmake: (request: Seen) => Reply = () => refusal(200, 'ROOM_FULL');

  beforeEach(async () => {
    issued = 0;
    matchmake = () => refusal(200, 'ROOM_FULL');
    fake = await fakeMatchmaker((request) =>
      request.path === '/api/guest' ? { status: 200, body: { token: jwt(++issued) } } : matchmake(request),
    );
  });
  afterEach(() => fake.close());

  const endpoint = () => `ws://127.0.0.1:${fake.port}`;
  const matchmaking = () => fake.seen.filter((r) => r.path.startsWith('/matchmake/'));
  const guestFetches = () => fake.seen.filter((r) => r.path === '/api/guest');

  it('fetches a guest identity once, keeps it in the store, and sends it on every request (reconnect included)', async () => {
    const store = new MemoryTokenStore();
    const client = new CockroachClient(endpoint(), { store });
    await rejects(client.create('민수'), 'ROOM_FULL');
    await rejects(client.join('123456', '민수'), 'ROOM_FULL');
    await rejects(client.quickMatch('민수'), 'ROOM_FULL');
    assert.equal(guestFetches().length, 1);
    assert.equal(guestFetches()[0].method, 'POST');
    assert.equal(guestFetches()[0].contentType, 'application/json', 'JSON, as the server requires (issue 32)');
    assert.equal(guestFetches()[0].body, '{}');
    assert.equal(store.loadGuest(), jwt(1));
    // The app restarts: a new client, the same store, the same guest.
    store.save({ roomId: '123456', sessionId: 'abc', token: '123456:reconnect' });
    matchmake = () => refusal(200, 'ROOM_CLOSED');
    await rejects(new CockroachClient(endpoint(), { store }).resume(), 'ROOM_CLOSED');
    assert.equal(guestFetches().length, 1, 'not fetched again');
    assert.deepEqual(
      matchmaking().map((r) => [r.path.split('/')[2], r.authorization]),
      ['create', 'joinById', 'joinOrCreate', 'reconnect'].map((method) => [method, `Bearer ${jwt(1)}`]),
    );
  });

  it('exchanges a guest identity the server no longer accepts once, then says AUTH_INVALID', async () => {
    const store = new MemoryTokenStore();
    store.saveGuest(jwt(0)); // from before the server's key was replaced
    matchmake = (r) => (r.authorization === `Bearer ${jwt(1)}` ? refusal(200, 'ROOM_FULL') : refusal(401, 'AUTH_INVALID'));
    const client = new CockroachClient(endpoint(), { store });
    await rejects(client.create('민수'), 'ROOM_FULL');
    assert.deepEqual(
      matchmaking().map((r) => r.authorization),
      [`Bearer ${jwt(0)}`, `Bearer ${jwt(1)}`],
    );
    assert.equal(store.loadGuest(), jwt(1), 'the new one is kept');
    matchmake = () => refusal(401, 'AUTH_INVALID', '로그인 정보가 맞지 않아요.');
    await rejects(client.create('민수'), 'AUTH_INVALID');
    assert.equal(guestFetches().length, 2, 'one more exchange, then the refusal stands');
  });

  it('app mode: the app token (a function asked before every request), AUTH_REQUIRED as an SdkError, no guest fetched', async () => {
    let asked = 0;
    const client = new CockroachClient(endpoint(), { appToken: () => jwt(100 + ++asked) });
    await rejects(client.create('민수'), 'ROOM_FULL');
    await rejects(client.join('123456', '민수'), 'ROOM_FULL');
    assert.deepEqual(
      matchmaking().map((r) => r.authorization),
      [`Bearer ${jwt(101)}`, `Bearer ${jwt(102)}`],
    );
    matchmake = () => refusal(401, 'AUTH_REQUIRED', '로그인이 필요해요.');
    const fixed = new CockroachClient(endpoint(), { appToken: jwt(7) });
    await rejects(fixed.create('민수'), 'AUTH_REQUIRED');
    assert.equal(matchmaking().length, 3, 'a fixed token is not retried');
    assert.equal(guestFetches().length, 0);
  });

  it('resume() after a reinstall (nothing saved) joins the named room with the identity; a room that is gone is ROOM_CLOSED', async () => {
    const fresh = new MemoryTokenStore();
    const client = new CockroachClient(endpoint(), { store: fresh, appToken: jwt(9) });
    await rejects(client.resume(), 'NO_SAVED_SEAT');
    matchmake = () => refusal(404, 'ROOM_NOT_FOUND');
    await rejects(client.resume({ code: '123456', nickname: '민수' }), 'ROOM_CLOSED');
    const [request] = matchmaking();
    assert.equal(request.path, '/matchmake/joinById/123456');
    assert.equal(request.authorization, `Bearer ${jwt(9)}`);
    const body = JSON.parse(request.body) as Record<string, unknown>;
    assert.equal(body.nickname, '민수');
    assert.match(String(body.entropy), /^[0-9a-f]{32}$/);
    assert.deepEqual(Object.keys(body).sort(), ['entropy', 'nickname']);
  });

  it('anonymous (guest: false): no identity at all', async () => {
    await rejects(new CockroachClient(endpoint(), { guest: false }).create('민수'), 'ROOM_FULL');
    assert.equal(guestFetches().length, 0);
    assert.equal(matchmaking()[0].authorization, undefined);
  });

  it('plays on anonymously when no guest identity can be had: the issuing limit (asked again next time), a server without guests (not asked again)', async () => {
    for (const [status, code, asked] of [
      [429, 'TOO_MANY_REQUESTS', 2],
      [404, 'NOT_FOUND', 1],
    ] as const) {
      await fake.close();
      fake = await fakeMatchmaker((r) => (r.path === '/api/guest' ? refusal(status, code) : refusal(200, 'ROOM_FULL')));
      const store = new MemoryTokenStore();
      const client = new CockroachClient(endpoint(), { store });
      await rejects(client.create('민수'), 'ROOM_FULL');
      await rejects(client.create('민수'), 'ROOM_FULL');
      assert.deepEqual(
        matchmaking().map((r) => r.authorization),
        [undefined, undefined],
      );
      assert.equal(guestFetches().length, asked, code);
      assert.equal(store.loadGuest(), null);
    }
  });

  describe('guest tokens that expire (issue 32): renewed in their last 7 days, replaced once expired or refused', () => {
    /** What POST /api/guest/renew answers: a fresh 30-day token of the same sub, unless a test says otherwise. */
    let renewal: (request: Seen) => Reply;
    const renewals = () => fake.seen.filter((r) => r.path === '/api/guest/renew');
    const sent = () => matchmaking().map((r) => r.authorization?.replace(/^Bearer /, ''));
    beforeEach(async () => {
      await fake.close();
      renewal = () => ({ status: 200, body: { token: dated('mine', now(), now() + 30 * DAY) } });
      fake = await fakeMatchmaker((r) =>
        r.path === '/api/guest'
          ? { status: 200, body: { token: jwt(++issued) } }
          : r.path === '/api/guest/renew'
            ? renewal(r)
            : matchmake(r),
      );
    });

    it('renews a token used in its last 7 days, silently: the same request goes on with the new one, which is kept', async () => {
      const store = new MemoryTokenStore();
      const old = dated('mine', now() - 27 * DAY, now() + 3 * DAY);
      store.saveGuest(old);
      const client = new CockroachClient(endpoint(), { store });
      await rejects(client.create('민수'), 'ROOM_FULL');
      const [asked] = renewals();
      assert.deepEqual(
        [asked.method, asked.authorization, asked.contentType, asked.body],
        ['POST', `Bearer ${old}`, 'application/json', '{}'],
      );
      const renewed = store.loadGuest()!;
      assert.notEqual(renewed, old);
      assert.ok(guestTokenEnds(renewed)! - now() > 29 * DAY, 'kept: 30 days again');
      assert.deepEqual(sent(), [renewed]);
      await rejects(client.create('민수'), 'ROOM_FULL');
      assert.equal(renewals().length, 1, 'not renewed again');
      assert.equal(guestFetches().length, 0, 'the same identity: no new one');
    });

    it('leaves a token with more than 7 days alone; a token from before 30-day tokens is renewed 23 days after its iat', async () => {
      const fresh = dated('mine', now() - 20 * DAY, now() + 10 * DAY);
      const year = dated('mine', now() - 25 * DAY, now() + 340 * DAY);
      for (const [token, renewed] of [
        [fresh, false],
        [year, true],
      ] as const) {
        const store = new MemoryTokenStore();
        store.saveGuest(token);
        const before = renewals().length;
        await rejects(new CockroachClient(endpoint(), { store }).create('민수'), 'ROOM_FULL');
        assert.equal(renewals().length - before, renewed ? 1 : 0);
        assert.equal(store.loadGuest() === token, !renewed);
      }
    });

    it('replaces an expired token, or one the server refuses to renew (revoked), with a new identity', async () => {
      const expired = new MemoryTokenStore();
      expired.saveGuest(dated('mine', now() - 31 * DAY, now() - DAY));
      await rejects(new CockroachClient(endpoint(), { store: expired }).create('민수'), 'ROOM_FULL');
      assert.equal(renewals().length, 0, 'an expired token is not renewed');
      assert.equal(expired.loadGuest(), jwt(1));
      renewal = () => refusal(401, 'AUTH_INVALID');
      const revoked = new MemoryTokenStore();
      revoked.saveGuest(dated('mine', now() - 27 * DAY, now() + 3 * DAY));
      await rejects(new CockroachClient(endpoint(), { store: revoked }).create('민수'), 'ROOM_FULL');
      assert.equal(renewals().length, 1);
      assert.equal(revoked.loadGuest(), jwt(2), 'a new identity, kept');
      assert.deepEqual(sent(), [jwt(1), jwt(2)]);
    });

    it('keeps the old token while the server cannot renew it now (429: asked again next time; 404: an older server, not asked again)', async () => {
      for (const [status, code, asked] of [
        [429, 'TOO_MANY_REQUESTS', 2],
        [404, 'NOT_FOUND', 1],
      ] as const) {
        renewal = () => refusal(status, code);
        const store = new MemoryTokenStore();
        const old = dated('mine', now() - 27 * DAY, now() + 3 * DAY);
        store.saveGuest(old);
        const before = renewals().length;
        const client = new CockroachClient(endpoint(), { store });
        await rejects(client.create('민수'), 'ROOM_FULL');
        await rejects(client.create('민수'), 'ROOM_FULL');
        assert.equal(renewals().length - before, asked, code);
        assert.equal(store.loadGuest(), old);
        assert.deepEqual(sent().slice(-2), [old, old]);
      }
      assert.equal(guestFetches().length, 0);
    });

    it('reads the dates without Buffer or atob: exp, or 30 days after iat if sooner; null for a token without exp', () => {
      assert.equal(guestTokenEnds(dated('é-ü', 1000, 2000)), 2000);
      assert.equal(guestTokenEnds(dated('x', 1000, 1000 + 400 * DAY)), 1000 + 30 * DAY);
      assert.equal(guestTokenEnds(jwt(1)), null);
      assert.equal(guestTokenEnds('a.%%%.c'), null);
    });
  });
});
