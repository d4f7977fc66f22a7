import { parsePing } from './payloads';
import { SERVER_MESSAGES } from '../protocol';
import { RoomCommand, MessagePayload } from './RoomCommand';

/**
 * The SDK's liveness probe: answered at once with `pong` (echoing `t`), so a phone notices a
 * silently lost network in seconds. The room admits it first (server/room/admission.ts
 * `admitPing`: charged like any message, within a small ping bucket), so a malformed ping is
 * one more refused message and a flood of either kind is closed.
 */
export class PingCommand extends RoomCommand {
  readonly action = 'ping';

  execute({ client, message }: MessagePayload): void {
    const parsed = parsePing(message);
    if (!parsed.ok) return this.refuse('BAD_PAYLOAD');
    client.send(SERVER_MESSAGES.pong, parsed.value.t === undefined ? {} : { t: parsed.value.t });
  }
}
