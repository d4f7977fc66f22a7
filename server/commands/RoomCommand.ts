import { Command } from '@colyseus/command';
import type { Client } from 'colyseus';
import type { CockroachRoom } from '../room/CockroachRoom';
import type { ErrorCode } from '../room/errors';

export interface MessagePayload {
  client: Client;
  message: unknown;
}

/**
 * Base of every command. `validate()` is deliberately not used: the dispatcher skips a command
 * whose validate() fails without a word, and every refusal here owes the sender an `error`.
 */
export abstract class RoomCommand extends Command<CockroachRoom, MessagePayload> {
  /** The message type this command answers, echoed in error replies. */
  abstract readonly action: string;

  protected refuse(code: ErrorCode): void {
    this.room.refuse(this.payload.client, code, this.action);
  }
}
