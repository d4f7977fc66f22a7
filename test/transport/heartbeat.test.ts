/**
 * The dead-socket check (server/colyseus/transport/heartbeat.ts), issue 36: it cuts on time since
 * the socket's last byte with a ping unanswered, on a clock the server's own stalls do not move;
 * a dead socket is still cut within 9 s of its last byte. Unit cases on stand-in sockets with a
 * clock that models time passing between looks (one a second, as the room's tick), then real
 * colyseus.js clients: one stops reading for good, one stalls for a while.
 */
import assert from 'node:assert/strict';
import type { Client } from 'colyseus';
import { Liveness } from '../../server/colyseus/transport/heartbeat';
import type WebSocket from 'ws';
import { LIVENESS, TICK_MS } from '../../server/room/constants';
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
type Fake = ReturnType<typeof socket>;
const clientsOf = (...sockets: object[]) => sockets.map((ref) => ({ ref }) as unknown as Client);

/** A room's looks on a clock of our own: `run(ms, each)` looks once per tick, `each` acts before every look. */
function room(...sockets: Fake[]) {
  const liveness = new Liveness(LIVENESS);
  let now = 1_000_000;
  const look = () => liveness.look(clientsOf(...sockets), now);
  look();
  return {
    get now() {
      return now;
    },
    /** Time passes (the loop is free), one look per tick. */
    run(ms: number, each: (now: number) => void = () => undefined) {
      for (const end = now + ms; now < end;) {
        now += TICK_MS;
        each(now);
        look();
      }
    },
    /** The server's own loop is blocked for `ms`: one late look. */
    stall(ms: number) {
      now += ms;
      look();
    },
  };
}
/** A live client's network: each ping is answered (its pong read, `pingCount` reset) `rttMs` after it was sent. */
function network(s: Fake, rttMs = 50) {
  let seen = s.pings;
  let asked: number | null = null;
  const net = {
    rttMs,
    step(now: number) {
      if (s.pings > seen) {
        seen = s.pings;
        asked = now - TICK_MS; // sent at the previous look
      }
      if (asked !== null && now >= asked + net.rttMs) {
        s._socket!.bytesRead += 2;
        s.pingCount = 0;
        asked = null;
      }
    },
  };
  return net;
}

describe('transport: the dead-socket check (issue 36)', () => {
  it('never cuts a live silent client, and pings it about every 4 s, not every second', () => {
    const quiet = socket();
    const r = room(quiet);
    const net = network(quiet);
    r.run(60_000, net.step);
    assert.equal(quiet.terminated, false);
    assert.ok(quiet.pings >= 12 && quiet.pings <= 20, `${quiet.pings} pings in 60 s`);
  });

  it('pings a client that keeps talking only every roundTripMs', () => {
    const talker = socket();
    const r = room(talker);
    const net = network(talker);
    r.run(60_000, (now) => {
      talker._socket!.bytesRead += 30; // a move, or the SDK's own ping
      net.step(now);
    });
    assert.equal(talker.terminated, false);
    assert.equal(talker.pings, Math.floor(60_000 / LIVENESS.roundTripMs));
  });

  it('cuts a socket gone silent 8–9 s after its last byte, wherever that byte fell between two looks', () => {
    for (const offset of [1, TICK_MS / 2, TICK_MS - 1]) {
      const gone = socket();
      const r = room(gone);
      r.run(10_000, network(gone).step);
      const lastByte = r.now + offset; // it arrives between two looks, then nothing
      let cutAt = NaN;
      r.run(20_000, (now) => {
        if (now >= lastByte && now - TICK_MS < lastByte) gone._socket!.bytesRead += 30;
        if (gone.terminated && Number.isNaN(cutAt)) cutAt = now - TICK_MS;
      });
      assert.equal(gone.terminated, true);
      const after = cutAt - lastByte;
      assert.ok(after >= LIVENESS.quietCutMs - TICK_MS && after <= 9000, `cut ${after} ms after the last byte`);
    }
  });

  it('keeps a client whose own process stalls for 4 s, however its pings fall (the old check cut at 3 s)', () => {
    for (let start = 0; start < 5; start++) {
      const slow = socket();
      const r = room(slow);
      const net = network(slow);
      r.run(10_000 + start * TICK_MS, net.step);
      net.rttMs = 4000; // its pongs come 4 s after their pings
      r.run(8000, net.step);
      net.rttMs = 50;
      r.run(20_000, net.step);
      assert.equal(slow.terminated, false, `a stall starting ${start} s in`);
      assert.ok(slow.pings >= 5);
    }
  });

  it("does not count the server's own stall: pongs unread after a 20 s stall cut nobody, and a dead socket is still cut after it", () => {
    const [gone, ...alive] = [socket(), socket(), socket()];
    const r = room(gone, ...alive);
    const nets = [gone, ...alive].map((s) => network(s));
    r.run(7000, (now) => nets.forEach((n) => n.step(now)));
    // The loop blocks 20 s; what came meanwhile is not read before the first look.
    r.stall(20_000);
    assert.deepEqual(
      [gone, ...alive].map((s) => s.terminated),
      [false, false, false],
    );
    let ms = 0;
    r.run(10_000, (now) => {
      if (!gone.terminated) ms += TICK_MS;
      nets.slice(1).forEach((n) => n.step(now));
    });
    assert.equal(gone.terminated, true);
    assert.ok(ms <= LIVENESS.quietCutMs, `cut ${ms} ms after the stall`);
    assert.deepEqual(
      alive.map((s) => s.terminated),
      [false, false],
    );
  });

  it('cuts a client that writes but never reads (no pong) within roundTripMs + pongCutMs + one look', () => {
    const deaf = socket();
    const r = room(deaf);
    let ms = 0;
    r.run(60_000, () => {
      if (deaf.terminated) return;
      deaf._socket!.bytesRead += 30;
      ms += TICK_MS;
    });
    assert.equal(deaf.terminated, true);
    assert.ok(ms <= LIVENESS.roundTripMs + LIVENESS.pongCutMs + TICK_MS, `cut after ${ms} ms`);
  });

  it('a socket without TCP figures is heard by its pongs and cut when they stop; a closing one is left alone', () => {
    const bare = Object.assign(socket(), { _socket: undefined });
    const closing = Object.assign(socket(), { readyState: 2 });
    const r = room(bare, closing);
    let answers = true;
    r.run(30_000, () => {
      if (answers) bare.pingCount = 0;
    });
    assert.equal(bare.terminated, false);
    assert.ok(bare.pings >= 5);
    answers = false;
    r.run(LIVENESS.quietCutMs + 2 * TICK_MS);
    assert.equal(bare.terminated, true);
    assert.equal(closing.pings, 0);
  });
});

