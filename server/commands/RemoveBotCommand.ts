import { parseRemoveBot } from './payloads';
import { RoomCommand, MessagePayload } from './RoomCommand';

/** The host frees a bot's seat in the lobby. */
export class RemoveBotCommand extends RoomCommand {
  readonly action = 'removeBot';

  execute({ client, message }: MessagePayload): void {
    const parsed = parseRemoveBot(message);
    if (!parsed.ok) return this.refuse('BAD_PAYLOAD');
    this.settle(this.table.removeBot(client.sessionId, parsed.value.id));
  }
}
