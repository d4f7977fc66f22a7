/** Korean names for practice bots; "로봇" up front so a child can tell a bot from a person. */
export const BOT_NICKNAMES_KO: readonly string[] = Object.freeze([
  '로봇 토리',
  '로봇 별이',
  '로봇 콩이',
  '로봇 하늘',
  '로봇 보리',
  '로봇 달이',
]);

/**
 * A distinct name for the table's `index`-th bot (0-based). A table has at most five bots, so
 * the list never runs out; past it a number keeps names distinct anyway.
 */
export function botNickname(index: number): string {
  const i = Number.isInteger(index) && index >= 0 ? index : 0;
  const base = BOT_NICKNAMES_KO[i % BOT_NICKNAMES_KO.length];
  return i < BOT_NICKNAMES_KO.length ? base : `${base} ${Math.floor(i / BOT_NICKNAMES_KO.length) + 1}`;
}
