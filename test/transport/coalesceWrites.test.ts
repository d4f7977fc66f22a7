/**
 * Frames sent to one client in the same tick leave in one socket write (issue 25): counted on the
 * server side of the client's real TCP socket, and decoded in order by a real colyseus.js client.
 */
import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { coalesceSocketWrites } from '../../server/colyseus/transport/coalesceWrites';
import { create, Tracked, useTestServer } from '../support/server';

/** Counts the server socket's write calls (one per system call: `_write` for one buffer, `_writev` for several). */
function countWrites(socket: Socket): { calls: number; chunks: number } {
  const counts = { calls: 0, chunks: 0 };
  const s = socket as unknown as { _write: (...a: unknown[]) => void; _writev: (chunks: unknown[], cb: unknown) => void };
  const write = s._write.bind(socket);
  const writev = s._writev.bind(socket);
  s._write = (...a) => (counts.calls++, counts.chunks++, write(...a));
  s._writev = (chunks, cb) => (counts.calls++, (counts.chunks += chunks.length), writev(chunks, cb));
  return counts;
}

describe('transport: one socket write per client per tick (issue 25)', function () {
  this.timeout(20000);
  const ts = useTestServer();
  let host: Tracked;
  after(async () => host?.leave());

  it('is installed on the transport’s ws copy, once', () => {
    const proto = coalesceSocketWrites();
    assert.equal(proto.sendFrame.name, 'sendFrame');
    assert.equal(coalesceSocketWrites().sendFrame, proto.sendFrame, 'idempotent');
  });

  it('sends three messages of one tick in one write of one buffer, in order; messages of separate ticks in separate writes', async () => {
    host = await create(ts, { nickname: 'host' }, 'host');
    await host.until(() => host.changes.length > 0, 'the first state');
    await new Promise((resolve) => setImmediate(resolve)); // whatever the join sent has left
    const room = ts.serverRoom(host.room.roomId);
    const client = room.clients[0];
    const socket = (client as unknown as { ref: { _socket: Socket } }).ref._socket;
    const counts = countWrites(socket);
    for (const n of [1, 2, 3]) client.send('pong', { t: n });
    assert.equal(counts.calls, 0, 'held until the tick ends');
    await host.until(() => host.messagesOf('pong').length === 3, 'three pongs');
    assert.deepEqual(counts, { calls: 1, chunks: 1 }, 'three frames (header and payload each) joined in one buffer, one write');
    assert.deepEqual(
      host.messagesOf('pong').map((m) => m.t),
      [1, 2, 3],
    );
    client.send('pong', { t: 4 });
    await new Promise((resolve) => setImmediate(resolve));
    client.send('pong', { t: 5 });
    await host.until(() => host.messagesOf('pong').length === 5, 'two more pongs');
    assert.equal(counts.calls, 3, 'one write per tick');
  });

  it('calls every frame’s callback once the joined write is done', async () => {
    const room = ts.serverRoom(host.room.roomId);
    const ws = (room.clients[0] as unknown as { ref: { _socket: Socket; ping(cb: (e?: Error) => void): void } }).ref;
    const counts = countWrites(ws._socket);
    const done: (Error | undefined | null)[] = [];
    ws.ping((e) => done.push(e));
    room.clients[0].send('pong', { t: 6 });
    ws.ping((e) => done.push(e));
    assert.equal(done.length, 0, 'nothing written yet');
    await host.until(() => done.length === 2, 'both callbacks');
    assert.ok(
      done.every((e) => e === null || e === undefined),
      'no error',
    );
    assert.deepEqual(counts, { calls: 1, chunks: 1 });
  });
});
