import type { Action } from '../rules';
import type { Parsed } from '../room/payloads';
import { RoomCommand, MessagePayload } from './RoomCommand';

/**
 * One game action from one client: parse the payload, check it is this client's game to play,
 * then hand it to the room's single path (rules → log → projection → patch).
 */
export abstract class PlayCommand extends RoomCommand {
  protected abstract parse(raw: unknown): Parsed<Action>;

  execute({ client, message }: MessagePayload): void {
    const parsed = this.parse(message);
    if (!parsed.ok) return this.refuse('BAD_PAYLOAD');
    const match = this.room.match;
    if (!match || this.state.phase !== 'playing') return this.refuse('NOT_PLAYING');
    if (this.room.spectators.has(client.sessionId)) return this.refuse('SPECTATOR');
    if (parsed.step !== undefined && parsed.step !== match.game.step) return this.refuse('STALE_ACTION');
    this.room.play(client, parsed.value, this.action, parsed.step);
  }
}
