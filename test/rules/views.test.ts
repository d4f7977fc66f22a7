import assert from 'node:assert/strict';
import { viewFor } from '../../server/rules';
import { play, putInFront, putInHand, seatedGame } from './helpers';
import { assertViewSafe } from './view-checks';

describe('rules: what each viewer may know (8.3)', () => {
  it('gives the kind of the card in flight only to the starter and those who peeked, never its id', () => {
    const game = seatedGame(4);
    const fly = putInHand(game, 'A', 'fly');
    play(game, 'A', { type: 'offer', cardId: fly, to: 'B', claim: 'rat' });
    assert.equal(viewFor(game, 'A').round.cardKind, 'fly', 'the starter knows it');
    for (const viewer of ['B', 'C', 'D', null]) assert.equal(assertViewSafe(game, viewer).round.cardKind, undefined, `${viewer}`);
    play(game, 'B', { type: 'peek' });
    assert.equal(assertViewSafe(game, 'B').round.cardKind, 'fly');
    play(game, 'B', { type: 'pass', to: 'D', claim: 'fly' });
    for (const viewer of ['C', 'D', null]) assert.equal(assertViewSafe(game, viewer).round.cardKind, undefined, `${viewer}`);
    for (const viewer of ['A', 'B']) assert.equal(assertViewSafe(game, viewer).round.cardKind, 'fly');
    for (const viewer of ['A', 'B', 'C', 'D', null]) {
      const hands = Object.values(viewFor(game, viewer).players).flatMap((p) => Object.keys(p.hand ?? {}));
      assert.ok(!hands.includes(String(fly)), 'the id in flight is in no hand');
    }
  });

  it("shows a player their own hand and nobody else's; a spectator sees no hand", () => {
    const game = seatedGame(5);
    for (const viewer of [...game.order, null]) {
      const view = assertViewSafe(game, viewer);
      const withHands = Object.values(view.players)
        .filter((p) => p.hand)
        .map((p) => p.id);
      assert.deepEqual(withHands, viewer ? [viewer] : []);
    }
  });

  it("hides the two-player game's removed cards during play and shows them, with every hand, once ended", () => {
    const game = seatedGame(2);
    for (const viewer of ['A', 'B', null]) assert.ok(!('removed' in assertViewSafe(game, viewer)));
    assert.ok(!JSON.stringify(viewFor(game, null)).includes('removed'));
    putInFront(game, 'B', 'rat', 4);
    const rat = putInHand(game, 'A', 'rat');
    play(game, 'A', { type: 'offer', cardId: rat, to: 'B', claim: 'rat' });
    play(game, 'B', { type: 'call', call: 'false' });
    assert.equal(game.phase, 'ended');
    for (const viewer of ['A', 'B', null]) {
      const view = assertViewSafe(game, viewer);
      assert.equal(view.removed?.length, 10);
      assert.ok(view.players.A.hand && view.players.B.hand);
    }
  });

  it('shows counts, fronts, seen and claims to everyone, and leaves claims empty with claimHistory off', () => {
    for (const claimHistory of [true, false]) {
      const game = seatedGame(3, { claimHistory });
      play(game, 'A', { type: 'offer', cardId: game.hands.A[0], to: 'B', claim: 'rat' });
      play(game, 'B', { type: 'peek' });
      play(game, 'B', { type: 'pass', to: 'C', claim: 'bat' });
      const view = assertViewSafe(game, null);
      assert.equal(view.round.claim, 'bat', 'the latest claim is always public');
      assert.deepEqual(view.round.seen, ['A', 'B']);
      assert.equal(view.round.claims.length, claimHistory ? 2 : 0);
      assert.deepEqual(view.players.A.front, []);
      assert.equal(view.players.A.handCount, game.hands.A.length);
    }
  });

  it('reports the last reveal by kind without the card id', () => {
    const game = seatedGame(3);
    const toad = putInHand(game, 'A', 'toad');
    play(game, 'A', { type: 'offer', cardId: toad, to: 'B', claim: 'toad' });
    play(game, 'B', { type: 'call', call: 'true' });
    assert.deepEqual(assertViewSafe(game, 'C').lastReveal, {
      kind: 'toad',
      claim: 'toad',
      call: 'true',
      caller: 'B',
      correct: true,
      takenBy: 'A',
    });
  });

  it('hands out a copy: changing a view never changes the game', () => {
    const game = seatedGame(3);
    const before = JSON.stringify(game);
    const view = viewFor(game, 'A');
    view.order.reverse();
    view.round.seen.push('X');
    view.options.loseCount = 3;
    view.players.A.front.push('rat');
    assert.equal(JSON.stringify(game), before);
  });
});
