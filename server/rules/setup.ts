import { CARDS_PER_KIND, DECK_SIZE, Kind, KINDS } from './kinds';
import { GameOptions, resolveOptions } from './options';
import { seedRng, shuffle } from './rng';
import { ruleError, RuleError } from './errors';
import type { Game, PlayerId, Round } from './types';

export const MIN_PLAYERS = 2;
export const MAX_PLAYERS = 6;
/** Cards set aside unseen in a two-player game (rules section 4). */
export const TWO_PLAYER_REMOVED = 10;

export function newRound(no: number, starter: PlayerId): Round {
  return { no, starter, card: null, holder: null, lastPasser: null, claim: null, seen: [], claims: [], peeked: false };
}

export type SetupResult = { ok: true; game: Game } | { ok: false; error: RuleError };

/**
 * Shuffles, deals and seats a new game. `players` is in join order; the RNG then picks the seat
 * order, whose first seat is the first starter and is dealt first (so receives the most cards).
 */
export function setupGame(seed: string, players: readonly PlayerId[], options: GameOptions): SetupResult {
  const unique = new Set(players);
  if (players.length < MIN_PLAYERS || players.length > MAX_PLAYERS || unique.size !== players.length) {
    return { ok: false, error: ruleError('BAD_PLAYERS') };
  }
  const rng = seedRng(seed);
  // Two independent shuffles: which kind each id has, and the order ids are dealt in.
  const kinds: Kind[] = shuffle(
    rng,
    KINDS.flatMap((k) => Array<Kind>(CARDS_PER_KIND).fill(k)),
  );
  const deck = shuffle(
    rng,
    Array.from({ length: DECK_SIZE }, (_, id) => id),
  );
  const order = shuffle(rng, [...players]);

  const removed = order.length === 2 ? deck.splice(0, TWO_PLAYER_REMOVED) : [];
  const hands: Record<PlayerId, number[]> = {};
  const fronts: Record<PlayerId, number[]> = {};
  for (const p of order) {
    hands[p] = [];
    fronts[p] = [];
  }
  deck.forEach((id, i) => hands[order[i % order.length]].push(id));

  return {
    ok: true,
    game: {
      v: 1,
      options: resolveOptions(options, order.length),
      rng,
      kinds,
      order,
      hands,
      fronts,
      removed,
      round: newRound(1, order[0]),
      step: 0,
      phase: 'playing',
      loser: null,
      lossReason: null,
      lastReveal: null,
    },
  };
}
