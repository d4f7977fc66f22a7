import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { decodeJwt, SignJWT } from 'jose';
import { GUEST_KEY_FILE_NAME } from '../../server/identity/config';
import { GUEST_ISSUER } from '../../server/identity/tokens';
import { CockroachClient, GameSession, MemoryTokenStore, type TokenStore } from '../../client-sdk/index';
import type { TestServer } from '../support/server';
import { bootEdge, freshDataDir, request } from '../http/support';
import { dropSocket, leaveAfterEach, next, rejects, roomOf, until } from './support';

/**
 * The SDK's identities against the real server (PROTOCOL v3 "Who is playing"): guest tokens from
 * POST /api/guest, the app backend's JWTs, and a seat that follows the identity to a fresh client
 * (a reinstalled app, another device). test/sdk/identity.test.ts covers the same calls against a
 * fake matchmaker, for the answers a real server rarely gives.
 */

const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

interface Seen {
  method: string;
  path: string;
  authorization: string | undefined;
}

/** Every HTTP request the server receives from now on, with the identity it carried (read before the server answers). */
function recordRequests(ts: TestServer): { seen: Seen[]; stop(): void } {
  const seen: Seen[] = [];
  const listener = (req: IncomingMessage) =>
    seen.push({ method: req.method ?? '', path: (req.url ?? '').split('?')[0], authorization: req.headers.authorization });
  ts.server.httpServer.prependListener('request', listener);
  return { seen, stop: () => void ts.server.httpServer.off('request', listener) };
}

const guestFetches = (seen: Seen[]) => seen.filter((r) => r.path === '/api/guest');
/** Matchmaking requests as [method, bearer token]. */
const matchmaking = (seen: Seen[]) =>
  seen.filter((r) => r.path.startsWith('/matchmake/')).map((r) => [r.path.split('/')[2], r.authorization?.replace(/^Bearer /, '')]);

/**
 * The old app is gone without a word (uninstalled): its socket drops and it never tries again.
 * (The session is told it is leaving, so it does not reconnect; nothing reaches the server but the drop.)
 */
function uninstall(session: GameSession): void {
  (session as unknown as { leaving: boolean }).leaving = true;
  dropSocket(session);
}

/** A started game of the host and one friend (지우), each on the client given. */
async function gameWith(host: CockroachClient, friend: CockroachClient): Promise<{ a: GameSession; b: GameSession }> {
  const a = await host.create('민수');
  const b = await friend.join(a.snapshot.code, '지우');
  await until(a, () => a.snapshot.seats.length === 2, 'seated');
  await a.start();
  await until(b, () => b.snapshot.phase === 'playing' && b.snapshot.myHandCount > 0, 'dealt');
  return { a, b };
}

const friendOf = (a: GameSession) => a.snapshot.seats.find((s) => s.nickname === '지우');

