import { Command } from '@colyseus/command';
import type { Client } from 'colyseus';
import type { CockroachRoom } from '../room/CockroachRoom';
import type { ErrorCode } from '../protocol';
import type { RuleError } from '../rules';

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

  protected refuse(code: ErrorCode | RuleError): void {
    this.room.refuse(this.payload.client, code, this.action);
  }

  protected get table() {
    return this.room.table;
  }

  /** Lobby management belongs to the host, in the lobby. */
  protected refuseUnlessHostInLobby(client: Client): boolean {
    if (this.room.spectators.has(client.sessionId)) this.refuse('SPECTATOR');
    else if (client.sessionId !== this.state.hostId) this.refuse('NOT_HOST');
    else if (this.state.phase !== 'lobby') this.refuse('NOT_IN_LOBBY');
    else return false;
    return true;
  }
}
