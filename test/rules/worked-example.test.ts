import assert from 'node:assert/strict';
import { Game, legalActions, passTargets, viewFor } from '../../server/rules';
import { play, putInHand, refuse, seatedGame } from './helpers';

/** Steps 1-2 of section 5.4: A gives a real spider to B claiming fly; B peeks and passes to C claiming spider. */
function stepsOneAndTwo(): { game: Game; spider: number } {
  const game = seatedGame(4);
  const spider = putInHand(game, 'A', 'spider');

  play(game, 'A', { type: 'offer', cardId: spider, to: 'B', claim: 'fly' });
  assert.equal(game.round.holder, 'B');
  assert.equal(game.round.claim, 'fly');
  assert.deepEqual(game.round.seen, ['A']);

  play(game, 'B', { type: 'peek' });
  assert.equal(viewFor(game, 'B').round.cardKind, 'spider', 'B sees the spider');
  play(game, 'B', { type: 'pass', to: 'C', claim: 'spider' });
  assert.deepEqual(game.round.seen, ['A', 'B'], 'seen = {A, B}');
  assert.equal(game.round.holder, 'C');
  assert.equal(game.round.claim, 'spider');
  return { game, spider };
}

describe('rules: the worked example of section 5.4 (A, B, C, D)', () => {
  it('C calls "false" on a true spider claim: wrong, the spider lands in C\'s front and C starts next', () => {
    const { game, spider } = stepsOneAndTwo();
    play(game, 'C', { type: 'call', call: 'false' });
    assert.deepEqual(game.lastReveal, {
      card: spider,
      kind: 'spider',
      claim: 'spider',
      call: 'false',
      caller: 'C',
      correct: false,
      takenBy: 'C',
    });
    assert.deepEqual(game.fronts.C, [spider]);
    for (const p of ['A', 'B', 'D']) assert.deepEqual(game.fronts[p], []);
    assert.equal(game.round.starter, 'C');
    assert.equal(game.round.card, null);
    assert.equal(game.phase, 'playing');
  });

  it('had C peeked instead, only D is a legal pass target', () => {
    const { game } = stepsOneAndTwo();
    play(game, 'C', { type: 'peek' });
    assert.deepEqual(passTargets(game), ['D']);
    assert.deepEqual(new Set(legalActions(game, 'C').map((a) => a.type === 'pass' && a.to)), new Set(['D']));
    refuse(game, 'C', { type: 'pass', to: 'A', claim: 'spider' }, 'TARGET_ALREADY_SEEN');
    refuse(game, 'C', { type: 'pass', to: 'B', claim: 'spider' }, 'TARGET_ALREADY_SEEN');
    play(game, 'C', { type: 'pass', to: 'D', claim: 'fly' });
  });

  it('and D, with nobody left to pass to, must call: peek refused NO_PASS_TARGET', () => {
    const { game, spider } = stepsOneAndTwo();
    play(game, 'C', { type: 'peek' });
    play(game, 'C', { type: 'pass', to: 'D', claim: 'fly' });
    refuse(game, 'D', { type: 'peek' }, 'NO_PASS_TARGET');
    assert.deepEqual(
      legalActions(game, 'D').map((a) => a.type),
      ['call', 'call'],
    );
    play(game, 'D', { type: 'call', call: 'false' });
    assert.equal(game.lastReveal?.correct, true, 'fly was a lie');
    assert.deepEqual(game.fronts.C, [spider], 'C, the last passer, takes it');
    assert.equal(game.round.starter, 'C');
  });
});
