import { parseEmpty } from '../room/payloads';
import { RoomCommand, MessagePayload } from './RoomCommand';

/** The host, at the results screen: back to the lobby with the same options (PROTOCOL v2). */
export class RematchCommand extends RoomCommand {
  readonly action = 'rematch';

  execute({ client, message }: MessagePayload): void {
    if (!parseEmpty(message).ok) return this.refuse('BAD_PAYLOAD');
    if (this.room.spectators.has(client.sessionId)) return this.refuse('SPECTATOR');
    if (client.sessionId !== this.state.hostId) return this.refuse('NOT_HOST');
    if (this.state.phase !== 'ended') return this.refuse('GAME_NOT_OVER');
    this.room.rematch();
  }
}
