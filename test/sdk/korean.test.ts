/** The SDK's Korean particles: what a speech bubble or a sentence around a name needs. */
import assert from 'node:assert/strict';
import { claimLine, hasFinalConsonant, KIND_NAMES_KO, KINDS, withParticle } from '../../client-sdk/index';

describe('SDK Korean lines', () => {
  it('puts the particle the last syllable takes after each kind name', () => {
    // Written out by hand, not computed: 받침 in 박쥐? no; 전갈 (ㄹ) yes; 두꺼비 no; 노린재 no.
    const expected: Record<string, [string, string, string, string, string]> = {
      바퀴벌레: ['바퀴벌레야', '바퀴벌레가', '바퀴벌레를', '바퀴벌레는', '바퀴벌레로'],
      박쥐: ['박쥐야', '박쥐가', '박쥐를', '박쥐는', '박쥐로'],
      파리: ['파리야', '파리가', '파리를', '파리는', '파리로'],
      두꺼비: ['두꺼비야', '두꺼비가', '두꺼비를', '두꺼비는', '두꺼비로'],
      쥐: ['쥐야', '쥐가', '쥐를', '쥐는', '쥐로'],
      전갈: ['전갈이야', '전갈이', '전갈을', '전갈은', '전갈로'],
      거미: ['거미야', '거미가', '거미를', '거미는', '거미로'],
      노린재: ['노린재야', '노린재가', '노린재를', '노린재는', '노린재로'],
    };
    for (const kind of KINDS) {
      const name = KIND_NAMES_KO[kind];
      const got = (['이야/야', '이/가', '을/를', '은/는', '으로/로'] as const).map((p) => withParticle(name, p));
      assert.deepEqual(got, expected[name], name);
      assert.equal(claimLine(kind), `이건 ${expected[name][0]}!`);
    }
    assert.equal(claimLine('scorpion'), '이건 전갈이야!');
    assert.equal(claimLine('rat'), '이건 쥐야!');
  });

  it('reads names: a final consonant, none, ㄹ before (으)로, and a name that is not Hangul', () => {
    assert.equal(withParticle('곰', '으로/로'), '곰으로');
    assert.equal(withParticle('하늘', '으로/로'), '하늘로');
    assert.equal(withParticle('민수님', '이/가'), '민수님이');
    assert.equal(withParticle('로봇 별이', '이/가'), '로봇 별이가');
    assert.equal(withParticle('Tom', '이/가'), 'Tom가');
    assert.equal(hasFinalConsonant('판다'), false);
    assert.equal(hasFinalConsonant('곰'), true);
    assert.equal(hasFinalConsonant(''), false);
    assert.equal(claimLine('rat', { ...KIND_NAMES_KO, rat: '곰' }), '이건 곰이야!', "a skin's names");
  });
});
