import assert from 'node:assert/strict';
import { matchMaker } from 'colyseus';
import { Client } from 'colyseus.js';
import WebSocket from 'ws';
import { CockroachState } from '../../server/schema/CockroachState';
import { socketErrors } from '../../server/colyseus/transport/GuardedTransport';
import { setLogSink } from '../../server/base/log';
import { idleSocket, pastHttpTimeouts, post, request, ROOM_NAME, useEdge, waitFor } from './support';

const CREATE = `/matchmake/create/${ROOM_NAME}`;

function assertCode(reply: { status: number; json: any }, status: number, code: string) {
  assert.equal(reply.status, status, JSON.stringify(reply.json));
  assert.equal(reply.json.code, code);
  assert.match(reply.json.message, /[\uAC00-\uD7A3]/);
}

describe('http: limits an operator sets', function () {
  this.timeout(30000);
  afterEach(async () => {
    await Promise.all(matchMaker.disconnectAll());
  });

  describe('creates, joins and lobbies per client address (anonymous players are counted by their address)', () => {
    const ts = useEdge({ addressCreatesPerMinute: 4, addressJoinsPerMinute: 6, lobbiesPerAddress: 2, trustedProxies: ['127.0.0.1'] });
    const port = () => ts.server.port;
    const from = (ip: string) => ({ 'x-forwarded-for': ip });

    it('refuses a third open lobby with TOO_MANY_LOBBIES, a fifth create a minute with TOO_MANY_REQUESTS; joinOrCreate past them only joins', async () => {
      const a = from('198.51.100.1');
      const first = await post(port(), CREATE, { nickname: '하나', private: true }, a);
      const second = await post(port(), CREATE, { nickname: '둘', private: true }, a);
      assert.ok(first.json.room && second.json.room);
      assertCode(await post(port(), CREATE, { nickname: '셋' }, a), 429, 'TOO_MANY_LOBBIES');
      // Quick match that would create counts as a create: with nothing to join, it is refused too.
      assertCode(await post(port(), `/matchmake/joinOrCreate/${ROOM_NAME}`, { nickname: '셋' }, a), 429, 'TOO_MANY_LOBBIES');
      // Another address is not affected; and quick match from the first one joins its room instead of creating.
      const other = await post(port(), CREATE, { nickname: '남' }, from('198.51.100.2'));
      assert.ok(other.json.room);
      // A lobby is listed once its creator sits down (issue 32: nobody takes a creator's place first).
      const seated = await new Client(`ws://127.0.0.1:${port()}`).consumeSeatReservation(other.json, CockroachState);
      const quick = await post(port(), `/matchmake/joinOrCreate/${ROOM_NAME}`, { nickname: '빠른' }, a);
      assert.equal(quick.json.room?.roomId, other.json.room.roomId, 'joined, did not create');
      // Once a lobby is gone, the address may open another; the per-minute count still holds
      // (refusals were not counted: two creates so far).
      await seated.leave();
      await matchMaker.getRoomById(first.json.room.roomId)!.disconnect();
      const fourth = await post(port(), CREATE, { nickname: '넷' }, a);
      assert.ok(fourth.json.room);
      await matchMaker.getRoomById(second.json.room.roomId)!.disconnect();
      assert.ok((await post(port(), CREATE, { nickname: '다섯' }, a)).json.room);
      await matchMaker.getRoomById(fourth.json.room.roomId)!.disconnect();
      assertCode(await post(port(), CREATE, { nickname: '여섯' }, a), 429, 'TOO_MANY_REQUESTS');
    });

    it('refuses joins past the per-minute limit with TOO_MANY_REQUESTS, counted before the body is read', async () => {
      const host = await post(port(), CREATE, { nickname: '방장' }, from('203.0.113.9'));
      const roomId = host.json.room.roomId;
      const b = from('198.51.100.7');
      for (let i = 0; i < 6; i++) assert.equal((await post(port(), `/matchmake/joinById/${roomId}`, {}, b)).json.code, 'BAD_NICKNAME');
      const refused = await post(port(), `/matchmake/joinById/${roomId}`, 'x'.repeat(100_000), b);
      assertCode(refused, 429, 'TOO_MANY_REQUESTS');
      assert.equal(refused.headers.connection, 'close', 'an unread body closes the connection');
    });

    it('believes X-Forwarded-For only from a trusted proxy, and only its right-most untrusted hop', async () => {
      // The client wrote the left entry itself; the proxy appended the real address.
      const spoofed = { 'x-forwarded-for': '10.9.9.9, 198.51.100.1' };
      assertCode(await post(port(), CREATE, { nickname: '속임' }, spoofed), 429, 'TOO_MANY_REQUESTS');
    });
  });

  describe('X-Forwarded-For without TRUSTED_PROXY', () => {
    const ts = useEdge({ addressCreatesPerMinute: 1 });
    it('is ignored: every header still counts as the one peer address', async () => {
      assert.ok((await post(ts.server.port, CREATE, { nickname: '하나' }, { 'x-forwarded-for': '198.51.100.1' })).json.room);
      assertCode(await post(ts.server.port, CREATE, { nickname: '둘' }, { 'x-forwarded-for': '198.51.100.2' }), 429, 'TOO_MANY_REQUESTS');
    });
  });

  describe('timeouts and connections', () => {
    // The idle timeout is long here: what closes silent sockets must be the headers timeout.
    const ts = useEdge({
      headersTimeoutMs: 1000,
      requestTimeoutMs: 1500,
      idleTimeoutMs: 60_000,
      keepAliveTimeoutMs: 1000,
      maxConnections: 30,
    });

    it('drops TCP connections that send nothing, or only part of their headers', async () => {
      // Each socket is watched from the moment it connects and reads what it is sent (idleSocket),
      // so no close goes unseen; the server's FIN ('end') is the drop itself.
      const closed = new Set<unknown>();
      const watched = (s: Awaited<ReturnType<typeof idleSocket>>) => {
        for (const event of ['end', 'close']) s.once(event, () => closed.add(s));
        return s;
      };
      await Promise.all(Array.from({ length: 10 }, () => idleSocket(ts.server.port).then(watched)));
      const partial = watched(await idleSocket(ts.server.port));
      partial.write('GET /health HTTP/1.1\r\nHost: x\r\n');
      const started = Date.now();
      // The idle timeout here is 60 s: closing well before it is the headers timeout's doing (1 s, checked every second).
      await waitFor(() => closed.size === 11, 'every idle connection closed', 15_000);
      assert.ok(Date.now() - started < 10_000, `closed after ${Date.now() - started} ms`);
    });

    it('answers SERVER_BUSY past the connection limit; a WebSocket in a room is not an idle connection', async () => {
      const host = await ts.client().create(ROOM_NAME, { nickname: '방장' });
      const held = await Promise.all(Array.from({ length: 29 }, () => idleSocket(ts.server.port)));
      const busy = await request(ts.server.port, 'GET', '/health');
      assertCode(busy, 503, 'SERVER_BUSY');
      for (const s of held) s.destroy();
      await waitFor(async () => (await request(ts.server.port, 'GET', '/health')).status === 200, 'room again once they are gone');
      await pastHttpTimeouts(ts.server.port);
      assert.equal(host.connection.isOpen, true, 'the room socket outlived every HTTP timeout');
      await host.leave();
    });
  });

  describe('keep-alive', () => {
    // Keep-alive (3 s) is well past the headers timeout (1 s): a close after it is keep-alive's.
    const ts = useEdge({ headersTimeoutMs: 1000, requestTimeoutMs: 1500, idleTimeoutMs: 60_000, keepAliveTimeoutMs: 3000 });

    it('keeps a connection that asked in time past the headers timeout, until keep-alive closes it', async () => {
      const socket = await idleSocket(ts.server.port);
      const opened = Date.now();
      const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
      socket.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
      const closedAt = await closed;
      assert.ok(closedAt - opened >= 2500, `closed after ${closedAt - opened} ms: by the keep-alive timeout, not the silent-socket one`);
    });
  });

  describe('the idle timeout', () => {
    const ts = useEdge({ idleTimeoutMs: 1000, keepAliveTimeoutMs: 1000, headersTimeoutMs: 1000, requestTimeoutMs: 1000 });
    it('closes a silent HTTP connection but never a WebSocket in a room', async () => {
      const host = await ts.client().create(ROOM_NAME, { nickname: '방장' });
      // Every HTTP timeout runs out twice over while the room's socket says nothing.
      await pastHttpTimeouts(ts.server.port);
      await pastHttpTimeouts(ts.server.port);
      assert.equal(host.connection.isOpen, true);
      const pong = new Promise((r) => host.onMessage('pong', r));
      host.send('ping', {});
      await pong;
      await host.leave();
    });
  });

  describe('connections per address', () => {
    const ts = useEdge({ connectionsPerAddress: 5, trustedProxies: ['127.0.0.2'] });
    it('closes connections past the per-address limit at once, but not those of a trusted proxy', async () => {
      const held = await Promise.all(Array.from({ length: 5 }, () => idleSocket(ts.server.port)));
      const extra = await idleSocket(ts.server.port);
      await new Promise((r) => extra.once('close', r));
      const viaProxy = await Promise.all(Array.from({ length: 8 }, () => idleSocket(ts.server.port, '127.0.0.2')));
      const reply = await request(ts.server.port, 'GET', '/health', undefined, {}, '127.0.0.3');
      assert.equal(reply.status, 200, 'another address is served');
      assert.ok(
        viaProxy.every((s) => !s.destroyed),
        'the proxy is not limited per address',
      );
      for (const s of [...held, ...viaProxy]) s.destroy();
    });
  });

  describe('WebSockets that name no seat', () => {
    const ts = useEdge();
    it('are answered and closed, counted, and leave no log line', async () => {
      const lines: string[] = [];
      setLogSink((l) => lines.push(l));
      try {
        const before = socketErrors.noSeat;
        for (let i = 0; i < 20; i++) {
          const ws = new WebSocket(`${ts.endpoint}/proc${i}/bogus${i}?sessionId=x`);
          const [code] = await new Promise<[number]>((resolve) => ws.once('close', (c) => resolve([c])));
          assert.equal(code, 4002);
        }
        assert.equal(socketErrors.noSeat - before, 20);
        assert.deepEqual(
          lines.filter((l) => /error|stack|seat/i.test(l)),
          [],
        );
      } finally {
        setLogSink(null);
      }
    });
  });
});
