import { parseEmpty } from './payloads';
import { RoomCommand, MessagePayload } from './RoomCommand';

/** The host, at the results screen: back to the lobby with the same options (PROTOCOL v2). */
export class RematchCommand extends RoomCommand {
  readonly action = 'rematch';

  execute({ client, message }: MessagePayload): void {
    if (!parseEmpty(message).ok) return this.refuse('BAD_PAYLOAD');
    this.settle(this.table.rematch(client.sessionId));
  }
}
