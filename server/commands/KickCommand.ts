import { parseKick } from '../room/payloads';
import { RoomCommand, MessagePayload } from './RoomCommand';

/** The host removes a seated person in the lobby or at the results screen; they may not come back (PROTOCOL v3). */
export class KickCommand extends RoomCommand {
  readonly action = 'kick';

  execute({ client, message }: MessagePayload): void {
    const parsed = parseKick(message);
    if (!parsed.ok) return this.refuse('BAD_PAYLOAD');
    this.settle(this.table.kick(client.sessionId, parsed.value.id));
  }
}
