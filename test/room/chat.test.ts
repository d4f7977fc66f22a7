import assert from 'node:assert/strict';
import { useTestServer } from '../support/server';
import { openTable, startTable } from '../support/table';

describe('room: quick chat', function () {
  this.timeout(20000);
  const ts = useTestServer();

  it('sends a phrase key from a seated player to everyone, spectators included', async () => {
    const table = await openTable(ts, 3);
    await startTable(table);
    const [p0] = table.players;
    const everyone = [...table.players, table.spectator];
    const received = everyone.map((c) => c.nextMessage('chat'));
    p0.room.send('chat', { phrase: 'doubt' });
    for (const message of await Promise.all(received)) assert.deepEqual(message, { from: p0.id, phrase: 'doubt' });
  });

  it('works in the lobby too, and refuses spectators', async () => {
    const table = await openTable(ts, 2);
    const heard = table.players[1].nextMessage('chat');
    table.players[0].room.send('chat', { phrase: 'hurry' });
    assert.equal((await heard).phrase, 'hurry');
    const reply = table.spectator.nextMessage('error');
    table.spectator.room.send('chat', { phrase: 'nice' });
    assert.deepEqual(await reply, { code: 'SPECTATOR', message: (await reply).message, action: 'chat' });
  });

  it('refuses chat when quickChat is off', async () => {
    const table = await openTable(ts, 2, { quickChat: false });
    const reply = table.players[1].nextMessage('error');
    table.players[1].room.send('chat', { phrase: 'really' });
    assert.equal((await reply).code, 'CHAT_OFF');
    assert.deepEqual(table.players[0].messagesOf('chat'), []);
  });

  it('lets a burst of five through, then answers RATE_LIMITED', async () => {
    const table = await openTable(ts, 2);
    const [talker, listener] = table.players;
    const limited = talker.nextMessage('error');
    for (let i = 0; i < 8; i++) talker.room.send('chat', { phrase: 'thanks' });
    assert.equal((await limited).code, 'RATE_LIMITED');
    await talker.until(() => talker.messagesOf('error').length === 3 && talker.messagesOf('chat').length === 5, 'all answers');
    await listener.until(() => listener.messagesOf('chat').length === 5, 'five chats');
  });
});
