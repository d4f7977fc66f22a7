import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { sha256Hex, utf8Bytes } from '../../server/fairness/sha256';
import { seedRng, randInt } from '../../server/rules';

const nodeSha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('fairness: pure SHA-256', () => {
  it('gives the FIPS 180-4 / NIST test vectors', () => {
    assert.equal(sha256Hex(''), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    assert.equal(sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    assert.equal(
      sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'),
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
    assert.equal(
      sha256Hex('abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu'),
      'cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1',
    );
    assert.equal(sha256Hex('a'.repeat(1_000_000)), 'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0');
  });

  it('agrees with node:crypto at every padding boundary (lengths 0..130)', () => {
    for (let n = 0; n <= 130; n++) {
      const text = 'x'.repeat(n);
      assert.equal(sha256Hex(text), nodeSha(text), `length ${n}`);
    }
  });

  it('hashes the UTF-8 bytes: Korean, emoji (surrogate pairs), and a lone surrogate as U+FFFD', () => {
    for (const text of ['민수', '이 게임은 공정했어요', '🪳🦇', 'é', '\u07ff\u0800\uffff', 'a\ud800b', '\udc00']) {
      assert.equal(sha256Hex(text), nodeSha(text), JSON.stringify(text));
      assert.deepEqual([...utf8Bytes(text)], [...Buffer.from(text, 'utf8')], JSON.stringify(text));
    }
  });

  it('agrees with node:crypto on random strings of random code points', () => {
    const rng = seedRng('sha-random');
    for (let i = 0; i < 300; i++) {
      let text = '';
      const length = randInt(rng, 200);
      for (let j = 0; j < length; j++) {
        const range = randInt(rng, 4);
        const cp = [0x7f, 0x7ff, 0xd7ff, 0x10ffff][range];
        let c = randInt(rng, cp + 1);
        if (c >= 0xd800 && c <= 0xdfff) c = 0x41;
        text += String.fromCodePoint(c);
      }
      assert.equal(sha256Hex(text), nodeSha(text));
    }
  });
});
