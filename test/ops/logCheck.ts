import assert from 'node:assert/strict';
import { KINDS, KIND_NAMES_KO } from '../../server/rules';

const HIDDEN_KEYS = /^(hands?|cardKind|kinds?|cards?|cardId|removed|seed|rng|state|deck|log|dropped)$/i;
const KOREAN_KINDS = Object.values(KIND_NAMES_KO);

/**
 * Every line is one JSON object with time, level and event, and nothing in it can reveal a
 * card: no key naming hidden data, no value that is a kind (English or Korean), no seed-like hex.
 */
export function assertNoHiddenCards(lines: string[], seeds: string[] = []): void {
  assert.ok(lines.length > 0, 'some log lines');
  for (const line of lines) {
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line);
    } catch {
      assert.fail(`not a JSON line: ${line}`);
    }
    assert.equal(typeof entry, 'object', line);
    for (const key of ['time', 'level', 'event']) assert.equal(typeof entry[key], 'string', `${key} in ${line}`);
    for (const [key, value] of Object.entries(entry)) {
      assert.doesNotMatch(key, HIDDEN_KEYS, `hidden key in ${line}`);
      assert.ok(value === null || ['string', 'number', 'boolean'].includes(typeof value), `flat values only: ${line}`);
      if (typeof value !== 'string') continue;
      assert.ok(!(KINDS as readonly string[]).includes(value), `a kind as a value: ${line}`);
      for (const ko of KOREAN_KINDS) assert.ok(!value.includes(ko), `a kind (${ko}) in: ${line}`);
      assert.doesNotMatch(value, /[0-9a-f]{32}/, `a seed-like value in ${line}`);
      for (const seed of seeds) assert.ok(!value.includes(seed), `the seed in ${line}`);
    }
  }
}
