import assert from 'node:assert/strict';
import { parseJoinOptions } from '../../server/room/joinOptions';
import { isReservedNickname, MAX_MARKS_PER_BASE, parseNickname } from '../../server/identity/nickname';

describe('join options: nicknames and entropy', () => {
  it('accepts names of letters, digits, symbols and emoji, NFC-normalised and trimmed', () => {
    const ok: [string, string][] = [
      ['민수', '민수'],
      ['  지우  ', '지우'],
      ['🦊', '🦊'],
      ['Zoë', 'Zoë'],
      ['Zoe\u0308', 'Zoë'], // decomposed → composed (NFC)
      ['\u1100\u1161', '가'], // conjoining jamo → one syllable
      ['a b', 'a b'],
      ['ㅋㅋ', 'ㅋㅋ'],
      ['❤️', '❤️'],
      ['👍🏽', '👍🏽'],
      ['1️⃣', '1️⃣'],
      ['👨‍👩‍👧', '👨‍👩‍👧'], // a ZWJ family: allowed on purpose
      ['👩‍❤️‍👨', '👩‍❤️‍👨'],
      ['Tiếng', 'Tiếng'], // two marks on one base (Vietnamese)
      ['😀'.repeat(12), '😀'.repeat(12)],
    ];
    for (const [raw, expected] of ok) assert.equal(parseNickname(raw), expected, JSON.stringify(raw));
  });

  it('refuses broken, invisible and unassigned text', () => {
    const bad = [
      '\uDB40A\uDB40B', // lone surrogates: an encoder would merge them into invisible tags
      '\uD83E',
      'a\uDC00',
      '\u3164',
      '\u115F',
      '\u1160',
      '\uFFA0',
      '\u2800', // fillers and the braille blank
      '\u3164\u3164민', // a filler next to a real name still hides it
      '\uFFFF',
      '\uFDD0',
      'a\u{10FFFF}', // noncharacters
      '\u0378',
      '\u{E0041}', // unassigned; a tag character
      'a\u200Bb',
      'a\u200Db',
      '\u200D🦊',
      '🦊\u200D',
      'a\u2060b',
      'x\uFEFFy',
      'a\u00ADb', // zero-width, soft hyphen
      'a\u202Eb', // bidi override
      'a\u00A0b',
      'a\u3000b',
      'a\u2009b', // spaces that show as nothing
      '\u0301a',
      'x' + '\u0301'.repeat(MAX_MARKS_PER_BASE + 1),
      'a' + '\u0301'.repeat(11), // marks alone, stacked marks
      '...',
      '\u0301',
      '  ',
      '',
      '😀'.repeat(13),
      'a\u0007b',
      'a\nb',
      '\uE000', // no visible, too long, control, private use
    ];
    for (const raw of bad) assert.equal(parseNickname(raw), null, JSON.stringify(raw));
    assert.equal(parseNickname(42), null);
    assert.equal(parseNickname('a'.repeat(201)), null);
  });

  it('keeps a practice bot’s name for bots, however it is dressed up (issue 32)', () => {
    for (const name of ['로봇 토리', '로봇', ' 로 봇 친구', 'ʼ로봇', 'ㅣ로봇', '★로★봇★', '우리로봇', '로\u0301봇'])
      assert.equal(isReservedNickname(name), true, name);
    for (const name of ['로보', '봇로', '토리', '로 보 트', 'robot']) assert.equal(isReservedNickname(name), false, name);
  });

  it('takes an optional entropy of 16–64 hex characters from players only', () => {
    const join = (raw: unknown) => parseJoinOptions(raw);
    const ok = join({ nickname: '민수', entropy: 'a'.repeat(16) });
    assert.ok(ok.ok && ok.join.entropy === 'a'.repeat(16));
    const none = join({ nickname: '민수' });
    assert.ok(none.ok && none.join.entropy === '');
    const long = join({ nickname: '민수', entropy: '0123456789ABCDEFabcdef'.repeat(2).slice(0, 44) });
    assert.ok(long.ok);
    for (const entropy of ['a'.repeat(15), 'a'.repeat(65), 'g'.repeat(16), 1234567890123456, '', ' '.repeat(16), null]) {
      assert.deepEqual(join({ nickname: '민수', entropy }), { ok: false, code: 'BAD_OPTION', field: 'entropy' }, JSON.stringify(entropy));
    }
    assert.deepEqual(join({ spectator: true, entropy: 'a'.repeat(16) }), { ok: false, code: 'BAD_OPTION', field: 'entropy' });
    const watcher = join({ spectator: true });
    assert.ok(watcher.ok && watcher.join.entropy === '');
  });

  it('reads only own keys: a prototype does not lend options', () => {
    const tricky = Object.create(null);
    tricky.nickname = '민수';
    assert.ok(parseJoinOptions(tricky).ok);
    assert.deepEqual(parseJoinOptions(JSON.parse('{"nickname":"민수","__proto__":{"spectator":true}}')), {
      ok: false,
      code: 'UNKNOWN_OPTION',
      field: '__proto__',
    });
  });
});
