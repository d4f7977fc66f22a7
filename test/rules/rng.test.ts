import assert from 'node:assert/strict';
import { isRngState, nextU32, pick, randInt, RngState, seedRng, shuffle } from '../../server/rules';

const draw = (s: RngState, n: number) => Array.from({ length: n }, () => nextU32(s));

describe('rules: seeded PRNG (section 8.4)', () => {
  it('gives the same sequence for the same seed and a different one for another seed', () => {
    assert.deepEqual(draw(seedRng('abc'), 50), draw(seedRng('abc'), 50));
    assert.notDeepEqual(draw(seedRng('abc'), 50), draw(seedRng('abd'), 50));
    assert.notDeepEqual(draw(seedRng(''), 5), draw(seedRng(' '), 5));
  });

  it('keeps the sfc32 sequence fixed (saved games and logs stay replayable)', () => {
    assert.deepEqual(draw(seedRng('x'), 5), [3083246218, 3463424350, 1559599480, 3420243524, 1772401717]);
  });

  it('round-trips its state through JSON mid-stream and continues identically', () => {
    const s = seedRng('mid-stream');
    draw(s, 37);
    const copy = JSON.parse(JSON.stringify(s)) as RngState;
    assert.ok(isRngState(copy));
    assert.deepEqual(draw(copy, 100), draw(s, 100));
  });

  it('keeps its state as four uint32s', () => {
    const s = seedRng('state');
    for (let i = 0; i < 1000; i++) {
      nextU32(s);
      assert.ok(isRngState(s));
    }
    assert.equal(isRngState([1, 2, 3]), false);
    assert.equal(isRngState([1, 2, 3, -1]), false);
    assert.equal(isRngState([1, 2, 3, 2 ** 32]), false);
    assert.equal(isRngState([1, 2, 3, 0.5]), false);
  });

  it('draws randInt uniformly in [0, n) and refuses a bad bound', () => {
    const s = seedRng('uniform');
    const counts = [0, 0, 0, 0, 0, 0];
    for (let i = 0; i < 6000; i++) counts[randInt(s, 6)]++;
    for (const c of counts) assert.ok(c > 850 && c < 1150, `counts ${counts}`);
    for (const bad of [0, -1, 1.5, NaN, 2 ** 32 + 1]) assert.throws(() => randInt(s, bad), RangeError);
    assert.equal(randInt(s, 1), 0);
  });

  it('shuffles into a permutation and picks from a list, refusing an empty one', () => {
    const s = seedRng('shuffle');
    const items = Array.from({ length: 64 }, (_, i) => i);
    const shuffled = shuffle(s, [...items]);
    assert.notDeepEqual(shuffled, items);
    assert.deepEqual(
      [...shuffled].sort((a, b) => a - b),
      items,
    );
    assert.ok(['x', 'y'].includes(pick(s, ['x', 'y'])));
    assert.throws(() => pick(s, []), RangeError);
  });
});
