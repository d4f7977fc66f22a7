import assert from 'node:assert/strict';
import { CockroachClient } from '../../client-sdk/index';
import { roomIdFrom } from '../../client-sdk/roomCode';
import { useTestServer } from '../support/server';
import { fakeMatchmaker, refusal } from './fakeMatchmaker';
import { leaveAfterEach, rejects } from './support';

describe('SDK: room codes as a child types them (issue 22)', function () {
  this.timeout(20000);

  it('reads a 6-digit code with spaces or dashes; what can never be a room is null', () => {
    for (const typed of ['123456', '123 456', '123-456', ' 123 456 ', '12 34 56', '1-2-3-4-5-6', '\t123456\n'])
      assert.equal(roomIdFrom(typed), '123456', JSON.stringify(typed));
    for (const typed of ['', '   ', '12 34', '123 45 ', '1234 567', '１２３４５６', '12/3456', 'a b'])
      assert.equal(roomIdFrom(typed), null, JSON.stringify(typed));
    assert.equal(roomIdFrom('CIKmuO1n7'), 'CIKmuO1n7', 'an id as the server gave it is asked for as it is');
  });

  it('asks the server for the code itself, and answers ROOM_NOT_FOUND without asking for what is no code', async () => {
    const fake = await fakeMatchmaker(() => refusal(200, 'ROOM_FULL'));
    try {
      const client = new CockroachClient(`ws://127.0.0.1:${fake.port}`, { guest: false });
      for (const typed of ['123 456', '123-456', ' 123456 ']) await rejects(client.join(typed, '민수'), 'ROOM_FULL');
      await rejects(client.spectate('654-321'), 'ROOM_FULL');
      assert.deepEqual(
        fake.seen.map((r) => r.path),
        ['/matchmake/joinById/123456', '/matchmake/joinById/123456', '/matchmake/joinById/123456', '/matchmake/joinById/654321'],
      );
      for (const typed of ['', '12 34', '   ']) await rejects(client.join(typed, '민수'), 'ROOM_NOT_FOUND');
      assert.equal(fake.seen.length, 4, 'nothing asked for those');
      // A route that refuses the id as malformed: for the person it is no such room.
      fake.answer = () => refusal(404, 'BAD_REQUEST');
      await rejects(client.join('999999', '민수'), 'ROOM_NOT_FOUND');
    } finally {
      await fake.close();
    }
  });

  describe('against the server', () => {
    const ts = useTestServer();
    leaveAfterEach();

    it('joins by a code typed "123 456" or "123-456"; an empty or spaced code is ROOM_NOT_FOUND, not BAD_REQUEST or "no network"', async () => {
      const client = new CockroachClient(ts.endpoint, { guest: false });
      for (const typed of ['', ' ', '12 34', '000-000']) await rejects(client.join(typed, '민수'), 'ROOM_NOT_FOUND');
      const host = await client.create('민수');
      const code = host.snapshot.code;
      assert.match(code, /^[0-9]{6}$/);
      assert.equal(code, host.roomId, 'the code to show and share is the room id');
      // As a child types it: grouped with a space, with a dash, spaces around.
      for (const typed of [` ${code.slice(0, 3)} ${code.slice(3)} `, `${code.slice(0, 3)}-${code.slice(3)}`]) {
        const friend = await new CockroachClient(ts.endpoint, { guest: false }).join(typed, '지우');
        assert.equal(friend.snapshot.code, code);
        assert.ok(friend.snapshot.seats.some((s) => s.isMe));
        await friend.leave();
      }
      const watcher = await new CockroachClient(ts.endpoint, { guest: false }).spectate(`${code.slice(0, 3)} ${code.slice(3)}`);
      assert.equal(watcher.me, null);
    });
  });
});
