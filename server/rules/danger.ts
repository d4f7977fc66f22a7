/**
 * How close a pile of one kind in someone's front is to losing (rules section 9: badges turn
 * yellow from the third card, red for the kind one card away from losing).
 */
export type DangerLevel = 'safe' | 'warning' | 'danger';

export const WARNING_FROM = 3;

export function dangerLevel(count: number, loseCount: number): DangerLevel {
  if (count >= loseCount - 1) return 'danger';
  if (count >= WARNING_FROM) return 'warning';
  return 'safe';
}
