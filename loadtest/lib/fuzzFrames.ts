import { pack } from 'msgpackr';
import { KINDS, pick, randInt, RngState } from '../../server/rules';
import { CLIENT_MESSAGES } from '../../server/protocol';

/** Real message types with garbage payloads reach the handlers; others the transport guard. */
const TYPES: readonly string[] = CLIENT_MESSAGES;
const KEYS = ['cardId', 'to', 'claim', 'call', 'phrase', 'step', '__proto__', 'constructor', 'prototype', 'toString', 'x', ''];
const STRINGS = ['', 'true', 'false', 'rat', 'doubt', '__proto__', 'constructor', '\u0000', '가'.repeat(40), 'x'.repeat(600), ...KINDS];
const NUMBERS = [
  0,
  -0,
  1,
  -1,
  63,
  64,
  0.5,
  2 ** 31,
  2 ** 32,
  2 ** 53,
  -(2 ** 53),
  1e308,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
];

export type FuzzKind = 'payload' | 'garbage' | 'text' | 'bitflip' | 'truncated' | 'header' | 'foreignType';

function randomValue(rng: RngState, depth = 0): unknown {
  switch (randInt(rng, depth > 3 ? 4 : 7)) {
    case 0:
      return pick(rng, NUMBERS);
    case 1:
      return pick(rng, STRINGS);
    case 2:
      return randInt(rng, 2) === 0;
    case 3:
      return null;
    case 4:
      return Array.from({ length: randInt(rng, 4) }, () => randomValue(rng, depth + 1));
    case 5: {
      let deep: unknown = 1;
      for (let i = randInt(rng, 300); i > 0; i--) deep = [deep];
      return deep;
    }
    default: {
      const obj: Record<string, unknown> = Object.create(null);
      for (let i = randInt(rng, 5); i > 0; i--) obj[pick(rng, KEYS)] = randomValue(rng, depth + 1);
      return obj;
    }
  }
}

function typeHeader(type: string): number[] {
  return [0xa0 | type.length, ...Buffer.from(type, 'latin1')];
}

/** A frame a colyseus.js client could send: our type, any msgpack payload. */
export function validFrame(rng: RngState): Buffer {
  const type = pick(rng, TYPES);
  const payload = randInt(rng, 5) === 0 ? [] : [...pack(randomValue(rng))];
  return Buffer.from([13, ...typeHeader(type), ...payload]);
}

/**
 * One frame for the fuzzer: mostly well-formed messages with hostile payloads (they reach the
 * handlers), the rest broken on purpose (random bytes, text, flipped bits, cut short, lying
 * length headers, types that are not ours).
 */
export function fuzzFrame(rng: RngState): { kind: FuzzKind; data: Buffer | string } {
  const roll = randInt(rng, 100);
  if (roll < 55) return { kind: 'payload', data: validFrame(rng) };
  if (roll < 63) return { kind: 'garbage', data: Buffer.from(Array.from({ length: randInt(rng, 64) + 1 }, () => randInt(rng, 256))) };
  if (roll < 66) return { kind: 'text', data: 'x'.repeat(randInt(rng, 40)) };
  if (roll < 76) {
    const frame = validFrame(rng);
    const at = randInt(rng, frame.length);
    frame[at] ^= 1 << randInt(rng, 8);
    return { kind: 'bitflip', data: frame };
  }
  if (roll < 84) {
    const frame = validFrame(rng);
    return { kind: 'truncated', data: frame.subarray(0, randInt(rng, frame.length)) };
  }
  if (roll < 94) {
    const header = pick(rng, [[0xdb, 0xff, 0xff, 0xff, 0xff], [0xda, 0xff, 0xff], [0xd9, 0xff], [0xbf], [0xcf, 0xff, 0xff]]);
    return { kind: 'header', data: Buffer.from([13, ...header, ...Array.from({ length: randInt(rng, 8) }, () => randInt(rng, 256))]) };
  }
  const type = pick(rng, ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'dance', 'OFFER']);
  return { kind: 'foreignType', data: Buffer.from([13, ...typeHeader(type), ...pack({})]) };
}