describe('SDK identities against the server (issue 21)', function () {
  this.timeout(30000);
  leaveAfterEach();

  describe('guest mode (the default)', () => {
    let ts: TestServer;
    let log: { seen: Seen[]; stop(): void };
    before(async () => (ts = await bootEdge()));
    after(() => ts.server.close());
    beforeEach(() => (log = recordRequests(ts)));
    afterEach(() => log.stop());

    it('fetches one guest identity per player, keeps it in the store, and sends it on every request (a reconnection too)', async () => {
      const hostStore = new MemoryTokenStore();
      const kidStore = new MemoryTokenStore();
      const { b } = await gameWith(
        new CockroachClient(ts.endpoint, { store: hostStore }),
        new CockroachClient(ts.endpoint, { store: kidStore }),
      );
      const [hostGuest, kidGuest] = [hostStore.loadGuest(), kidStore.loadGuest()];
      assert.match(String(hostGuest), JWT);
      assert.match(String(kidGuest), JWT);
      assert.notEqual(hostGuest, kidGuest, 'two people, two identities');
      // A blip: the SDK takes the seat back by itself, with the same identity.
      const back = next(b, 'reconnected');
      dropSocket(b);
      await back;
      assert.deepEqual(
        guestFetches(log.seen).map((r) => [r.method, r.authorization]),
        [
          ['POST', undefined],
          ['POST', undefined],
        ],
        'one fetch per player, carrying no identity',
      );
      // One reconnection try, or more when the first came before the server saw the drop: each with the identity.
      const tries = matchmaking(log.seen).length - 2;
      assert.ok(tries >= 1);
      assert.deepEqual(matchmaking(log.seen), [
        ['create', hostGuest],
        ['joinById', kidGuest],
        ...Array(tries).fill(['reconnect', kidGuest]),
      ]);
      // The app restarts with the same store: no new identity, the same one on the next request.
      await new CockroachClient(ts.endpoint, { store: kidStore }).listRooms();
      assert.equal(guestFetches(log.seen).length, 2, 'not fetched again');
      assert.deepEqual(matchmaking(log.seen).at(-1), ['cockroach-poker', kidGuest]);
    });

    it('after a reinstall, the kept guest identity takes its seat back with resume({ code }): the same seat, the hand whole; nobody else can', async () => {
      const store = new MemoryTokenStore();
      const { a, b } = await gameWith(new CockroachClient(ts.endpoint), new CockroachClient(ts.endpoint, { store }));
      const guest = store.loadGuest();
      assert.match(String(guest), JWT);
      const [me, seat, hand] = [b.me, b.snapshot.seats.find((s) => s.isMe)!.seat, b.snapshot.myHand];
      uninstall(b);
      await until(a, () => friendOf(a)?.connected === false, 'the drop seen');
      // Reinstalled: nothing saved but the guest identity, kept where a reinstall does not reach (the Keychain).
      const reinstalled = new MemoryTokenStore();
      reinstalled.saveGuest(guest!);
      const fetchesBefore = guestFetches(log.seen).length;
      const back = await new CockroachClient(ts.endpoint, { store: reinstalled }).resume({ code: a.snapshot.code, nickname: '지우' });
      assert.equal(back.me, me, 'the same seat (the same player id)');
      assert.equal(back.snapshot.phase, 'playing');
      assert.equal(back.snapshot.seats.find((s) => s.isMe)!.seat, seat);
      assert.deepEqual(back.snapshot.myHand, hand, 'the whole private view');
      await until(a, () => friendOf(a)?.connected === true, 'back for the others');
      assert.equal(reinstalled.loadGuest(), guest);
      assert.equal(guestFetches(log.seen).length, fetchesBefore, 'no new identity fetched');
      assert.deepEqual(matchmaking(log.seen).at(-1), ['joinById', guest]);
      assert.equal(reinstalled.load()?.roomId, a.roomId, 'the seat saved again for the next restart');
      // Another person (another guest) cannot take it: past the start, they are a late player.
      await rejects(new CockroachClient(ts.endpoint).resume({ code: a.snapshot.code, nickname: '지우' }), 'LATE_JOIN');
      assert.equal(friendOf(a)?.connected, true);
    });

    for (const leaveAtOnce of [false, true])
      it(`a second tab (the same store) takes the seat from an open connection: the first ends REPLACED, tries no reconnection, and leaves the seat saved for the second${leaveAtOnce ? ' (its app leaving as soon as it is told, before the close)' : ''}`, async () => {
        const shared = new MemoryTokenStore();
        let secondSaved!: () => void;
        const saved = new Promise<void>((resolve) => (secondSaved = resolve));
        // Each tab reads and writes one storage; the first tab's reads and clears wait until the second has saved, so the
        // order is the worst one: a first tab that cleared blindly would wipe the second tab's seat.
        const tab = (first: boolean): TokenStore => ({
          async load() {
            if (first) await saved;
            return shared.load();
          },
          save(seat) {
            shared.save(seat);
            if (!first) secondSaved();
          },
          async clear() {
            if (first) await saved;
            shared.clear();
          },
          loadGuest: () => shared.loadGuest(),
          saveGuest: (token) => shared.saveGuest(token),
        });
        const { a, b } = await gameWith(new CockroachClient(ts.endpoint), new CockroachClient(ts.endpoint, { store: tab(true) }));
        if (leaveAtOnce) b.on('error', (e) => void (e.code === 'REPLACED' && b.leave()));
        const hand = b.snapshot.myHand;
        const lost: unknown[] = [];
        b.on('connectionLost', (e) => lost.push(e));
        const told = next(b, 'error');
        const left = next(b, 'left');
        const second = await new CockroachClient(ts.endpoint, { store: tab(false) }).join(a.snapshot.code, '지우');
        assert.equal(second.me, b.me, 'the same seat');
        assert.deepEqual(second.snapshot.myHand, hand);
        const [error, end] = await Promise.all([told, left]);
        if (leaveAtOnce) {
          // The app's own leave() ends it; the seat still stays the second tab's.
          assert.deepEqual([error.code, end.reason.code, end.reason.action], ['REPLACED', 'LEFT', 'leave']);
        } else {
          assert.deepEqual([error.code, end.reason.code], ['REPLACED', 'REPLACED']);
          assert.match(end.reason.message, /다른 기기/);
          await rejects(b.chat('nice'), 'REPLACED');
        }
        await b.leave(); // the app cleans up the ended session: the seat stays the second tab's
        assert.deepEqual(lost, [], 'no reconnection tried');
        assert.equal(shared.load()?.token, roomOf(second).reconnectionToken, "the second tab's seat");
        assert.equal(guestFetches(log.seen).length, 2, 'the tabs share one identity');
        await until(a, () => friendOf(a)?.connected === true, 'seated, connected');
      });
  });

  describe('guest tokens that expire (issue 32)', () => {
    const dataDir = freshDataDir();
    let ts: TestServer;
    let log: { seen: Seen[]; stop(): void };
    before(async () => (ts = await bootEdge({ opsPort: 0 }, {}, { DATA_DIR: dataDir })));
    after(() => ts.server.close());
    beforeEach(() => (log = recordRequests(ts)));
    afterEach(() => log.stop());
    const now = () => Math.floor(Date.now() / 1000);
    /** A guest token of this server in its last days (signed in the test with the server's own key: no knob in the server). */
    const nearlyExpired = (sub: string) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(sub)
        .setIssuer(GUEST_ISSUER)
        .setIssuedAt(now() - 27 * 86400)
        .setExpirationTime(now() + 3 * 86400)
        .sign(Buffer.from(readFileSync(path.join(dataDir, GUEST_KEY_FILE_NAME), 'utf8').trim(), 'base64'));

    it('renews a guest token in its last 7 days before the request that uses it: the same identity, kept, its seat intact', async () => {
      const store = new MemoryTokenStore();
      const old = await nearlyExpired('phone-1');
      store.saveGuest(old);
      const client = new CockroachClient(ts.endpoint, { store });
      const session = await client.create('민수');
      const renewed = store.loadGuest()!;
      assert.notEqual(renewed, old);
      const claims = decodeJwt(renewed);
      assert.equal(claims.sub, 'phone-1', 'the same identity');
      assert.ok(claims.exp! - now() > 29 * 86400, '30 days again');
      assert.deepEqual(
        log.seen.filter((r) => r.path === '/api/guest/renew').map((r) => [r.method, r.authorization]),
        [['POST', `Bearer ${old}`]],
      );
      assert.deepEqual(matchmaking(log.seen), [['create', renewed]]);
      assert.equal(guestFetches(log.seen).length, 0, 'no new identity');
      // The renewed identity is the seat's: a reinstall holding only it takes the seat back.
      const friend = await new CockroachClient(ts.endpoint).join(session.snapshot.code, '지우');
      await until(session, () => session.snapshot.seats.length === 2, 'seated');
      await session.start();
      uninstall(session);
      await until(friend, () => friend.snapshot.seats.find((s) => s.nickname === '민수')?.connected === false, 'the drop seen');
      const reinstalled = new MemoryTokenStore();
      reinstalled.saveGuest(renewed);
      const back = await new CockroachClient(ts.endpoint, { store: reinstalled }).resume({ code: session.snapshot.code, nickname: '민수' });
      assert.equal(back.me, session.me, 'the same seat');
    });

    it('replaces a revoked guest identity with a new one and plays on', async () => {
      const store = new MemoryTokenStore();
      const first = await new CockroachClient(ts.endpoint, { store }).create('민수');
      await first.leave();
      const revoked = store.loadGuest()!;
      const reply = await request(ts.server.opsPort!, 'POST', '/guests/revoke', JSON.stringify({ sub: decodeJwt(revoked).sub }));
      assert.equal(reply.status, 200, reply.body);
      const again = await new CockroachClient(ts.endpoint, { store }).create('민수');
      assert.equal(again.snapshot.seats.length, 1);
      const replaced = store.loadGuest()!;
      assert.notEqual(decodeJwt(replaced).sub, decodeJwt(revoked).sub, 'a new identity');
      assert.deepEqual(matchmaking(log.seen).slice(-2), [
        ['create', revoked],
        ['create', replaced],
      ]);
    });
  });

  describe('app mode (AUTH_JWT_SECRET)', () => {
    const secret = 'the-app-backends-secret-of-32-bytes-or-more';
    let minted = 0;
    /** What the app backend hands its player: a short-lived HS256 JWT, a fresh one each time. */
    const sign = (sub: string, nickname?: string) =>
      new SignJWT(nickname ? { nickname } : {})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(sub)
        .setIssuedAt()
        .setJti(String(++minted))
        .setExpirationTime('10m')
        .sign(new TextEncoder().encode(secret));
    let ts: TestServer;
    let log: { seen: Seen[]; stop(): void };
    before(async () => (ts = await bootEdge({}, {}, { DATA_DIR: freshDataDir(), AUTH_JWT_SECRET: secret })));
    after(() => ts.server.close());
    beforeEach(() => (log = recordRequests(ts)));
    afterEach(() => log.stop());

    it('refuses no token (AUTH_REQUIRED) and a forged one (AUTH_INVALID); asks the token function before every request; the token names the player', async () => {
      // An app that forgot its token: the SDK finds no guest identities on this server and goes on without one.
      await rejects(new CockroachClient(ts.endpoint).create('민수'), 'AUTH_REQUIRED');
      const forged = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('user-1')
        .setExpirationTime('10m')
        .sign(new TextEncoder().encode('not-the-secret-not-the-secret-not-the'));
      await rejects(new CockroachClient(ts.endpoint, { appToken: forged }).create('민수'), 'AUTH_INVALID');
      const given: string[] = [];
      const appToken = async () => {
        const token = await sign('user-1', '앱민수');
        given.push(token);
        return token;
      };
      const session = await new CockroachClient(ts.endpoint, { appToken }).create('무시됨');
      assert.equal(session.snapshot.seats[0].nickname, '앱민수', "the token's nickname wins");
      assert.equal(given.length, 1);
      const back = next(session, 'reconnected');
      dropSocket(session);
      await back;
      assert.ok(given.length >= 2, 'asked again for the reconnection');
      assert.equal(new Set(given).size, given.length, 'a fresh token each time');
      // Each request with the token the function gave just before it (a reconnection may take more than one try).
      assert.deepEqual(matchmaking(log.seen), [
        ['create', undefined],
        ['create', forged],
        ['create', given[0]],
        ...given.slice(1).map((token) => ['reconnect', token]),
      ]);
      assert.deepEqual(
        guestFetches(log.seen).map((r) => r.method),
        ['POST'],
        'asked once, by the client without a token (the route does not exist in app mode)',
      );
    });

    it('after a reinstall the same app identity takes its seat back with resume({ code }); another identity cannot', async () => {
      const { a, b } = await gameWith(
        new CockroachClient(ts.endpoint, { appToken: () => sign('host-1') }),
        new CockroachClient(ts.endpoint, { appToken: () => sign('kid-7') }),
      );
      const [me, hand] = [b.me, b.snapshot.myHand];
      uninstall(b);
      await until(a, () => friendOf(a)?.connected === false, 'the drop seen');
      const reinstalled = new MemoryTokenStore();
      const back = await new CockroachClient(ts.endpoint, { store: reinstalled, appToken: () => sign('kid-7') }).resume({
        code: a.snapshot.code,
        nickname: '지우',
      });
      assert.equal(back.me, me, 'the same seat');
      assert.deepEqual(back.snapshot.myHand, hand, 'the whole private view');
      await until(a, () => friendOf(a)?.connected === true, 'back for the others');
      assert.equal(reinstalled.loadGuest(), null, 'no guest identity in app mode');
      await rejects(
        new CockroachClient(ts.endpoint, { appToken: () => sign('kid-8') }).resume({ code: a.snapshot.code, nickname: '지우' }),
        'LATE_JOIN',
      );
    });
  });
});
