/**
 * The room heartbeat pings only sockets that sent nothing since the last heartbeat (issue 25),
 * and still cuts one that answers nothing: unit cases on stand-in sockets, then a real
 * colyseus.js client whose pongs stop.
 */
import assert from 'node:assert/strict';
import type { Client } from 'colyseus';
import { heartbeat } from '../../server/transport/heartbeat';
import type WebSocket from 'ws';
import { HEARTBEAT_MISSES, HEARTBEAT_MS } from '../../server/room/constants';
import { create, joinById, Tracked, useTestServer } from '../support/server';

/** A socket as the transport leaves it: `pingCount` reset by the pong handler, `bytesRead` on the TCP socket. */
function socket() {
  const s = {
    readyState: 1,
    pingCount: 0,
    pings: 0,
    terminated: false,
    _socket: { bytesRead: 200 } as { bytesRead: number } | undefined,
    ping: () => s.pings++,
    terminate: () => (s.terminated = true),
  };
  return s;
}
const clientsOf = (...sockets: object[]) => sockets.map((ref) => ({ ref }) as unknown as Client);
const beat = (...sockets: object[]) => heartbeat(clientsOf(...sockets), HEARTBEAT_MISSES);

describe('transport: heartbeat pings only silent sockets (issue 25)', () => {
  it('skips a socket that sent anything since the last heartbeat, pings it once it is silent', () => {
    const talker = socket();
    beat(talker); // the first look: the handshake's bytes count as heard
    assert.equal(talker.pings, 0);
    for (let i = 0; i < 10; i++) {
      talker._socket!.bytesRead += 30; // a move, or any frame
      beat(talker);
    }
    assert.equal(talker.pings, 0, 'a socket that keeps talking is never pinged');
    beat(talker);
    assert.equal(talker.pings, 1, 'silent for a heartbeat: pinged');
  });

  it('a live silent client answers each ping and is pinged every other heartbeat', () => {
    const quiet = socket();
    beat(quiet);
    for (let i = 0; i < 6; i++) {
      const before = quiet.pings;
      beat(quiet);
      if (quiet.pings > before) {
        quiet._socket!.bytesRead += 2; // its pong
        quiet.pingCount = 0;
      }
    }
    assert.equal(quiet.pings, 3);
    assert.equal(quiet.terminated, false);
  });

  it('cuts a socket that answered none of HEARTBEAT_MISSES pings, at the same heartbeat as before', () => {
    const dead = socket();
    beat(dead); // last heard
    for (let i = 0; i < HEARTBEAT_MISSES; i++) beat(dead);
    assert.deepEqual({ pings: dead.pings, terminated: dead.terminated }, { pings: HEARTBEAT_MISSES, terminated: false });
    beat(dead);
    assert.equal(dead.terminated, true);
  });

  it('a socket without TCP figures is pinged every heartbeat; a closing one is left alone', () => {
    const bare = Object.assign(socket(), { _socket: undefined });
    const closing = Object.assign(socket(), { readyState: 2 });
    beat(bare, closing);
    beat(bare, closing);
    assert.equal(bare.pings, 2);
    assert.equal(closing.pings, 0);
  });
});

describe('transport: heartbeat on real sockets (real time, about 10 s)', function () {
  this.timeout(30000);
  const ts = useTestServer();
  const clients: Tracked[] = [];
  after(async () => {
    for (const c of clients) await c.leave().catch(() => undefined);
  });

  /** The colyseus.js client's own ws socket: it answers pings by itself. */
  const wsOf = (t: Tracked) => (t.room.connection.transport as unknown as { ws: WebSocket }).ws;

  it('pings the silent client, not the one that talks; cuts the one whose pongs stop', async () => {
    const talker = await create(ts, { nickname: 'talker' }, 'talker');
    const quiet = await joinById(ts, talker.room.roomId, { nickname: 'quiet' }, 'quiet');
    const gone = await joinById(ts, talker.room.roomId, { nickname: 'gone' }, 'gone');
    clients.push(talker, quiet, gone);
    const pings = new Map<Tracked, number>([
      [talker, 0],
      [quiet, 0],
    ]);
    for (const t of pings.keys()) wsOf(t).on('ping', () => pings.set(t, pings.get(t)! + 1));
    // `gone` stops reading: its pongs (and everything else) stop, as on a lost network.
    (wsOf(gone) as unknown as { _socket: { pause(): void } })._socket.pause();
    const talking = setInterval(() => talker.room.send('ping', {}), 1000);
    try {
      await talker.until(
        () => talker.state.players.get(gone.id)?.connected === false,
        'the silent socket cut',
        HEARTBEAT_MS * (HEARTBEAT_MISSES + 2),
      );
    } finally {
      clearInterval(talking);
    }
    assert.equal(pings.get(talker), 0, 'a client that sends something every second is never pinged');
    assert.ok(pings.get(quiet)! >= 1, 'the silent live client is pinged');
    assert.equal(quiet.leftWith, null, 'and kept');
  });
});
