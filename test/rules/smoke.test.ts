import assert from 'node:assert/strict';
import { Match } from '../../server/rules';

describe('rules smoke', () => {
  it('starts a four-player game with 16 cards each', () => {
    const r = Match.start('s', ['a', 'b', 'c', 'd'], { turnSeconds: 30, claimHistory: true, quickChat: true, eightKindsRule: false, twoPlayerPass: false, showSeenBy: true });
    assert.ok(r.ok);
    if (r.ok) for (const p of r.match.game.order) assert.equal(r.match.game.hands[p].length, 16);
  });
});
