import assert from 'node:assert/strict';
import { activePlayer, randomLegalAction, seedRng } from '../../server/rules';
import { DEFAULT_MESSAGE_BURST } from '../../server/room/constants';
import { fakeClock } from '../support/fakeClock';
import { useTestServer } from '../support/server';
import { openTable, startTable, syncAndCheck } from '../support/table';

/**
 * PROTOCOL v2 "Rate limits never refuse a legal move", at the default settings, with the room's
 * time frozen so that not one token comes back: every move below rides on nothing but the rule
 * that applied moves are free.
 */
describe('room: the rate limit never refuses a legal move', function () {
  this.timeout(60000);
  const ts = useTestServer();

  for (const count of [2, 6]) {
    it(`a script plays a whole ${count}-player game at full speed at the default settings, every bucket empty`, async () => {
      const table = await openTable(ts, count);
      fakeClock(table.room);
      await startTable(table);
      const game = table.room.table.match!.game;
      // Empty every player's bucket first (the host's `start` took one token): from here on, one
      // charged message would be refused.
      const spend = (i: number) => DEFAULT_MESSAGE_BURST - (i === 0 ? 1 : 0);
      table.players.forEach((p, i) => {
        for (let n = 0; n < spend(i); n++) p.room.send('chat', { phrase: 'nope' });
      });
      for (const [i, p] of table.players.entries()) await p.until(() => p.messagesOf('error').length === spend(i), 'the burst spent');
      const rng = seedRng(`full-speed-${count}`);
      while (game.phase === 'playing') {
        const id = activePlayer(game)!;
        const { type, ...payload } = randomLegalAction(game, id, rng)!;
        const step = game.step;
        table.byId(id).room.send(type, { ...payload, step });
        await table.players[0].until(() => game.step > step, `${type} applied`);
      }
      await syncAndCheck(table);
      for (const [i, p] of table.players.entries()) {
        assert.deepEqual(
          new Set(p.messagesOf('error').map((e) => e.code)),
          new Set(['BAD_PAYLOAD']),
          `${p.label}: only the burst was refused`,
        );
        assert.equal(p.messagesOf('error').length, spend(i));
      }
      assert.ok(game.step > DEFAULT_MESSAGE_BURST, 'more moves than a bucket holds');
    });
  }

  it('over the limit, a legal move still applies; anything else is answered RATE_LIMITED once', async () => {
    const table = await openTable(ts, 3);
    fakeClock(table.room);
    await startTable(table);
    const game = table.room.table.match!.game;
    const starter = table.byId(game.order[0]);
    // Spend the whole bucket on refused messages (a peek with no card in flight); the host's
    // `start` already took one token.
    const burst = DEFAULT_MESSAGE_BURST - (starter === table.players[0] ? 1 : 0);
    for (let i = 0; i < burst; i++) starter.room.send('peek', {});
    await starter.until(() => starter.messagesOf('error').length === burst, 'the burst answered');
    assert.deepEqual(new Set(starter.messagesOf('error').map((e) => e.code)), new Set(['MUST_OFFER']));
    // A refused move over the limit: RATE_LIMITED, not its rule code.
    starter.room.send('peek', {});
    const limited = await starter.nextMessage('error');
    assert.equal(limited.code, 'RATE_LIMITED');
    // The legal move goes through, over the limit.
    starter.room.send('offer', { cardId: game.hands[starter.id][0], to: game.order[1], claim: 'bat', step: 0 });
    await starter.until(() => game.step === 1, 'the offer applied');
    // Chat is charged like everything else.
    starter.room.send('chat', { phrase: 'nice' });
    await starter.until(() => starter.messagesOf('error').length === burst + 2, 'chat refused for rate');
    assert.equal(starter.messagesOf('error').at(-1).code, 'RATE_LIMITED', 'a new streak is answered once');
    assert.equal(starter.messagesOf('chat').length, 0);
    await syncAndCheck(table);
  });
});
