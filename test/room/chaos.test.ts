import assert from 'node:assert/strict';
import { activePlayer, DECK_SIZE, fullResult, legalActions, randInt, randomLegalAction, replayGame, seedRng } from '../../server/rules';
import { CockroachState } from '../../server/schema/CockroachState';
import { fakeClock } from '../support/fakeClock';
import { Tracked, useTestServer } from '../support/server';
import { openTable, startTable, syncAndCheck } from '../support/table';

/**
 * Games where players drop and come back at random moments (right after a peek included), some
 * for longer than the grace. Every live client is checked against its rules view after every
 * step; at the end the cards are all there, the result is the rules' result and the log replays.
 */
describe('room: chaos — random drops and reconnects during play', function () {
  this.timeout(60000);
  const ts = useTestServer({ reconnectGraceSeconds: 90 });

  for (const count of [3, 4, 6]) {
    it(`finishes a ${count}-player game with players dropping and returning, leaking nothing`, async () => {
      const table = await openTable(ts, count);
      const clock = fakeClock(table.room);
      await startTable(table);
      const { room, spectator } = table;
      const game = room.table.match!.game;
      const rng = seedRng(`chaos-${count}`);
      const dropped = new Map<string, string>(); // player id → reconnection token
      const live = () => table.players.filter((p) => !dropped.has(p.id));
      const serverPlayer = (id: string) => room.state.players.get(id)!;
      let drops = 0;
      let returns = 0;
      let dropsAfterPeek = 0;

      const drop = async (p: Tracked) => {
        dropped.set(p.id, p.room.reconnectionToken);
        p.room.connection.close();
        await spectator.until(() => !serverPlayer(p.id).connected, 'drop noticed');
        drops++;
      };

      for (let guard = 0; game.phase === 'playing'; guard++) {
        assert.ok(guard < 3000, 'the game must end');
        const lastWasPeek = room.table.match!.record.log.at(-1)?.action.type === 'peek';
        const active = activePlayer(game)!;
        if (lastWasPeek && !dropped.has(active) && randInt(rng, 2) === 0) {
          await drop(table.byId(active));
          dropsAfterPeek++;
        } else if (randInt(rng, 8) === 0 && live().length > 1) {
          await drop(live()[randInt(rng, live().length)]);
        }
        const back = [...dropped].filter(([id]) => !serverPlayer(id).away);
        if (back.length && randInt(rng, 3) === 0) {
          const [id, token] = back[randInt(rng, back.length)];
          const returned = new Tracked(await ts.client().reconnect<CockroachState>(token, CockroachState), `back-${id}`);
          table.players[table.players.findIndex((p) => p.id === id)] = returned;
          dropped.delete(id);
          await spectator.until(() => serverPlayer(id).connected, 'return noticed');
          returns++;
        }

        const step = game.step;
        const actor = activePlayer(game)!;
        if (dropped.has(actor)) {
          clock.advance(game.options.turnSeconds * 1000); // their time runs out (and grace runs down)
        } else {
          // Chances to peek are taken until a drop has followed a peek, so every game has one (the
          // deal is the server's and differs from run to run); the other moves are random.
          const peek = dropsAfterPeek === 0 ? legalActions(game, actor).find((a) => a.type === 'peek') : undefined;
          const { type, ...payload } = peek ?? randomLegalAction(game, actor, rng)!;
          table.byId(actor).room.send(type, { ...payload, step });
        }
        await spectator.until(() => game.step > step, 'the step to be played');
        await syncAndCheck(table, [...live(), spectator]);
      }

      const ids = Object.values(game.hands).flat().concat(Object.values(game.fronts).flat(), game.removed);
      assert.deepEqual(
        [...ids].sort((a, b) => a - b),
        Array.from({ length: DECK_SIZE }, (_, i) => i),
        '64 cards accounted for',
      );
      const expected = fullResult(game, room.table.match!.record.log, room.table.nicknames(), room.table.gameId);
      for (const c of [...live(), spectator]) {
        await c.until(() => c.messagesOf('result').length === 1, 'result');
        assert.deepEqual(c.messagesOf('result'), [expected]);
      }
      assert.equal(JSON.stringify(replayGame(room.table.match!.record)), JSON.stringify(game), 'the log replays exactly');
      assert.ok(
        drops > 2 && returns > 0 && dropsAfterPeek > 0,
        `chaos happened (${drops} drops, ${returns} returns, ${dropsAfterPeek} after a peek)`,
      );
    });
  }
});
