/** A game id is the record's SHA-256 (server/fairness/record.ts `recordId`): 64 lowercase hex characters. */
export const GAME_ID_PATTERN = /^[0-9a-f]{64}$/;

export function isGameId(value: unknown): value is string {
  return typeof value === 'string' && value.length === 64 && GAME_ID_PATTERN.test(value);
}
