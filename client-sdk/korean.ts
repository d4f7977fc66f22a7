/**
 * Korean particles for lines built around a name (a kind's, a player's): the particle follows the
 * last syllable of the word it is attached to, so a fixed "야" or "가" is wrong for half of the
 * names ("전갈야" should be "전갈이야").
 */
import { KIND_NAMES_KO, Kind } from '../server/rules/kinds';

const HANGUL_FIRST = 0xac00;
const HANGUL_LAST = 0xd7a3;
/** The final consonant ㄹ: "(으)로" takes plain 로 after it, as after a vowel. */
const RIEUL = 8;

/** The last syllable's final consonant (받침): 0 for none, 1–27 for one; 0 too when the word does not end in Hangul. */
function finalOf(word: string): number {
  const last = word.trimEnd().slice(-1).charCodeAt(0);
  return last >= HANGUL_FIRST && last <= HANGUL_LAST ? (last - HANGUL_FIRST) % 28 : 0;
}

/** Whether the word's last syllable has a final consonant (받침): "전갈" yes, "쥐" no. */
export function hasFinalConsonant(word: string): boolean {
  return finalOf(word) !== 0;
}

/** The particle pairs, written as they read after a final consonant / after none. */
export type Particle = '이/가' | '을/를' | '은/는' | '이야/야' | '이에요/예요' | '과/와' | '으로/로';

/**
 * `word` with the particle its last syllable takes: `withParticle('전갈', '이야/야')` is "전갈이야",
 * `withParticle('쥐', '을/를')` is "쥐를". "(으)로" after ㄹ is plain 로 ("전갈로"). A word that does
 * not end in Hangul (a Latin name) is read as ending without a final consonant.
 */
export function withParticle(word: string, particle: Particle): string {
  const [afterConsonant, afterVowel] = particle.split('/');
  const final = finalOf(word);
  const consonant = final !== 0 && !(particle === '으로/로' && final === RIEUL);
  return `${word}${consonant ? afterConsonant : afterVowel}`;
}

/**
 * The claim as the passer says it, for a speech bubble: "이건 전갈이야!", "이건 쥐야!". `names`
 * is the skin's names (default: the rules' Korean names, `KIND_NAMES_KO`).
 */
export function claimLine(kind: Kind, names: Readonly<Record<Kind, string>> = KIND_NAMES_KO): string {
  return `이건 ${withParticle(names[kind], '이야/야')}!`;
}