describe('transport: the dead-socket check on real sockets (real time, about 12 s)', function () {
  this.timeout(30000);
  const ts = useTestServer();
  const clients: Tracked[] = [];
  after(async () => {
    for (const c of clients) await c.leave().catch(() => undefined);
  });

  /** The colyseus.js client's own ws socket: it answers pings by itself. */
  const wsOf = (t: Tracked) => (t.room.connection.transport as unknown as { ws: WebSocket }).ws;
  /** The TCP socket under it: pausing it stops reading, as a stalled process or a lost network does. */
  const tcpOf = (t: Tracked) => (wsOf(t) as unknown as { _socket: { pause(): void; resume(): void } })._socket;

  it('pings the silent client, not the one that talks; keeps one that stalls for 3.5 s; cuts the one that stops', async () => {
    const talker = await create(ts, { nickname: 'talker' }, 'talker');
    const quiet = await joinById(ts, talker.room.roomId, { nickname: 'quiet' }, 'quiet');
    const stalled = await joinById(ts, talker.room.roomId, { nickname: 'stalled' }, 'stalled');
    const gone = await joinById(ts, talker.room.roomId, { nickname: 'gone' }, 'gone');
    clients.push(talker, quiet, stalled, gone);
    const pings = new Map<Tracked, number>([
      [talker, 0],
      [quiet, 0],
    ]);
    for (const t of pings.keys()) wsOf(t).on('ping', () => pings.set(t, pings.get(t)! + 1));
    const started = Date.now();
    tcpOf(gone).pause();
    tcpOf(stalled).pause();
    const resume = setTimeout(() => tcpOf(stalled).resume(), 3500);
    const talking = setInterval(() => talker.room.send('ping', {}), 1000);
    try {
      await talker.until(() => talker.state.players.get(gone.id)?.connected === false, 'the silent socket cut', 12_000);
    } finally {
      clearInterval(talking);
      clearTimeout(resume);
    }
    const cutAfter = Date.now() - started;
    assert.ok(cutAfter <= 9000 + TICK_MS, `cut ${cutAfter} ms after its last byte`);
    assert.ok(pings.get(talker)! <= 1, 'a client that sends something every second is pinged at most every roundTripMs');
    assert.ok(pings.get(quiet)! >= 1, 'the silent live client is pinged');
    assert.equal(quiet.leftWith, null, 'and kept');
    assert.equal(stalled.leftWith, null, 'the client that stalled is kept');
    assert.notEqual(talker.state.players.get(stalled.id)?.connected, false);
  });
});
