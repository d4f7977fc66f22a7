/**
 * The room heartbeat pings only sockets that sent nothing since the last heartbeat, and the
 * others once in a while (issue 25), and still cuts one that answers nothing as soon as before:
 * unit cases on stand-in sockets, then real colyseus.js clients, one of which stops reading.
 */
import assert from 'node:assert/strict';
import type { Client } from 'colyseus';
import { heartbeat, ROUND_TRIP_EVERY } from '../../server/colyseus/transport/heartbeat';
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
  it('skips a socket that sent anything since the last heartbeat, but still pings it every ROUND_TRIP_EVERY heartbeats', () => {
    const talker = socket();
    beat(talker); // the first look: the handshake's bytes count as heard
    assert.equal(talker.pings, 0);
    for (let i = 0; i < 3 * ROUND_TRIP_EVERY; i++) {
      talker._socket!.bytesRead += 30; // a move, or the SDK's own ping
      const before = talker.pings;
      beat(talker);
      if (talker.pings > before) {
        talker._socket!.bytesRead += 2; // its pong
        talker.pingCount = 0;
      }
    }
    assert.equal(talker.pings, 3, 'one round trip every ROUND_TRIP_EVERY heartbeats');
    assert.equal(talker.terminated, false);
  });

  it('pings a live silent client every other heartbeat (its pong counts as heard)', () => {
    const quiet = socket();
    beat(quiet);
    for (let i = 0; i < 6; i++) {
      const before = quiet.pings;
      beat(quiet);
      if (quiet.pings > before) {
        quiet._socket!.bytesRead += 2;
        quiet.pingCount = 0;
      }
    }
    assert.equal(quiet.pings, 3);
    assert.equal(quiet.terminated, false);
  });

  it('cuts a client gone silent at the third heartbeat after its last byte, as before', () => {
    const gone = socket();
    gone._socket!.bytesRead += 30; // its last move
    beat(gone); // heard: no ping
    beat(gone); // silent: pinged
    assert.deepEqual({ pings: gone.pings, terminated: gone.terminated }, { pings: 1, terminated: false });
    beat(gone); // silent for two heartbeats, the ping unanswered
    assert.equal(gone.terminated, true);
  });

  it('cuts a client that writes but never reads (no pong), within ROUND_TRIP_EVERY + HEARTBEAT_MISSES heartbeats', () => {
    const deaf = socket();
    let beats = 0;
    while (!deaf.terminated && beats < 20) {
      deaf._socket!.bytesRead += 30;
      beat(deaf);
      beats++;
    }
    assert.equal(deaf.terminated, true);
    assert.ok(beats <= ROUND_TRIP_EVERY + HEARTBEAT_MISSES + 1, `cut after ${beats} heartbeats`);
    assert.equal(deaf.pings, HEARTBEAT_MISSES);
  });

  it('a socket without TCP figures is pinged every heartbeat and cut after HEARTBEAT_MISSES unanswered pings; a closing one is left alone', () => {
    const bare = Object.assign(socket(), { _socket: undefined });
    const closing = Object.assign(socket(), { readyState: 2 });
    for (let i = 0; i < HEARTBEAT_MISSES; i++) beat(bare, closing);
    assert.deepEqual({ pings: bare.pings, terminated: bare.terminated }, { pings: HEARTBEAT_MISSES, terminated: false });
    beat(bare, closing);
    assert.equal(bare.terminated, true);
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
        HEARTBEAT_MS * (HEARTBEAT_MISSES + 3),
      );
    } finally {
      clearInterval(talking);
    }
    assert.ok(pings.get(talker)! <= 1, `a client that sends something every second is pinged at most every ${ROUND_TRIP_EVERY} heartbeats`);
    assert.ok(pings.get(quiet)! >= 1, 'the silent live client is pinged');
    assert.equal(quiet.leftWith, null, 'and kept');
  });
});
