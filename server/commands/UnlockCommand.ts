import { parseEmpty } from './payloads';
import { RoomCommand, MessagePayload } from './RoomCommand';

/** The creator opens a locked table again (issue 32): a stand-in host cannot. */
export class UnlockCommand extends RoomCommand {
  readonly action = 'unlock';

  execute({ client, message }: MessagePayload): void {
    if (!parseEmpty(message).ok) return this.refuse('BAD_PAYLOAD');
    this.settle(this.table.unlock(client.sessionId));
  }
}
