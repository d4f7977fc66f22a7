import { parseRemoveBot } from '../room/payloads';
import { RoomCommand, MessagePayload } from './RoomCommand';

/** The host frees a bot's seat in the lobby. */
export class RemoveBotCommand extends RoomCommand {
  readonly action = 'removeBot';

  execute({ client, message }: MessagePayload): void {
    const parsed = parseRemoveBot(message);
    if (!parsed.ok) return this.refuse('BAD_PAYLOAD');
    if (this.refuseUnlessHostInLobby(client)) return;
    if (!this.table.isBot(parsed.value.id)) return this.refuse('NOT_A_BOT');
    this.room.removeBot(parsed.value.id);
  }
}
