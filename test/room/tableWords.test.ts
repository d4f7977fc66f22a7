import assert from 'node:assert/strict';
import { wireCode, wireRefusal } from '../../server/commands/tableWords';
import { KICK_REFUSALS, ROOM_MESSAGES, RULE_MESSAGES } from '../../server/protocol';
import { TABLE_REFUSALS } from '../../server/table/vocabulary';

describe("the table's words on the wire (server/commands/tableWords.ts)", () => {
  it('gives every refusal of the table a wire code with a Korean sentence', () => {
    for (const refusal of TABLE_REFUSALS) {
      const code = wireCode(refusal);
      const sentence = (ROOM_MESSAGES as Record<string, string>)[code] ?? (RULE_MESSAGES as Record<string, string>)[code];
      assert.ok(sentence && /[가-힣]/.test(sentence), `${refusal} → ${code} has no Korean sentence`);
    }
  });

  it("says a missing or self target with the rules' codes, in a kick's own sentence for a kick", () => {
    assert.deepEqual(wireRefusal('NOBODY_THERE', 'kick'), { code: 'UNKNOWN_PLAYER', message: KICK_REFUSALS.UNKNOWN_PLAYER });
    assert.deepEqual(wireRefusal('ONESELF', 'kick'), { code: 'CANNOT_TARGET_SELF', message: KICK_REFUSALS.CANNOT_TARGET_SELF });
    assert.deepEqual(wireRefusal('NOBODY_THERE', 'removeBot'), { code: 'UNKNOWN_PLAYER', message: RULE_MESSAGES.UNKNOWN_PLAYER });
    assert.equal(wireCode('ONESELF'), 'CANNOT_TARGET_SELF');
  });

  it("keeps the other codes and passes the rules' refusals through as they are", () => {
    assert.equal(wireRefusal('LOCKED', 'join'), 'LOCKED');
    assert.equal(wireRefusal('NOT_HOST', 'kick'), 'NOT_HOST');
    const rule = { code: 'NOT_YOUR_TURN', message: RULE_MESSAGES.NOT_YOUR_TURN } as const;
    assert.equal(wireRefusal(rule, 'offer'), rule);
  });
});
