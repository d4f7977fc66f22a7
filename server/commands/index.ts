import type { ClientMessageType } from '../protocol';
import { AddBotCommand } from './AddBotCommand';
import { CallCommand } from './CallCommand';
import { ChatCommand } from './ChatCommand';
import { KickCommand } from './KickCommand';
import { LockCommand } from './LockCommand';
import { OfferCommand } from './OfferCommand';
import { PassCommand } from './PassCommand';
import { PeekCommand } from './PeekCommand';
import { PingCommand } from './PingCommand';
import { RematchCommand } from './RematchCommand';
import { RemoveBotCommand } from './RemoveBotCommand';
import { StartCommand } from './StartCommand';
import { UnlockCommand } from './UnlockCommand';
import type { RoomCommand } from './RoomCommand';

/** Every client message type (server/protocol.ts) and the command that answers it. */
export const COMMANDS: Readonly<Record<ClientMessageType, new () => RoomCommand>> = Object.freeze(
  Object.assign(Object.create(null), {
    start: StartCommand,
    offer: OfferCommand,
    call: CallCommand,
    peek: PeekCommand,
    pass: PassCommand,
    chat: ChatCommand,
    rematch: RematchCommand,
    addBot: AddBotCommand,
    removeBot: RemoveBotCommand,
    kick: KickCommand,
    ping: PingCommand,
    lock: LockCommand,
    unlock: UnlockCommand,
  }),
);
