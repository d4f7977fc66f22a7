import { parseKick } from './payloads';
import { RoomCommand, MessagePayload } from './RoomCommand';

/** The creator removes a person: a player in the lobby or at the results screen, a watcher at any time; they may not come back (PROTOCOL v3, issue 32). */
export class KickCommand extends RoomCommand {
  readonly action = 'kick';

  execute({ client, message }: MessagePayload): void {
    const parsed = parseKick(message);
    if (!parsed.ok) return this.refuse('BAD_PAYLOAD');
    this.settle(this.table.kick(client.sessionId, parsed.value.id));
  }
}
