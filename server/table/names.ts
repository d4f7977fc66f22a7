/**
 * How two names compare on a child's screen: the same letters and digits whatever their width or
 * case, with nothing else counting (spaces, marks drawn over a letter, symbols: "엄마", "엄 마" and
 * "엄마" with a combining accent read alike).
 */
function looks(name: string): string {
  return name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]|\p{Lm}/gu, '');
}

/**
 * The name a newcomer shows at this table (issue 32 "Two people at one table never show the same
 * nickname"): their own, or, when someone present already shows one that reads the same, their own
 * with the first free number after a space ("엄마 2", "엄마 3"), the name shortened to keep within
 * the nickname's length.
 */
export function distinctNickname(wanted: string, taken: Iterable<string>, maxLength: number): string {
  const seen = new Set<string>();
  for (const name of taken) seen.add(looks(name));
  if (!seen.has(looks(wanted))) return wanted;
  const points = [...wanted];
  for (let n = 2; ; n++) {
    const suffix = ` ${n}`;
    const base = points
      .slice(0, maxLength - suffix.length)
      .join('')
      .trimEnd();
    const candidate = `${base}${suffix}`;
    if (!seen.has(looks(candidate))) return candidate;
  }
}
