import assert from 'node:assert/strict';
import { activePlayer, seedRng } from '../../server/rules';
import type { EventsMessage } from '../../server/protocol';
import { chooseMoveFrom } from '../../loadtest/clientBot';
import { LeanSeat } from '../../loadtest/leanSeat';
import { useTestServer } from '../support/server';
import { assertNoErrors, BOT_TABLES, openTable, startTable } from '../support/table';

/** The facts a move depends on, as the lean seat keeps them or as a decoded state shows them. */
function factsOf(s: LeanSeat) {
  return { phase: s.phase, step: s.step, hasCard: s.hasCard, starter: s.starter, holder: s.holder, seen: s.seen, hand: [...s.hand].sort() };
}

describe('loadtest lean seat: a game followed from the events message alone after the deal', function () {
  this.timeout(30000);
  const ts = useTestServer();

  for (const [count, options] of BOT_TABLES) {
    it(`knows the same as a decoding client after every move of a ${count}-player game, and plays it without a refusal`, async () => {
      const table = await openTable(ts, count, options);
      await startTable(table);
      const game = table.room.table.match!.game;
      const lean = new Map(table.players.map((p) => [p.id, { seat: new LeanSeat(p.state, p.id), read: p.messages.length }]));
      const rng = seedRng(`lean-seat-${count}`);
      let moves = 0;
      while (game.phase === 'playing') {
        const actor = table.byId(activePlayer(game)!);
        const mine = lean.get(actor.id)!.seat;
        assert.equal(mine.actor(), actor.id, 'the lean seat knows it is on turn');
        const move = chooseMoveFrom(mine, actor.id, rng);
        assert.ok(move);
        if (move.type === 'offer') mine.offered(move.payload.cardId);
        actor.room.send(move.type, move.payload);
        moves++;
        const step = game.step + 1;
        for (const p of table.players) {
          await p.until(() => p.messagesOf('events').some((m: EventsMessage) => m.step === step), `events of step ${step}`);
          const l = lean.get(p.id)!;
          for (const m of p.messages.slice(l.read)) if (m.type === 'events') l.seat.apply(m.message);
          l.read = p.messages.length;
          // The decoding client is the reference: the lean seat must agree with its state.
          assert.deepEqual(factsOf(l.seat), factsOf(new LeanSeat(p.state, p.id)), `${p.label} after step ${step}`);
        }
        assertNoErrors(table);
      }
      assert.ok(moves > count, 'a whole game was played');
      for (const { seat } of lean.values()) assert.equal(seat.phase, 'ended');
    });
  }

  it('ignores the events of a change it already decoded, and marks a hand the clock played from', () => {
    const seat = Object.assign(Object.create(LeanSeat.prototype) as LeanSeat, {
      me: 'a',
      phase: 'playing',
      step: 5,
      hasCard: false,
      starter: 'a',
      holder: '',
      order: ['a', 'b', 'c'],
      seen: [],
      hand: [1, 2],
      twoPlayerPass: false,
      handUncertain: false,
    });
    assert.equal(seat.apply({ step: 5, events: [{ type: 'offered', from: 'a', to: 'b', claim: 'bat' }] }), false);
    assert.equal(seat.hasCard, false);
    assert.equal(
      seat.apply({
        step: 6,
        events: [
          { type: 'defaultMove', player: 'a', move: 'offer', reason: 'clock' },
          { type: 'offered', from: 'a', to: 'c', claim: 'rat' },
        ],
      }),
      true,
    );
    assert.deepEqual([seat.hasCard, seat.holder, seat.seen, seat.handUncertain, seat.actor()], [true, 'c', ['a'], true, 'c']);
  });
});
