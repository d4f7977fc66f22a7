import { MIN_PLAYERS, MAX_PLAYERS } from '../rules';
import { parseEmpty } from '../room/payloads';
import { RoomCommand, MessagePayload } from './RoomCommand';

/** The host starts the game with 2–6 seated players (bots count). */
export class StartCommand extends RoomCommand {
  readonly action = 'start';

  execute({ client, message }: MessagePayload): void {
    if (!parseEmpty(message).ok) return this.refuse('BAD_PAYLOAD');
    if (this.room.spectators.has(client.sessionId)) return this.refuse('SPECTATOR');
    if (this.state.phase !== 'lobby') return this.refuse('ALREADY_STARTED');
    if (client.sessionId !== this.state.hostId) return this.refuse('NOT_HOST');
    const seated = this.state.players.size;
    if (seated < MIN_PLAYERS || seated > MAX_PLAYERS) return this.refuse('NOT_ENOUGH_PLAYERS');
    this.room.startGame();
  }
}
