import assert from 'node:assert/strict';
import { DEFAULT_OPTIONS, OPTION_KEYS, RuleErrorCode, validateOptions } from '../../server/rules';

function refused(raw: unknown, code: RuleErrorCode, field?: string) {
  const r = validateOptions(raw);
  assert.equal(r.ok, false, `${JSON.stringify(raw)} should be refused`);
  if (!r.ok) {
    assert.equal(r.error.code, code);
    if (field !== undefined) assert.equal(r.error.field, field);
  }
}

const GOOD: Record<string, unknown[]> = {
  loseCount: [3, 4, 5],
  turnSeconds: [15, 30, 60],
  claimHistory: [true, false],
  quickChat: [true, false],
  eightKindsRule: [true, false],
  twoPlayerPass: [true, false],
  showSeenBy: [true],
};

const BAD: Record<string, unknown[]> = {
  loseCount: [2, 6, 0, 4.5, '4', null, true, [4]],
  turnSeconds: [10, 45, 0, '30', null, false],
  claimHistory: ['true', 1, 0, null, {}],
  quickChat: ['false', 0, null],
  eightKindsRule: ['yes', 1, null],
  twoPlayerPass: ['no', 0, null],
  showSeenBy: [false, 'true', 1, null],
};

describe('rules: game options (section 2, PROTOCOL gameOptions)', () => {
  it('knows exactly the seven documented options', () => {
    assert.deepEqual([...OPTION_KEYS].sort(), Object.keys(GOOD).sort());
  });

  it('fills defaults for missing options (turnSeconds 30, claimHistory/quickChat on, house rules off, loseCount by count)', () => {
    for (const raw of [undefined, null, {}]) {
      const r = validateOptions(raw);
      assert.ok(r.ok);
      assert.deepEqual(r.options, {
        turnSeconds: 30,
        claimHistory: true,
        quickChat: true,
        eightKindsRule: false,
        twoPlayerPass: false,
        showSeenBy: true,
      });
      assert.equal(r.options.loseCount, undefined);
    }
    assert.deepEqual(validateOptions({}), { ok: true, options: { ...DEFAULT_OPTIONS } });
  });

  it('accepts every allowed value of every option', () => {
    for (const [key, values] of Object.entries(GOOD)) {
      for (const value of values) {
        const r = validateOptions({ [key]: value });
        assert.ok(r.ok, `${key}=${value}`);
        assert.equal((r.options as unknown as Record<string, unknown>)[key], value);
      }
    }
  });

  it('refuses a wrong type or value of each option with BAD_OPTION naming the option', () => {
    for (const [key, values] of Object.entries(BAD)) for (const value of values) refused({ [key]: value }, 'BAD_OPTION', key);
  });

  it('refuses showSeenBy false (the document fixes it on)', () => {
    refused({ showSeenBy: false }, 'BAD_OPTION', 'showSeenBy');
  });

  it('refuses an unknown key with UNKNOWN_OPTION, even next to good ones', () => {
    refused({ seed: 'abc' }, 'UNKNOWN_OPTION', 'seed');
    refused({ loseCount: 4, privateRoom: true }, 'UNKNOWN_OPTION', 'privateRoom');
    refused({ LoseCount: 4 }, 'UNKNOWN_OPTION', 'LoseCount');
  });

  it('refuses __proto__ and constructor keys', () => {
    refused(JSON.parse('{"__proto__": {"loseCount": 3}}'), 'UNKNOWN_OPTION', '__proto__');
    refused(JSON.parse('{"constructor": {"prototype": {}}}'), 'UNKNOWN_OPTION', 'constructor');
    refused(JSON.parse('{"toString": 1}'), 'UNKNOWN_OPTION', 'toString');
    assert.equal(({} as Record<string, unknown>).loseCount, undefined, 'no prototype pollution');
  });

  it('refuses anything but a plain object with BAD_OPTIONS', () => {
    for (const raw of [0, 'loseCount=3', true, [], [3], new Date(), new Map(), Object.create({ loseCount: 3 })])
      refused(raw, 'BAD_OPTIONS');
  });

  it('accepts an object without prototype', () => {
    const raw = Object.assign(Object.create(null), { loseCount: 3 });
    const r = validateOptions(raw);
    assert.ok(r.ok);
    assert.equal(r.options.loseCount, 3);
  });

  it('cuts a long unknown key to 40 characters in the error field', () => {
    refused({ ['x'.repeat(500)]: 1 }, 'UNKNOWN_OPTION', 'x'.repeat(40));
  });
});
