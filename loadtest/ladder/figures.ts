// Loss rates as a multiple of a fair share (1.00 = 1/N), with a 95 % interval by table: the
// tables of a row are independent, the games of one sitting are not (the same bots throughout).

export interface Rate {
  /** Loss rate over fair share. */
  value: number;
  low: number;
  high: number;
  /** Standard error, in the same units. */
  se: number;
  games: number;
  tables: number;
}

const Z95 = 1.96;

/** `lost[t]` holds table t's games: true where the reference player lost. */
export function lossRate(lost: readonly (readonly boolean[])[], players: number): Rate {
  const shares = lost.map((games) => games.filter(Boolean).length / games.length);
  const n = shares.length;
  const mean = shares.reduce((a, b) => a + b, 0) / n;
  const variance = n > 1 ? shares.reduce((a, s) => a + (s - mean) ** 2, 0) / (n - 1) : 0;
  const se = Math.sqrt(variance / n) * players;
  const value = mean * players;
  const games = lost.reduce((a, g) => a + g.length, 0);
  return { value, low: value - Z95 * se, high: value + Z95 * se, se, games, tables: n };
}

/** Sitting minus game 1: how far the bots drift over a sitting. */
export function drift(first: Rate, sitting: Rate): { value: number; low: number; high: number } {
  const value = sitting.value - first.value;
  const half = Z95 * Math.hypot(first.se, sitting.se);
  return { value, low: value - half, high: value + half };
}

export const fmt = (x: number) => x.toFixed(2);
export const fmtRate = (r: Rate) => `${fmt(r.value)} [${fmt(r.low)}–${fmt(r.high)}]`;
