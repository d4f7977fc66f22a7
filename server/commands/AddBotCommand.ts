import { parseAddBot } from './payloads';
import { RoomCommand, MessagePayload } from './RoomCommand';

/** The host seats a practice bot in a free seat of the lobby. */
export class AddBotCommand extends RoomCommand {
  readonly action = 'addBot';

  execute({ client, message }: MessagePayload): void {
    const parsed = parseAddBot(message);
    if (!parsed.ok) return this.refuse('BAD_PAYLOAD');
    this.settle(this.table.addBot(client.sessionId, () => this.room.newBot(parsed.value.level)));
  }
}
