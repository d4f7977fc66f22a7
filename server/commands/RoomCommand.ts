import { Command } from '@colyseus/command';
import type { Client, Room } from 'colyseus';
import type { BotLevel } from '../protocol';
import type { CockroachState } from '../schema/CockroachState';
import type { Step, Table } from '../table/Table';
import { wireRefusal, type WireRefusal } from './tableWords';
import type { RateLimiter } from '../base/RateLimiter';

/**
 * What a command may use of its room. Named here, so the commands depend on this interface and
 * the room (server/room/CockroachRoom.ts) implements it: no import runs from a command back to
 * the room.
 */
export interface CommandRoom extends Room<CockroachState> {
  readonly table: Table;
  readonly chatLimiter: RateLimiter;
  /** A new practice bot of this level: its id and its decider, for the table to seat. */
  newBot(level: BotLevel): ReturnType<Parameters<Table['addBot']>[1]>;
}

export interface MessagePayload {
  client: Client;
  message: unknown;
  /** Filled in by the command: whether what it asked of the table applied (the room's flood control reads it). */
  outcome?: CommandOutcome;
}

/** A command's answer in the wire's words: applied, or the refusal its sender is told. */
export type CommandOutcome = { ok: true } | { ok: false; code: WireRefusal };

/**
 * Base of every command. `validate()` is deliberately not used: the dispatcher skips a command
 * whose validate() fails without a word, and every refusal here owes the sender an `error`.
 */
export abstract class RoomCommand extends Command<CommandRoom, MessagePayload> {
  /** The message type this command answers, echoed in error replies. */
  abstract readonly action: string;

  /** Refuses the message: the room answers the sender with `error` (or RATE_LIMITED over the limit). */
  protected refuse(code: WireRefusal): void {
    this.payload.outcome = { ok: false, code };
  }

  protected get table(): Table {
    return this.room.table;
  }

  /** Hands a table input's outcome back to the room (an applied input has already been sent). */
  protected settle(step: Step): void {
    this.payload.outcome = step.outcome.ok ? step.outcome : { ok: false, code: wireRefusal(step.outcome.code, this.action) };
  }
}
