import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import type { Socket } from 'node:net';
import WebSocket from 'ws';
import { Client, Room } from 'colyseus.js';
import { pack } from 'msgpackr';
import { startServerProcess, ServerProcess } from '../../loadtest/lib/serverProcess';
import { ROOM_NAME } from '../../server/protocol';
import { FLOOD_DISCONNECT_AFTER, PING_BURST } from '../../server/room/constants';
import { post } from './support';

/**
 * Issue 20 "pings priced like everything else", against `npm start`'s server in a child process at
 * the default settings: a flood of malformed pings, of valid pings, and of pings from a socket that
 * never reads. Each flood is written to the socket in one piece, so the test process is idle while
 * the server works through it, and a bystander's round trip is measured meanwhile.
 */

/** A client frame as colyseus.js sends it: ROOM_DATA, the type as a msgpack string, the payload. */
function roomData(type: string, payload: unknown): Buffer {
  return Buffer.concat([Buffer.from([13, 0xa0 | type.length]), Buffer.from(type, 'latin1'), pack(payload)]);
}

/** A masked binary WebSocket frame (mask key 0: the payload is sent as is). */
function wsFrame(payload: Buffer): Buffer {
  assert.ok(payload.length < 126);
  return Buffer.concat([Buffer.from([0x82, 0x80 | payload.length, 0, 0, 0, 0]), payload]);
}

interface Seat {
  ws: WebSocket;
  socket: Socket;
  closed: Promise<number>;
  /** Messages the server sent, decoded: [type, payload] for room messages. */
  received: unknown[][];
}

/** A seat in `roomId` over a raw `ws` socket: the reservation by HTTP, the join acknowledged. */
async function rawSeat(port: number, roomId: string, nickname: string): Promise<Seat> {
  const reply = await post(port, `/matchmake/joinById/${roomId}`, { nickname });
  const { sessionId, room } = reply.json;
  assert.ok(sessionId, JSON.stringify(reply.json));
  const ws = new WebSocket(`ws://127.0.0.1:${port}/${room.processId}/${roomId}?sessionId=${sessionId}`);
  const received: unknown[][] = [];
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    ws.once('error', reject);
    ws.on('message', (data: Buffer) => {
      if (data[0] === 10) {
        ws.send(Buffer.from([10])); // the join acknowledged, as colyseus.js does
        resolve();
      } else if (data[0] === 13) {
        received.push([data.subarray(2, 2 + (data[1] & 0x1f)).toString('latin1')]);
      }
    });
  });
  return { ws, socket: (ws as unknown as { _socket: Socket })._socket, closed, received };
}

interface Bystander {
  host: Room;
  guest: Room;
  /** Round trips (ms) of a refused `peek` in the lobby, one every 150 ms until stopped. */
  measure(): { stop(): Promise<number[]> };
}

async function bystander(endpoint: string): Promise<Bystander> {
  const host = await new Client(endpoint).create(ROOM_NAME, { nickname: '구경A' });
  const guest = await new Client(endpoint).joinById(host.roomId, { nickname: '구경B' });
  for (const r of [host, guest]) r.onMessage('*', () => undefined);
  return {
    host,
    guest,
    measure() {
      const trips: number[] = [];
      let running = true;
      const loop = (async () => {
        while (running) {
          const sent = performance.now();
          const answered = new Promise<void>((resolve) => host.onMessage('error', () => resolve()));
          host.send('peek', {});
          await answered;
          trips.push(performance.now() - sent);
          await new Promise((r) => setTimeout(r, 150));
        }
      })();
      return {
        stop: async () => {
          running = false;
          await loop;
          return trips;
        },
      };
    },
  };
}

