import { parseEmpty } from './payloads';
import { RoomCommand, MessagePayload } from './RoomCommand';

/** The host starts the game with 2–6 seated players (bots count). */
export class StartCommand extends RoomCommand {
  readonly action = 'start';

  execute({ client, message }: MessagePayload): void {
    if (!parseEmpty(message).ok) return this.refuse('BAD_PAYLOAD');
    this.settle(this.table.start(client.sessionId));
  }
}
