import assert from 'node:assert/strict';
import { activePlayer, dangerLevel, Match, passFactsOf, peekedFromPublic, randomLegalAction, seedRng, viewFor } from '../../server/rules';
import { opts } from './helpers';

describe('rules: public facts a client decides with (the SDK reuses these)', () => {
  it('reads "peeked" from public state exactly as the game holds it, across random games', () => {
    let peekedSeen = 0;
    for (let g = 0; g < 120; g++) {
      const count = 2 + (g % 5);
      const players = Array.from({ length: count }, (_, i) => `p${i}`);
      const started = Match.start(`facts-${g}`, players, opts({ twoPlayerPass: g % 2 === 0 }));
      assert.ok(started.ok);
      const { match } = started;
      const bot = seedRng(`facts-bot-${g}`);
      while (match.game.phase === 'playing') {
        const view = viewFor(match.game, null);
        const r = view.round;
        assert.equal(peekedFromPublic(view.order, r.starter, r.holder, r.seen), match.game.round.peeked);
        if (match.game.round.peeked) peekedSeen++;
        const player = activePlayer(match.game)!;
        assert.ok(match.act(player, randomLegalAction(match.game, player, bot)!).ok);
      }
      assert.deepEqual(passFactsOf(match.game).order, match.game.order);
    }
    assert.ok(peekedSeen > 100);
  });

  it('grades danger: yellow from the third card, red one card before losing', () => {
    assert.deepEqual(
      [0, 1, 2, 3, 4].map((n) => dangerLevel(n, 4)),
      ['safe', 'safe', 'safe', 'danger', 'danger'],
    );
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5].map((n) => dangerLevel(n, 5)),
      ['safe', 'safe', 'safe', 'warning', 'danger', 'danger'],
    );
    assert.deepEqual(
      [0, 1, 2, 3].map((n) => dangerLevel(n, 3)),
      ['safe', 'safe', 'danger', 'danger'],
    );
  });
});
