import type { Action } from '../rules';
import type { Parsed } from '../room/payloads';
import { RoomCommand, MessagePayload } from './RoomCommand';

/**
 * One game move from one client (or a bot, through the same path): parse the payload, check it
 * is this client's game to play, then hand it to the table (rules → log → projection → patch).
 */
export abstract class PlayCommand extends RoomCommand {
  protected abstract parse(raw: unknown): Parsed<Action>;

  execute({ client, message }: MessagePayload): void {
    const parsed = this.parse(message);
    if (!parsed.ok) return this.refuse('BAD_PAYLOAD');
    if (this.state.phase !== 'playing') return this.refuse('NOT_PLAYING');
    if (this.room.spectators.has(client.sessionId)) return this.refuse('SPECTATOR');
    const outcome = this.table.play(client.sessionId, parsed.value, this.action, parsed.step);
    if (!outcome.ok) this.refuse(outcome.code);
  }
}
