/** Korean sentence pieces (no pictures here, so tests can import it without the bundler). */

/** "이건 쥐야!" / "이건 고양이야!": the copula follows the last syllable (받침 → 이야). */
export function claimLine(name: string): string {
  return `이건 ${name}${hasFinalConsonant(name) ? '이야' : '야'}!`;
}

export function hasFinalConsonant(word: string): boolean {
  const code = word.charCodeAt(word.length - 1) - 0xac00;
  return code >= 0 && code <= 11171 && code % 28 !== 0;
}
