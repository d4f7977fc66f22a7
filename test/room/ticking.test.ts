import assert from 'node:assert/strict';
import { CockroachState } from '../../server/schema/CockroachState';
import { useTestServer } from '../support/server';
import { openTable } from '../support/table';

describe('room: one tick, patches sent at once', function () {
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
});
