import { Command } from '@colyseus/command';
import type { CockroachRoom } from '../room/CockroachRoom';

/**
 * The turn clock ran out: the rules pick the default action (rules 8.5) from the game's PRNG,
 * and it takes the same path as a player's action, logged as `auto`.
 */
export class TimeoutCommand extends Command<CockroachRoom, { step: number }> {
  execute({ step }: { step: number }): void {
    this.room.playDefault(step);
  }
}
