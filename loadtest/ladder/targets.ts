// Issue 34's targets, each as a multiple of a fair share. A loss rate is checked by its whole 95 %
// interval (it must lie inside the target, not only the estimate); a drift by its estimate.
import type { BotLevel } from '../../server/bots';
import type { Rate } from './figures';
import type { ReferenceName } from './reference';

export interface Target {
  level: BotLevel;
  reference: ReferenceName;
  players: readonly number[];
  /** Loss rate bounds, for game 1 and for a sitting alike. */
  min?: number;
  max?: number;
  /** Largest drift from game 1 to the sitting, either way. */
  maxDrift?: number;
}

export const TARGETS: readonly Target[] = [
  { level: 'gentle', reference: 'child', players: [4, 6], max: 0.6 },
  { level: 'normal', reference: 'casual', players: [4, 6], min: 0.85, max: 1.15, maxDrift: 0.1 },
  { level: 'sharp', reference: 'casual', players: [4, 6], min: 1.3 },
  { level: 'sharp', reference: 'wary', players: [4], min: 1.15 },
];

/** A bot decides in under this many ms, median. */
export const DECISION_MS = 1;

export function targetFor(level: BotLevel, reference: ReferenceName, players: number): Target | undefined {
  return TARGETS.find((t) => t.level === level && t.reference === reference && t.players.includes(players));
}

export function describe(t: Target): string {
  const parts: string[] = [];
  if (t.min !== undefined && t.max !== undefined) parts.push(`${t.min}–${t.max}`);
  else if (t.min !== undefined) parts.push(`≥ ${t.min}`);
  else if (t.max !== undefined) parts.push(`≤ ${t.max}`);
  if (t.maxDrift !== undefined) parts.push(`drift ≤ ${t.maxDrift}`);
  return parts.join(', ');
}

/** Whether a rate's whole interval meets the target's bounds. */
export function rateMeets(t: Target, r: Rate): boolean {
  return (t.min === undefined || r.low >= t.min) && (t.max === undefined || r.high <= t.max);
}

/**
 * Whether a drift meets the target's bound. The estimate is checked, not the whole interval: a
 * difference of two rates needs about 16,000 games a row at 6 players before a bot that cannot
 * drift has a 95 % interval inside ±0.1. The interval is printed beside it.
 */
export function driftMeets(t: Target, d: { value: number }): boolean {
  return t.maxDrift === undefined || Math.abs(d.value) <= t.maxDrift;
}
