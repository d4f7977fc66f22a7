/**
 * `myTurn` as a program that moves on it alone meets it: announced for every move of mine that
 * becomes possible (the pass after my own peek included), after the promise of the move that led
 * to it has settled.
 */
import assert from 'node:assert/strict';
import { CockroachClient } from '../../client-sdk/index';
import { useTestServer } from '../support/server';
import { leaveAfterEach } from './support';

describe('SDK myTurn', function () {
  // A stalled program waits for the 60 s clock: it fails by this timeout first.
  this.timeout(45000);
  const ts = useTestServer({ botThinkMs: 5 });
  leaveAfterEach();

  it('announces myTurn after my own peek, once the move that led to it has settled: a program that moves one at a time on myTurn alone finishes a game, peeking whenever it can, with no move played by the clock', async () => {
    const host = await new CockroachClient(ts.endpoint).create('앱', { turnSeconds: 60 });
    await host.addBot('easy');
    await host.addBot('smart');
    let busy = false;
    let missed = 0;
    let peeks = 0;
    const clock: unknown[] = [];
    const errors: unknown[] = [];
    host.on('movePlayedForMe', (m) => clock.push(m));
    host.on('myTurn', async ({ canDo }) => {
      // An app that ignores its turn while its last move is pending (a spinner on the table).
      if (busy) return void missed++;
      busy = true;
      const s = host.snapshot;
      try {
        if (canDo.includes('offer')) await host.offer(s.myHand[0].cardIds[0], host.offerTargets()[0].id, 'rat', s.step);
        else if (canDo.includes('pass')) await host.pass(host.passOptions().find((o) => o.allowed)!.id, 'bat', s.step);
        else if (canDo.includes('peek')) {
          peeks++;
          await host.peek(s.step);
        } else await host.call(true, s.step);
      } catch (error) {
        errors.push(error);
      } finally {
        busy = false;
      }
    });
    // A game where no bot ever hands me a card I may peek at is rare but possible: play on (한 판 더) until one has.
    for (let game = 0; game < 5 && peeks === 0; game++) {
      if (game > 0) await host.rematch();
      const over = new Promise((resolve) => host.once('gameOver', resolve));
      await host.start();
      await over;
    }
    assert.deepEqual(errors, []);
    assert.deepEqual(clock, [], 'the clock never played for the program');
    assert.equal(missed, 0, 'no turn came while the last move was pending');
    assert.ok(peeks > 0, 'it peeked, and was told of the pass that follows');
  });
});
