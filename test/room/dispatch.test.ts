import assert from 'node:assert/strict';
import type { Client } from 'colyseus';
import { create, useTestServer } from '../support/server';

type Handler = (client: Client, type: unknown, message: unknown) => void;

describe('room: one message handler for every type', function () {
  this.timeout(20000);
  const ts = useTestServer();

  it('finds each command by its type, and answers a type it does not know (an object’s own names too) with UNKNOWN_MESSAGE', async () => {
    const host = await create(ts, { nickname: '민수' }, 'host');
    const room = ts.serverRoom(host.room.roomId) as unknown as { onMessageHandlers: Record<string, Handler>; clients: Client[] };
    assert.deepEqual(Object.keys(room.onMessageHandlers), ['*'], 'one handler, not one closure per type and room');
    const dispatch = room.onMessageHandlers['*'];
    const client = room.clients[0];
    // What the transport guard would have closed on: the room's own answer, if it is ever bypassed.
    for (const type of ['dance', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 7]) {
      const answer = host.nextMessage('error');
      dispatch(client, type, {});
      assert.equal((await answer).code, 'UNKNOWN_MESSAGE', String(type));
    }
    const pong = host.nextMessage('pong');
    dispatch(client, 'ping', { t: 42 });
    assert.deepEqual(await pong, { t: 42 });
    const refused = host.nextMessage('error');
    dispatch(client, 'offer', { cardId: 1, to: 'x', claim: 'rat' });
    assert.notEqual((await refused).code, 'UNKNOWN_MESSAGE', 'a known type reaches its command');
    await host.leave();
  });
});
