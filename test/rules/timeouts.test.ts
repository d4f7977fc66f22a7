import assert from 'node:assert/strict';
import { KINDS, Match, timeoutAction } from '../../server/rules';
import { opts, play, putInHand, seatedGame, seatedMatch } from './helpers';

describe('rules: timeouts and default actions (8.5, RULINGS "Time")', () => {
  it('a starter who times out offers a card from their hand to the next seat with a random claim', () => {
    for (const [starter, next] of [
      ['A', 'B'],
      ['C', 'D'],
      ['D', 'A'],
    ]) {
      const match = seatedMatch(4);
      match.game.round.starter = starter; // arranged: a fresh round started by `starter`
      const hand = [...match.game.hands[starter]];
      const auto = match.actByDefault();
      assert.ok(auto?.ok);
      assert.equal(auto.player, starter);
      assert.equal(auto.action.type, 'offer');
      if (auto.action.type !== 'offer') return;
      assert.ok(hand.includes(auto.action.cardId));
      assert.equal(auto.action.to, next);
      assert.ok(KINDS.includes(auto.action.claim));
      assert.equal(match.game.round.holder, next);
      assert.equal(match.game.round.card, auto.action.cardId);
      assert.deepEqual(match.record.log, [{ player: starter, action: auto.action, auto: true }]);
    }
  });

  it("the starter's default card and claim come from the game RNG and vary", () => {
    const cards = new Set<number>();
    const claims = new Set<string>();
    for (let s = 0; s < 40; s++) {
      const r = Match.start(`to-offer-${s}`, ['A', 'B', 'C'], opts());
      assert.ok(r.ok);
      const auto = timeoutAction(r.match.game);
      assert.ok(auto && auto.action.type === 'offer');
      if (auto.action.type === 'offer') {
        cards.add(auto.action.cardId);
        claims.add(auto.action.claim);
      }
    }
    assert.ok(cards.size > 10);
    assert.ok(claims.size >= 5);
  });

  it('an unpeeked holder who times out calls "true" or "false" at random', () => {
    const calls = new Set<string>();
    for (let s = 0; s < 30; s++) {
      const match = seatedMatch(4, {}, `call-${s}`);
      play(match.game, 'A', { type: 'offer', cardId: match.game.hands.A[0], to: 'C', claim: 'rat' });
      const auto = match.actByDefault();
      assert.ok(auto?.ok);
      assert.equal(auto.player, 'C');
      assert.equal(auto.action.type, 'call');
      if (auto.action.type === 'call') calls.add(auto.action.call);
      assert.equal(match.game.round.no, 2, 'the call resolved the round');
    }
    assert.deepEqual([...calls].sort(), ['false', 'true']);
  });

  it('a peeked holder who times out passes to the first unseen seat in seat order, claiming the true kind', () => {
    const game = seatedGame(5);
    game.round.starter = 'C';
    const toad = putInHand(game, 'C', 'toad');
    play(game, 'C', { type: 'offer', cardId: toad, to: 'E', claim: 'rat' });
    play(game, 'E', { type: 'peek' });
    assert.deepEqual(timeoutAction(game), { player: 'E', action: { type: 'pass', to: 'A', claim: 'toad' } }, 'A: first seat, not seen');
    play(game, 'E', { type: 'pass', to: 'B', claim: 'bat' });
    play(game, 'B', { type: 'peek' });
    assert.deepEqual(timeoutAction(game), { player: 'B', action: { type: 'pass', to: 'A', claim: 'toad' } });
    play(game, 'B', { type: 'pass', to: 'A', claim: 'fly' });
    play(game, 'A', { type: 'peek' });
    assert.deepEqual(timeoutAction(game), { player: 'A', action: { type: 'pass', to: 'D', claim: 'toad' } }, 'skips B, C, E (seen)');
  });

  it('timeoutAction is deterministic in the game state and draws nothing for a peeked holder', () => {
    const game = seatedGame(4);
    const a = structuredClone(game);
    assert.deepEqual(timeoutAction(a), timeoutAction(structuredClone(game)));
    play(game, 'A', { type: 'offer', cardId: game.hands.A[0], to: 'B', claim: 'rat' });
    play(game, 'B', { type: 'peek' });
    const rng = [...game.rng];
    timeoutAction(game);
    assert.deepEqual(game.rng, rng);
  });
});
