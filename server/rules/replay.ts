import { applyAction } from './apply';
import type { GameOptions } from './options';
import { setupGame } from './setup';
import { timeoutAction } from './timeout';
import type { Game, LogEntry, PlayerId } from './types';

export interface GameRecord {
  seed: string;
  options: GameOptions;
  /** Players in join order, as given to setupGame (the RNG seats them). */
  players: PlayerId[];
  log: LogEntry[];
}

/**
 * Rebuilds a game from its record. An `auto` entry re-draws the default action from the game's
 * PRNG (so the PRNG ends where the original's did) and must match what was recorded.
 */
export function replayGame(record: GameRecord): Game {
  const setup = setupGame(record.seed, record.players, record.options);
  if (!setup.ok) throw new Error(`replay: setup refused (${setup.error.code})`);
  const game = setup.game;
  record.log.forEach((entry, i) => {
    if (entry.auto) {
      const chosen = timeoutAction(game);
      if (!chosen || chosen.player !== entry.player || JSON.stringify(chosen.action) !== JSON.stringify(entry.action)) {
        throw new Error(`replay: default action ${i} differs from the log`);
      }
    }
    const result = applyAction(game, entry.player, entry.action);
    if (!result.ok) throw new Error(`replay: action ${i} refused (${result.error.code})`);
  });
  return game;
}
