import type { SeatSnapshot } from '../../client-sdk/index';

const COLOURS = ['#ff9f6b', '#6bc4ff', '#9b8cff', '#5fd39a', '#f2b134', '#ff7fb0', '#3fbfb2', '#f07a7a', '#8fb84a', '#c58cf0'];

/** FNV-1a: a small, stable hash of the player id (the same on every phone). */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

let cacheKey = '';
let cache = new Map<string, string>();

/**
 * Colours derived from the players alone: each id prefers the colour of its hash, and ids taken in
 * sorted order step to the next free colour on a clash. Every phone computes the same colours,
 * and they hold as long as the same people sit at the table (a whole game).
 */
export function colourOf(id: string, seats: readonly SeatSnapshot[]): string {
  const ids = seats.map((s) => s.id).sort();
  const key = ids.join(',');
  if (key !== cacheKey) {
    const taken = new Set<number>();
    cache = new Map();
    for (const pid of ids) {
      let i = hash(pid) % COLOURS.length;
      while (taken.has(i) && taken.size < COLOURS.length) i = (i + 1) % COLOURS.length;
      taken.add(i);
      cache.set(pid, COLOURS[i]);
    }
    cacheKey = key;
  }
  return cache.get(id) ?? COLOURS[hash(id) % COLOURS.length];
}
