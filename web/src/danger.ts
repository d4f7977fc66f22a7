import type { DangerLevel } from '../../client-sdk/index';

/**
 * The SDK's danger levels (seat.danger[kind]) in words and signs, so a badge never speaks by
 * colour alone: 'warning' from the third card, 'danger' one card before losing (client-sdk docs,
 * rules section 9). With 4 to lose the third card is already one away, so it is red at once; the
 * yellow badge shows only when there is room between the two (5 to lose).
 */
export const DANGER_WORD: Record<DangerLevel, string> = { safe: '', warning: '조심', danger: '위험' };
export const DANGER_ICON: Record<DangerLevel, string> = { safe: '', warning: '⚠️', danger: '🚨' };

const WARNING_FROM = 3;

/** The help line for this game's `loseCount`: exactly the badges the table will show. */
export function dangerLegend(loseCount: number): string {
  const red = loseCount - 1;
  const redPart = `${red}장이면 ${DANGER_ICON.danger} 빨간 '위험' 배지: 한 장만 더 오면 져요!`;
  if (WARNING_FROM < red) return `같은 그림이 ${WARNING_FROM}장이면 ${DANGER_ICON.warning} 노란 '조심' 배지, ${redPart}`;
  return `같은 그림이 ${redPart}`;
}

/** What a screen reader says for one front badge: "쥐 3장, 위험: 한 장만 더 오면 져요". */
export function badgeLabel(name: string, count: number, level: DangerLevel): string {
  const base = `${name} ${count}장`;
  if (level === 'danger') return `${base}, 위험: 한 장만 더 오면 져요`;
  if (level === 'warning') return `${base}, 조심: 많이 모였어요`;
  return base;
}
