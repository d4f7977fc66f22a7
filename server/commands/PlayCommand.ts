import type { Action } from '../rules';
import type { Parsed } from './payloads';
import { RoomCommand, MessagePayload } from './RoomCommand';

/**
 * One game move from one client (or a bot, through the same path): parse the payload, then hand
 * it to the table (rules → log → one patch), which says whether it applied.
 */
export abstract class PlayCommand extends RoomCommand {
  protected abstract parse(raw: unknown): Parsed<Action>;

  execute({ client, message }: MessagePayload): void {
    const parsed = this.parse(message);
    if (!parsed.ok) return this.refuse('BAD_PAYLOAD');
    this.settle(this.table.move(client.sessionId, parsed.value, parsed.step));
  }
}
