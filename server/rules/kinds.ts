/** The eight kinds of critter, in the order the rules document lists them. */
export const KINDS = ['cockroach', 'bat', 'fly', 'toad', 'rat', 'scorpion', 'spider', 'stinkbug'] as const;
export type Kind = (typeof KINDS)[number];

export const KIND_NAMES_KO: Readonly<Record<Kind, string>> = {
  cockroach: '바퀴벌레',
  bat: '박쥐',
  fly: '파리',
  toad: '두꺼비',
  rat: '쥐',
  scorpion: '전갈',
  spider: '거미',
  stinkbug: '노린재',
};

export const CARDS_PER_KIND = 8;
export const DECK_SIZE = KINDS.length * CARDS_PER_KIND;

const KIND_SET: ReadonlySet<unknown> = new Set<unknown>(KINDS);
export function isKind(value: unknown): value is Kind {
  return KIND_SET.has(value);
}
