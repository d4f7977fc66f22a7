import assert from 'node:assert/strict';
import { activePlayer, fullResult, randomLegalAction, seedRng } from '../../server/rules';
import { useTestServer } from '../support/server';
import { assertNoErrors, openTable, startTable, syncAndCheck } from '../support/table';

const MIX: Record<number, Record<string, unknown>> = {
  2: { twoPlayerPass: true, eightKindsRule: true },
  3: { loseCount: 3 },
  4: {},
  5: { claimHistory: false, eightKindsRule: true },
  6: { turnSeconds: 60 },
};

describe('room: full games over real sockets, every patch checked against the rules view', function () {
  this.timeout(60000);
  const ts = useTestServer();

  for (const count of [2, 3, 4, 5, 6]) {
    it(`plays a ${count}-player game with a spectator to its result, leaking nothing`, async () => {
      const table = await openTable(ts, count, MIX[count]);
      await startTable(table);
      const game = table.room.table.match!.game;
      const bot = seedRng(`bots-${count}`);
      while (game.phase === 'playing') {
        const actor = table.byId(activePlayer(game)!);
        const action = randomLegalAction(game, actor.id, bot)!;
        const { type, ...payload } = action;
        actor.room.send(type, payload);
        const before = game.step;
        await actor.until(() => table.room.table.match!.game.step > before, `${type} applied`);
        await syncAndCheck(table);
      }
      assertNoErrors(table);

      const expected = fullResult(game, table.room.table.match!.record.log, table.room.table.nicknames(), table.room.table.gameId);
      for (const c of [...table.players, table.spectator]) {
        await c.until(() => c.messagesOf('result').length === 1, 'result');
        assert.deepEqual(c.messagesOf('result'), [expected], `${c.label}: one result, the rules' result`);
      }
      assert.equal(table.spectator.state.loser, game.loser);
      if (count === 2) assert.equal(table.spectator.state.removed.length, 10);
      for (const c of [...table.players, table.spectator]) await c.leave();
    });
  }
});
