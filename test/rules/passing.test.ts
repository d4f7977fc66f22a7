import assert from 'node:assert/strict';
import { legalActions, passTargets } from '../../server/rules';
import { assertAccounted, emptyHand, play, putInHand, refuse, seatedGame } from './helpers';

describe('rules: peeking and passing on (5.2, 8.2)', () => {
  it('adds the holder to seen on peek; seen is the starter and every holder who peeked', () => {
    const game = seatedGame(5);
    play(game, 'A', { type: 'offer', cardId: game.hands.A[0], to: 'C', claim: 'fly' });
    assert.deepEqual(game.round.seen, ['A']);
    play(game, 'C', { type: 'peek' });
    assert.deepEqual(game.round.seen, ['A', 'C']);
    play(game, 'C', { type: 'pass', to: 'E', claim: 'toad' });
    assert.deepEqual(game.round.seen, ['A', 'C'], 'passing does not add the receiver');
    assert.equal(game.round.holder, 'E');
    assert.equal(game.round.lastPasser, 'C');
    assert.equal(game.round.claim, 'toad');
    assert.equal(game.round.peeked, false);
    assert.deepEqual(game.round.claims, [
      { from: 'A', to: 'C', claim: 'fly' },
      { from: 'C', to: 'E', claim: 'toad' },
    ]);
  });

  it('refuses a pass to someone in seen (the starter included) with TARGET_ALREADY_SEEN', () => {
    const game = seatedGame(4);
    play(game, 'A', { type: 'offer', cardId: game.hands.A[0], to: 'B', claim: 'fly' });
    play(game, 'B', { type: 'peek' });
    refuse(game, 'B', { type: 'pass', to: 'A', claim: 'fly' }, 'TARGET_ALREADY_SEEN');
    play(game, 'B', { type: 'pass', to: 'C', claim: 'fly' });
    play(game, 'C', { type: 'peek' });
    refuse(game, 'C', { type: 'pass', to: 'A', claim: 'bat' }, 'TARGET_ALREADY_SEEN');
    refuse(game, 'C', { type: 'pass', to: 'B', claim: 'bat' }, 'TARGET_ALREADY_SEEN');
    assert.deepEqual(passTargets(game), ['D']);
    play(game, 'C', { type: 'pass', to: 'D', claim: 'bat' });
  });

  it('with 3 players, the second holder has nobody left to pass to and must call', () => {
    const game = seatedGame(3);
    play(game, 'A', { type: 'offer', cardId: game.hands.A[0], to: 'B', claim: 'fly' });
    play(game, 'B', { type: 'peek' });
    play(game, 'B', { type: 'pass', to: 'C', claim: 'fly' });
    assert.deepEqual(game.round.seen, ['A', 'B']);
    assert.deepEqual(passTargets(game), []);
    refuse(game, 'C', { type: 'peek' }, 'NO_PASS_TARGET');
  });

  it('refuses peek with NO_PASS_TARGET when everyone else has seen the card, and allows the call', () => {
    const game = seatedGame(4);
    play(game, 'A', { type: 'offer', cardId: game.hands.A[0], to: 'B', claim: 'fly' });
    play(game, 'B', { type: 'peek' });
    play(game, 'B', { type: 'pass', to: 'C', claim: 'fly' });
    play(game, 'C', { type: 'peek' });
    play(game, 'C', { type: 'pass', to: 'D', claim: 'fly' });
    refuse(game, 'D', { type: 'peek' }, 'NO_PASS_TARGET');
    assert.deepEqual(legalActions(game, 'D'), [
      { type: 'call', call: 'true' },
      { type: 'call', call: 'false' },
    ]);
    play(game, 'D', { type: 'call', call: 'true' });
    assert.equal(game.round.no, 2);
  });

  it('refuses a call after peeking with ALREADY_PEEKED (a peeker must pass)', () => {
    const game = seatedGame(3);
    play(game, 'A', { type: 'offer', cardId: game.hands.A[0], to: 'C', claim: 'fly' });
    play(game, 'C', { type: 'peek' });
    refuse(game, 'C', { type: 'call', call: 'true' }, 'ALREADY_PEEKED');
    refuse(game, 'C', { type: 'call', call: 'false' }, 'ALREADY_PEEKED');
    refuse(game, 'C', { type: 'peek' }, 'ALREADY_PEEKED');
    assert.deepEqual(
      legalActions(game, 'C').map((a) => a.type === 'pass' && a.to),
      Array(8).fill('B'),
    );
  });

  it('refuses a pass before peeking with MUST_PEEK_FIRST', () => {
    const game = seatedGame(3);
    play(game, 'A', { type: 'offer', cardId: game.hands.A[0], to: 'B', claim: 'fly' });
    refuse(game, 'B', { type: 'pass', to: 'C', claim: 'fly' }, 'MUST_PEEK_FIRST');
  });

  it('allows offering to a player with 0 cards, who can then peek and pass', () => {
    const game = seatedGame(4);
    emptyHand(game, 'C', 'D');
    assertAccounted(game);
    const card = game.hands.A[0];
    play(game, 'A', { type: 'offer', cardId: card, to: 'C', claim: 'bat' });
    assert.equal(game.round.holder, 'C');
    play(game, 'C', { type: 'peek' });
    play(game, 'C', { type: 'pass', to: 'D', claim: 'bat' });
    const kind = game.kinds[card];
    play(game, 'D', { type: 'call', call: kind === 'bat' ? 'false' : 'true' });
    assert.deepEqual(game.fronts.D, [card], 'D misjudged');
    assert.equal(game.phase, 'playing');
  });

  it('allows a player with 0 cards to call; a correct call leaves the game going', () => {
    const game = seatedGame(4);
    emptyHand(game, 'B', 'C');
    const rat = putInHand(game, 'A', 'rat');
    play(game, 'A', { type: 'offer', cardId: rat, to: 'B', claim: 'rat' });
    assert.deepEqual(
      legalActions(game, 'B').map((a) => a.type),
      ['call', 'call', 'peek'],
    );
    play(game, 'B', { type: 'call', call: 'true' });
    assert.deepEqual(game.fronts.A, [rat]);
    assert.equal(game.phase, 'playing');
    assert.equal(game.round.starter, 'A');
  });
});
