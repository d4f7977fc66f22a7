import assert from 'node:assert/strict';
import { applyTimeout, legalActions, passTargets } from '../../server/rules';
import { assertAccounted, countKind, play, putInFront, putInHand, refuse, seatedGame } from './helpers';

describe('rules: two players (sections 4, 5.2, 6, twoPlayerPass)', () => {
  it('refuses peek with TWO_PLAYER_NO_PEEK: the receiver always calls', () => {
    const game = seatedGame(2);
    play(game, 'A', { type: 'offer', cardId: game.hands.A[0], to: 'B', claim: 'rat' });
    refuse(game, 'B', { type: 'peek' }, 'TWO_PLAYER_NO_PEEK');
    refuse(game, 'B', { type: 'pass', to: 'A', claim: 'rat' }, 'MUST_PEEK_FIRST');
    assert.deepEqual(
      legalActions(game, 'B').map((a) => a.type),
      ['call', 'call'],
    );
    assert.deepEqual(passTargets(game), []);
  });

  it('loses at 5 of a kind, not at 4', () => {
    const game = seatedGame(2);
    assert.equal(game.options.loseCount, 5);
    putInFront(game, 'B', 'rat', 3);
    const ratA = putInHand(game, 'A', 'rat');
    const ratB = putInHand(game, 'B', 'rat');
    assertAccounted(game);

    play(game, 'A', { type: 'offer', cardId: ratA, to: 'B', claim: 'rat' });
    play(game, 'B', { type: 'call', call: 'false' });
    assert.equal(countKind(game, game.fronts.B, 'rat'), 4);
    assert.equal(game.phase, 'playing', '4 rats: the game goes on');
    assert.equal(game.round.starter, 'B');

    play(game, 'B', { type: 'offer', cardId: ratB, to: 'A', claim: 'rat' });
    play(game, 'A', { type: 'call', call: 'true' });
    assert.equal(countKind(game, game.fronts.B, 'rat'), 5);
    assert.equal(game.phase, 'ended');
    assert.equal(game.loser, 'B');
    assert.equal(game.lossReason, 'four');
    assertAccounted(game);
  });

  it('twoPlayerPass: the holder may peek and hand the card back once with a new claim', () => {
    const game = seatedGame(2, { twoPlayerPass: true });
    const card = game.hands.A[0];
    play(game, 'A', { type: 'offer', cardId: card, to: 'B', claim: 'rat' });
    assert.deepEqual(passTargets(game), ['A']);
    play(game, 'B', { type: 'peek' });
    assert.deepEqual(game.round.seen, ['A', 'B']);
    refuse(game, 'B', { type: 'call', call: 'true' }, 'ALREADY_PEEKED');
    play(game, 'B', { type: 'pass', to: 'A', claim: 'toad' });
    assert.equal(game.round.holder, 'A');
    assert.equal(game.round.lastPasser, 'B');
    assert.equal(game.round.claim, 'toad');
  });

  it('twoPlayerPass: the starter then must call; peek refused ALREADY_SEEN', () => {
    const game = seatedGame(2, { twoPlayerPass: true });
    const card = putInHand(game, 'A', 'toad');
    play(game, 'A', { type: 'offer', cardId: card, to: 'B', claim: 'rat' });
    play(game, 'B', { type: 'peek' });
    play(game, 'B', { type: 'pass', to: 'A', claim: 'toad' });
    refuse(game, 'A', { type: 'peek' }, 'ALREADY_SEEN');
    refuse(game, 'A', { type: 'pass', to: 'B', claim: 'toad' }, 'MUST_PEEK_FIRST');
    assert.deepEqual(
      legalActions(game, 'A').map((a) => a.type),
      ['call', 'call'],
    );
    play(game, 'A', { type: 'call', call: 'false' });
    assert.equal(game.lastReveal?.correct, false);
    assert.deepEqual(game.fronts.A, [card], 'A misjudged the returned card');
    assert.equal(game.round.starter, 'A');
  });

  it('twoPlayerPass: a peeked holder who times out hands the card back with its true kind', () => {
    const game = seatedGame(2, { twoPlayerPass: true });
    const card = putInHand(game, 'A', 'bat');
    play(game, 'A', { type: 'offer', cardId: card, to: 'B', claim: 'rat' });
    play(game, 'B', { type: 'peek' });
    const auto = applyTimeout(game);
    assert.deepEqual(auto && { player: auto.player, action: auto.action }, {
      player: 'B',
      action: { type: 'pass', to: 'A', claim: 'bat' },
    });
  });

  it('twoPlayerPass changes nothing with 3 or more players', () => {
    const game = seatedGame(3, { twoPlayerPass: true });
    play(game, 'A', { type: 'offer', cardId: game.hands.A[0], to: 'B', claim: 'rat' });
    play(game, 'B', { type: 'peek' });
    refuse(game, 'B', { type: 'pass', to: 'A', claim: 'rat' }, 'TARGET_ALREADY_SEEN');
    play(game, 'B', { type: 'pass', to: 'C', claim: 'rat' });
    refuse(game, 'C', { type: 'peek' }, 'NO_PASS_TARGET');
  });
});
