import { parseEmpty } from './payloads';
import { RoomCommand, MessagePayload } from './RoomCommand';

/** The host locks the table at any time: nobody new sits down or watches (issue 32). */
export class LockCommand extends RoomCommand {
  readonly action = 'lock';

  execute({ client, message }: MessagePayload): void {
    if (!parseEmpty(message).ok) return this.refuse('BAD_PAYLOAD');
    this.settle(this.table.lock(client.sessionId));
  }
}
