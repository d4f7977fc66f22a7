/**
 * The server hashes through node:crypto (server/index.ts installs it with `useSha256`); the SDK
 * keeps the pure SHA-256. Both must give the same hex for every text a record can hold.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { sha256Hex, useSha256 } from '../../server/fairness/sha256';
import { seedRng, randInt } from '../../server/rules';

const nodeSha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('fairness: node:crypto on the server, the same digests as the pure SHA-256 (issue 25)', () => {
  afterEach(() => useSha256(null));

  it('agrees on edge lengths, every plane, lone surrogates and long texts', () => {
    const rng = seedRng('sha');
    const texts = ['', 'abc', 'a'.repeat(55), 'a'.repeat(56), 'a'.repeat(64), '바퀴벌레 포커', '🪳🦇', '\ud800', 'x\udc00y', '\ud83d'];
    for (let i = 0; i < 200; i++) {
      const length = randInt(rng, 300);
      texts.push(String.fromCharCode(...Array.from({ length }, () => randInt(rng, 0x10000))));
    }
    texts.push('{"log":[' + '{"a":1},'.repeat(20000) + ']}');
    const pure = texts.map(sha256Hex);
    useSha256(nodeSha256);
    assert.deepEqual(texts.map(sha256Hex), pure);
    assert.equal(sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('uses the installed hash while it is installed, the pure one after', () => {
    useSha256(() => 'installed');
    assert.equal(sha256Hex('abc'), 'installed');
    useSha256(null);
    assert.equal(sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
