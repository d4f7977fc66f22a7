import assert from 'node:assert/strict';
import type { Client } from 'colyseus';
import { CockroachState } from '../../server/schema/CockroachState';
import { HEARTBEAT_MISSES } from '../../server/room/constants';
import { heartbeat as heartbeatWith } from '../../server/colyseus/transport/heartbeat';
const heartbeat = (clients: Iterable<Client>) => heartbeatWith(clients, HEARTBEAT_MISSES);
import { useTestServer } from '../support/server';
import { openTable } from '../support/table';

/** A socket as the transport leaves it on a client: `pingCount` is reset by its pong handler. */
function fakeSocket(readyState = 1) {
  const socket = {
    readyState,
    pingCount: 0,
    pings: 0,
    terminated: false,
    ping: () => socket.pings++,
    terminate: () => (socket.terminated = true),
  };
  return socket;
}
const clientsOf = (...sockets: ReturnType<typeof fakeSocket>[]) => sockets.map((ref) => ({ ref }) as unknown as Client);

describe('room: one tick, patches sent at once, heartbeat per room', function () {
  this.timeout(20000);
  const ts = useTestServer();

  it('has no patch interval; lobby changes reach the others at once; the clock still advances', async () => {
    const table = await openTable(ts, 2);
    const room = table.room as unknown as { patchRate: number | null; clock: { currentTime: number } };
    assert.equal(room.patchRate, null);
    const host = table.players[0];
    const t0 = Date.now();
    const guest = await ts.client().joinById(host.room.roomId, { nickname: 'late' }, CockroachState);
    await host.until(() => host.state.players.size === 3, 'the third player', 500);
    assert.ok(Date.now() - t0 < 500);
    await guest.leave();
    await host.until(() => host.state.players.size === 2, 'the seat freed', 500);
    // The next tick, whenever it comes (no sleep): the room clock advanced with no patch sent.
    const before = room.clock.currentTime;
    await new Promise<void>((resolve) => {
      const own = table.room.table.tick.bind(table.room.table);
      table.room.table.tick = () => {
        table.room.table.tick = own;
        own();
        resolve();
      };
    });
    assert.ok(room.clock.currentTime > before, 'the room clock ticked with no patch');
  });

  it('pings each open socket, and cuts one that missed HEARTBEAT_MISSES pongs', () => {
    const alive = fakeSocket();
    const dead = fakeSocket();
    const closing = fakeSocket(2);
    for (let i = 0; i < HEARTBEAT_MISSES; i++) {
      heartbeat(clientsOf(alive, dead, closing));
      alive.pingCount = 0; // its pong came back
    }
    assert.deepEqual({ pings: alive.pings, terminated: alive.terminated }, { pings: HEARTBEAT_MISSES, terminated: false });
    assert.deepEqual({ pings: dead.pings, terminated: dead.terminated }, { pings: HEARTBEAT_MISSES, terminated: false });
    heartbeat(clientsOf(alive, dead, closing));
    assert.equal(alive.terminated, false);
    assert.equal(dead.terminated, true);
    assert.equal(closing.pings, 0, 'a socket that is not open is left alone');
  });
});
