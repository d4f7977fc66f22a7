import assert from 'node:assert/strict';
import { isShortName, normalizeRoomCode, parseRefusalText, refusalText, ROOM_MESSAGES } from '../../server/protocol';

describe('protocol: the wire facts in one place', () => {
  it('normalizes a room code as a child types it, and refuses what is not one', () => {
    for (const typed of ['123456', '123 456', '123-456', '  123456 ', '12 34 56', '123 - 456'])
      assert.equal(normalizeRoomCode(typed), '123456', JSON.stringify(typed));
    for (const wrong of [
      '',
      '   ',
      '12345',
      '1234567',
      '12a456',
      '-123456',
      '123456-',
      '１２３４５６',
      '123_456',
      '__proto__',
      123456,
      null,
    ])
      assert.equal(normalizeRoomCode(wrong), null, JSON.stringify(wrong));
  });

  it('writes a refusal as "CODE: 한국어 (field)" and reads back exactly what it wrote', () => {
    const text = refusalText('BAD_OPTION', '게임 설정 값이 올바르지 않아요.', 'loseCount');
    assert.equal(text, 'BAD_OPTION: 게임 설정 값이 올바르지 않아요. (loseCount)');
    assert.deepEqual(parseRefusalText(text), { code: 'BAD_OPTION', field: 'loseCount' });
    assert.deepEqual(parseRefusalText(refusalText('ROOM_FULL', ROOM_MESSAGES.ROOM_FULL)), { code: 'ROOM_FULL' });
    // A field that is not a short plain name is never written, so never echoed.
    assert.equal(refusalText('BAD_OPTION', 'x', 'a'.repeat(33)), 'BAD_OPTION: x');
    assert.equal(refusalText('BAD_OPTION', 'x', '<b>'), 'BAD_OPTION: x');
    for (const text of ['NOT_A_CODE: x', '__PROTO__: x', 'room not found', undefined, 42]) assert.equal(parseRefusalText(text), null);
  });

  it('names are short plain words', () => {
    assert.ok(isShortName('offer'));
    assert.ok(isShortName('a'.repeat(32)));
    assert.ok(!isShortName('a'.repeat(33)));
    assert.ok(!isShortName(''));
    assert.ok(!isShortName('a b'));
    assert.ok(!isShortName(7));
  });
});
