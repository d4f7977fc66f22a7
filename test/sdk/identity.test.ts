import assert from 'node:assert/strict';
import { CockroachClient, MemoryTokenStore } from '../../client-sdk/index';
import { fakeMatchmaker, FakeMatchmaker, refusal, Reply, Seen } from './fakeMatchmaker';
import { rejects } from './support';

/** A JWT-shaped token (the SDK only carries it; the server checks it). */
const jwt = (n: number) => `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJndWVzdC0${n}In0.c2lnbmF0dXJl${n}`;

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
});
