import { CallCommand } from './CallCommand';
import { ChatCommand } from './ChatCommand';
import { OfferCommand } from './OfferCommand';
import { PassCommand } from './PassCommand';
import { PeekCommand } from './PeekCommand';
import { StartCommand } from './StartCommand';
import type { RoomCommand } from './RoomCommand';

/** Every client message type and the command that answers it: the protocol's whole inbox. */
export const COMMANDS: Readonly<Record<string, new () => RoomCommand>> = Object.freeze(
  Object.assign(Object.create(null), {
    start: StartCommand,
    offer: OfferCommand,
    call: CallCommand,
    peek: PeekCommand,
    pass: PassCommand,
    chat: ChatCommand,
  }),
);
