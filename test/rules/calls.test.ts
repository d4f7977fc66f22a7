import assert from 'node:assert/strict';
import { Game, KINDS } from '../../server/rules';
import { assertAccounted, handCardNot, play, putInHand, seatedGame } from './helpers';

/** A four-player game (A, B, C, D; A starts) where A holds a rat `rat` and a non-rat `other`. */
function fourPlayers(): { game: Game; rat: number; other: number } {
  const game = seatedGame(4);
  const rat = putInHand(game, 'A', 'rat');
  return { game, rat, other: handCardNot(game, 'A', 'rat') };
}

function assertNewRound(game: Game, starter: string, no: number) {
  assert.equal(game.phase, 'playing');
  assert.deepEqual(
    { ...game.round },
    { no, starter, card: null, holder: null, lastPasser: null, claim: null, seen: [], claims: [], peeked: false },
  );
}

describe('rules: calls and where the card lands (5.2, 5.3)', () => {
  it('a correct "true" on a true claim puts the card in the passer\'s front, and the passer starts next', () => {
    const { game, rat } = fourPlayers();
    play(game, 'A', { type: 'offer', cardId: rat, to: 'B', claim: 'rat' });
    const events = play(game, 'B', { type: 'call', call: 'true' });
    assert.deepEqual(game.fronts.A, [rat]);
    assert.deepEqual(game.fronts.B, []);
    assert.deepEqual(game.lastReveal, { card: rat, kind: 'rat', claim: 'rat', call: 'true', caller: 'B', correct: true, takenBy: 'A' });
    assert.deepEqual(
      events.map((e) => e.type),
      ['revealed'],
    );
    assertNewRound(game, 'A', 2);
    assertAccounted(game);
  });

  it('a correct "false" on a false claim puts the card in the passer\'s front', () => {
    const { game, rat } = fourPlayers();
    play(game, 'A', { type: 'offer', cardId: rat, to: 'C', claim: 'bat' });
    play(game, 'C', { type: 'call', call: 'false' });
    assert.deepEqual(game.fronts.A, [rat]);
    assert.equal(game.lastReveal?.correct, true);
    assertNewRound(game, 'A', 2);
  });

  it('a wrong "false" on a true claim puts the card in the caller\'s front, and the caller starts next', () => {
    const { game, rat } = fourPlayers();
    play(game, 'A', { type: 'offer', cardId: rat, to: 'D', claim: 'rat' });
    play(game, 'D', { type: 'call', call: 'false' });
    assert.deepEqual(game.fronts.D, [rat]);
    assert.deepEqual(game.fronts.A, []);
    assert.deepEqual(game.lastReveal, { card: rat, kind: 'rat', claim: 'rat', call: 'false', caller: 'D', correct: false, takenBy: 'D' });
    assertNewRound(game, 'D', 2);
    assertAccounted(game);
  });

  it('a wrong "true" on a false claim puts the card in the caller\'s front', () => {
    const { game, other } = fourPlayers();
    play(game, 'A', { type: 'offer', cardId: other, to: 'B', claim: 'rat' });
    play(game, 'B', { type: 'call', call: 'true' });
    assert.deepEqual(game.fronts.B, [other]);
    assertNewRound(game, 'B', 2);
  });

  it('judges a call against the latest claim only, and a correct call lands on the last passer (not the starter)', () => {
    const { game, rat } = fourPlayers();
    play(game, 'A', { type: 'offer', cardId: rat, to: 'B', claim: 'bat' });
    play(game, 'B', { type: 'peek' });
    play(game, 'B', { type: 'pass', to: 'C', claim: 'rat' });
    play(game, 'C', { type: 'call', call: 'false' });
    assert.equal(game.lastReveal?.claim, 'rat');
    assert.equal(game.lastReveal?.correct, false, 'rat was the truth, "false" is wrong');
    assert.deepEqual(game.fronts.C, [rat]);

    const second = fourPlayers();
    play(second.game, 'A', { type: 'offer', cardId: second.rat, to: 'B', claim: 'rat' });
    play(second.game, 'B', { type: 'peek' });
    play(second.game, 'B', { type: 'pass', to: 'D', claim: 'toad' });
    play(second.game, 'D', { type: 'call', call: 'false' });
    assert.equal(second.game.lastReveal?.correct, true);
    assert.deepEqual(second.game.fronts.B, [second.rat], 'the last passer takes it');
    assert.deepEqual(second.game.fronts.A, []);
    assertNewRound(second.game, 'B', 2);
  });

  it("takes the offered card out of the starter's hand while it is in flight (it belongs to no hand)", () => {
    const { game, rat } = fourPlayers();
    const before = game.hands.A.length;
    play(game, 'A', { type: 'offer', cardId: rat, to: 'B', claim: 'rat' });
    assert.equal(game.hands.A.length, before - 1);
    assert.equal(game.round.card, rat);
    for (const p of game.order) assert.ok(!game.hands[p].includes(rat));
    assertAccounted(game);
  });

  it('lets the starter claim any of the 8 kinds, true or not', () => {
    for (const claim of KINDS) {
      const { game, rat } = fourPlayers();
      play(game, 'A', { type: 'offer', cardId: rat, to: 'B', claim });
      assert.equal(game.round.claim, claim);
      assert.deepEqual(game.round.claims, [{ from: 'A', to: 'B', claim }]);
    }
  });
});
