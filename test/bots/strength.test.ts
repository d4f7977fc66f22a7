// smart must beat easy by a clear margin. Seeded, so the figures are the same on every run; a
// change that weakens smart fails here. (docs/history/benchmarks-2026.md, "Practice bots", has the 10,000-game figures.)
import assert from 'node:assert/strict';
import { lossShares } from './play';

describe('bots: smart beats easy', () => {
  it('one smart among three easy loses far less than an even 25 % over 2,000 games', () => {
    const [smart, ...easy] = lossShares(['smart', 'easy', 'easy', 'easy'], 2000, 'strength/4');
    assert.ok(smart < 0.1, `smart lost ${(smart * 100).toFixed(1)} %`);
    for (const e of easy) assert.ok(e > 0.25, `an easy seat lost only ${(e * 100).toFixed(1)} %`);
  });

  it('two players: smart loses under 25 % against easy over 500 games', () => {
    const [smart] = lossShares(['smart', 'easy'], 500, 'strength/2', { twoPlayerPass: true });
    assert.ok(smart < 0.25, `smart lost ${(smart * 100).toFixed(1)} %`);
  });

  it('one easy among three smart loses most games', () => {
    const [easy] = lossShares(['easy', 'smart', 'smart', 'smart'], 500, 'strength/1e');
    assert.ok(easy > 0.5, `easy lost ${(easy * 100).toFixed(1)} %`);
  });
});
