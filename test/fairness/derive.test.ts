import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { newCommitment } from '../../server/fairness/commitment';
import { canonicalPlayers, deriveSeed, isEntropy } from '../../server/fairness/derive';

const ZERO_SEED = '00'.repeat(32);

describe('fairness: commitment and seed derivation (docs/fairness.md)', () => {
  it('commits to a fresh 32-byte hex secret with the SHA-256 of its UTF-8 bytes', () => {
    const a = newCommitment();
    const b = newCommitment();
    assert.match(a.serverSeed, /^[0-9a-f]{64}$/);
    assert.notEqual(a.serverSeed, b.serverSeed);
    assert.equal(a.commitment, createHash('sha256').update(a.serverSeed, 'utf8').digest('hex'));
  });

  it('gives the documented vector: sha256 of the netstrings label, serverSeed, then id/entropy sorted by id', () => {
    const message = `23:cockroach-poker/seed/v1,64:${ZERO_SEED},1:A,16:0123456789abcdef,1:B,0:,`;
    const expected = createHash('sha256').update(message).digest('hex');
    assert.equal(expected, '80850e8a62e21daddd1ee6f2b4e933447ce0b39bc528b68ac42c959c6a87f9d0');
    assert.equal(deriveSeed(ZERO_SEED, { B: '', A: '0123456789abcdef' }), expected);
  });

  it('does not depend on the order the entropy map was filled in', () => {
    const e = { zeta: 'aa'.repeat(8), alpha: 'bb'.repeat(8), mid: '' };
    const reversed = Object.fromEntries(Object.entries(e).reverse());
    assert.equal(deriveSeed(ZERO_SEED, e), deriveSeed(ZERO_SEED, reversed));
  });

  it('changes with the server seed, any entropy, any id, and who gave which entropy', () => {
    const base = { A: 'aa'.repeat(8), B: 'bb'.repeat(8) };
    const seeds = [
      deriveSeed(ZERO_SEED, base),
      deriveSeed('11'.repeat(32), base),
      deriveSeed(ZERO_SEED, { A: 'aa'.repeat(8), B: 'bb'.repeat(7) + 'bc' }),
      deriveSeed(ZERO_SEED, { A: 'bb'.repeat(8), B: 'aa'.repeat(8) }),
      deriveSeed(ZERO_SEED, { A: 'aa'.repeat(8), C: 'bb'.repeat(8) }),
      deriveSeed(ZERO_SEED, { A: 'aa'.repeat(8), B: 'bb'.repeat(8), C: '' }),
    ];
    assert.equal(new Set(seeds).size, seeds.length);
  });

  it('cannot be fooled by moving text across a boundary (netstrings)', () => {
    // Plain concatenation would make each pair hash the same message.
    assert.notEqual(deriveSeed('ab', { c: '' }), deriveSeed('a', { bc: '' }));
    assert.notEqual(deriveSeed(ZERO_SEED, { A: 'ab', B: '' }), deriveSeed(ZERO_SEED, { A: '', AB: '' }));
    assert.notEqual(deriveSeed(ZERO_SEED, { 'A,1:B': '' }), deriveSeed(ZERO_SEED, { A: '', B: '' }));
  });

  it('checks the entropy option: 16-64 hex characters', () => {
    for (const ok of ['0123456789abcdef', 'ABCDEF0123456789', 'f'.repeat(64)]) assert.ok(isEntropy(ok), ok);
    for (const bad of ['', 'f'.repeat(15), 'f'.repeat(65), 'g'.repeat(16), ' 0123456789abcdef', 1234567890123456, null]) {
      assert.equal(isEntropy(bad), false, String(bad));
    }
  });

  it('orders players by id for Match.start, whatever the join order', () => {
    assert.deepEqual(canonicalPlayers(['b2', 'A1', 'a1', 'B2']), ['A1', 'B2', 'a1', 'b2']);
  });
});
