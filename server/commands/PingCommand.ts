import { parsePing } from '../room/payloads';
import { SERVER_MESSAGES } from '../protocol';
import { RoomCommand, MessagePayload } from './RoomCommand';

/**
 * The SDK's liveness probe: answered at once with `pong` (echoing `t`), so a phone notices a
 * silently lost network in seconds. Outside the message rate limit; its own small bucket drops
 * extra pings without a word.
 */
export class PingCommand extends RoomCommand {
  readonly action = 'ping';

  execute({ client, message }: MessagePayload): void {
    const parsed = parsePing(message);
    if (!parsed.ok) return this.refuse('BAD_PAYLOAD');
    if (!this.room.pingLimiter.take(client.sessionId)) return;
    client.send(SERVER_MESSAGES.pong, parsed.value.t === undefined ? {} : { t: parsed.value.t });
  }
}