describe('http: pings are priced like every other message', function () {
  this.timeout(120_000);
  let server: ServerProcess;
  let side: Bystander;

  before(async () => {
    server = await startServerProcess({ RATE_LIMITS: 'off', LOG_LEVEL: 'warn' });
    side = await bystander(server.endpoint);
  });
  after(async () => {
    await Promise.all([side?.host.leave(), side?.guest.leave()]);
    await server?.stop();
  });

  /** Server CPU milliseconds (user + system) spent over `ms` of wall time. */
  async function cpuOver(ms: number): Promise<number> {
    const before = server.cpuSeconds();
    await new Promise((r) => setTimeout(r, ms));
    return (server.cpuSeconds() - before) * 1000;
  }

  /**
   * Writes `count` copies of `frame` from one seated socket in one piece and waits for the server
   * to close it. Figures: the close code, the server's CPU for the flood beyond an idle baseline
   * of the same length (a stall can last no longer than the work done: this is what the machine's
   * load cannot blur), and the bystander's round trips meanwhile.
   */
  async function flood(frame: Buffer, count: number, opts: { neverRead?: boolean } = {}) {
    const host = await new Client(server.endpoint).create(ROOM_NAME, { nickname: '방장' });
    host.onMessage('*', () => undefined);
    const seat = await rawSeat(server.port, host.roomId, '홍수');
    if (opts.neverRead) seat.socket.pause();
    // Built before anything is measured: the bystander's clock runs in this process too.
    const bytes = Buffer.concat(Array.from({ length: count }, () => frame));
    const measuring = side.measure();
    const started = performance.now();
    const cpuBefore = server.cpuSeconds();
    seat.socket.write(bytes);
    const code = await Promise.race([seat.closed, new Promise<number>((r) => setTimeout(() => r(-1), 20_000))]);
    const wallMs = performance.now() - started;
    const cpuMs = (server.cpuSeconds() - cpuBefore) * 1000;
    const idleCpuMs = await cpuOver(wallMs);
    if (opts.neverRead) seat.socket.resume();
    const trips = await measuring.stop();
    seat.ws.terminate();
    await host.leave();
    const figures = `server CPU ${cpuMs.toFixed(0)} ms for the flood vs ${idleCpuMs.toFixed(0)} ms idle over ${wallMs.toFixed(0)} ms; bystander round trips ${trips.map((t) => t.toFixed(1)).join(', ')} ms`;
    console.log(`      ${figures}`);
    return { code, trips, received: seat.received, floodCpuMs: cpuMs - idleCpuMs, figures };
  }

  function assertBystanderUnharmed(result: { trips: number[]; floodCpuMs: number; figures: string }) {
    assert.ok(result.floodCpuMs < 50, result.figures);
    const sorted = [...result.trips].sort((a, b) => a - b);
    assert.ok(sorted.length >= 3 && sorted[Math.floor(sorted.length / 2)] < 50, result.figures);
  }

  it('closes a flood of malformed pings; the first few are answered BAD_PAYLOAD, then RATE_LIMITED once', async () => {
    const result = await flood(wsFrame(roomData('ping', { t: 'x' })), 100_000);
    assert.equal(result.code, 4002, 'closed like any flood');
    assert.ok(
      result.received.length >= PING_BURST && result.received.length <= PING_BURST + 2,
      `${result.received.length} replies to 100,000 malformed pings`,
    );
    assertBystanderUnharmed(result);
    assert.ok(!server.crashed());
  });

  it('closes a flood of valid pings past the ping bucket', async () => {
    const result = await flood(wsFrame(roomData('ping', { t: 1 })), 100_000);
    assert.equal(result.code, 4002);
    assert.ok(result.received.length >= PING_BURST && result.received.length <= PING_BURST + 2, `${result.received.length} replies`);
    assertBystanderUnharmed(result);
  });

  it('closes a ping flood from a socket that never reads, without memory growing with the flood', async () => {
    const before = server.rssMB();
    const result = await flood(wsFrame(roomData('ping', { t: 1 })), 200_000, { neverRead: true });
    assert.equal(result.code, 4002);
    assert.ok(server.rssMB() - before < 40, `RSS ${before.toFixed(0)} → ${server.rssMB().toFixed(0)} MB`);
    assertBystanderUnharmed(result);
  });

  it('answers the SDK’s pings (one after 2 s of silence) without ever refusing one', async () => {
    const host = await new Client(server.endpoint).create(ROOM_NAME, { nickname: '핑' });
    const pongs: unknown[] = [];
    const errors: unknown[] = [];
    host.onMessage('pong', (m) => pongs.push(m));
    host.onMessage('error', (m) => errors.push(m));
    // Faster than the SDK's one ping per 2 s of silence, with the burst spent first: still no refusal.
    for (let i = 0; i < PING_BURST; i++) host.send('ping', { t: i });
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 1200)); // the client's pace, not a wait for the server
      host.send('ping', { t: 100 + i });
    }
    const deadline = Date.now() + 5000;
    while (pongs.length < PING_BURST + 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.equal(pongs.length, PING_BURST + 3);
    assert.deepEqual(errors, []);
    assert.ok(FLOOD_DISCONNECT_AFTER > PING_BURST);
    await host.leave();
  });
});
