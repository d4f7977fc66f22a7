import assert from 'node:assert/strict';
import { activePlayer, seedRng } from '../../server/rules';
import { chooseMove } from '../../loadtest/clientBot';
import { useTestServer } from '../support/server';
import { assertNoErrors, BOT_TABLES, openTable, startTable } from '../support/table';

describe('loadtest client bot: legal moves from a decoded view alone', function () {
  this.timeout(30000);
  const ts = useTestServer();

  for (const [count, options] of BOT_TABLES) {
    it(`plays a ${count}-player game to the end without one refusal`, async () => {
      const table = await openTable(ts, count, options);
      await startTable(table);
      const game = table.room.table.match!.game;
      const rng = seedRng(`client-bot-${count}`);
      while (game.phase === 'playing') {
        const actor = table.byId(activePlayer(game)!);
        await actor.until(() => actor.state.step === game.step, 'the actor to be up to date');
        const move = chooseMove(actor.state, actor.id, rng);
        assert.ok(move, 'the bot sees it is its turn');
        const step = game.step;
        actor.room.send(move.type, move.payload);
        await actor.until(() => game.step > step || actor.messagesOf('error').length > 0, 'applied');
        assertNoErrors(table);
      }
    });
  }
});
