// Practice bots. A bot sees exactly what a player in its seat may see (the rules' view for that
// seat) and nothing else: no Game, no Match, no other hand, so it cannot cheat by construction.
import { randInt, RngState, seedRng } from '../rules/rng';
import type { Action } from '../rules/types';
import { BotLevel, BOT_LEVELS, isBotLevel } from '../protocol';
import type { PlayerView } from '../rules/view';
import { easyMove } from './easy';
import { gentleMove } from './gentle';
import { TableMemory } from './memory';
import { normalMove } from './normal';
import { toActIn, viewerOf } from './seat';
import { sharpMove } from './sharp';
import { smartMove } from './smart';

export { BOT_NICKNAMES_KO, botNickname } from './nicknames';

export { BOT_LEVELS, isBotLevel };
export type { BotLevel };

export interface Bot {
  readonly level: BotLevel;
  /**
   * The move for the seat whose view this is (the view of its own seat, `viewFor(game, id)`);
   * throws if that seat is not the one to act. The view is only read, never changed.
   */
  decide(view: PlayerView): Action;
  /** A think time in whole ms, drawn between 40 % and 100 % of `maxMs` (0 if maxMs ≤ 0). */
  thinkMs(maxMs: number): number;
}

/**
 * A bot with its own seeded randomness: the same seed and the same views give the same moves.
 * Moves and think times draw from separate streams, so timing never changes what is played.
 */
export function createBot(level: BotLevel, seed: string): Bot {
  if (!isBotLevel(level)) throw new Error(`unknown bot level ${String(level)}`);
  const moves: RngState = seedRng(`${seed}/moves`);
  const think: RngState = seedRng(`${seed}/think`);
  // Only `smart` (an older name) remembers past rounds and games; gentle, normal and sharp keep
  // nothing between decisions, so a sitting of ten games with the same bots cannot drift.
  const memory = level === 'smart' ? new TableMemory() : null;
  return {
    level,
    decide(view) {
      const me = viewerOf(view);
      if (toActIn(view) !== me) throw new Error("bot: not this seat's turn");
      switch (level) {
        case 'easy':
          return easyMove(view, me, moves);
        case 'smart':
          return smartMove(view, me, moves, memory!);
        case 'gentle':
          return gentleMove(view, me, moves);
        case 'normal':
          return normalMove(view, me, moves);
        case 'sharp':
          return sharpMove(view, me, moves);
      }
    },
    thinkMs(maxMs) {
      if (!Number.isFinite(maxMs) || maxMs <= 0) return 0;
      const top = Math.floor(maxMs);
      const floor = Math.ceil(top * 0.4);
      return floor + randInt(think, top - floor + 1);
    },
  };
}
