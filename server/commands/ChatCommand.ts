import { parseChat } from './payloads';
import { SERVER_MESSAGES } from '../protocol';
import { RoomCommand, MessagePayload } from './RoomCommand';

/** A quick-chat phrase (a key, never free text) from a seated player to the whole room. */
export class ChatCommand extends RoomCommand {
  readonly action = 'chat';

  execute({ client, message }: MessagePayload): void {
    const parsed = parseChat(message);
    if (!parsed.ok) return this.refuse('BAD_PAYLOAD');
    if (!this.table.isSeated(client.sessionId)) return this.refuse('SPECTATOR');
    if (!this.table.options.quickChat) return this.refuse('CHAT_OFF');
    if (!this.room.chatLimiter.take(client.sessionId)) return this.refuse('RATE_LIMITED');
    this.room.broadcast(SERVER_MESSAGES.chat, { from: client.sessionId, phrase: parsed.value.phrase });
  }
}
