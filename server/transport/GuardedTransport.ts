import type { IncomingMessage } from 'node:http';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { ErrorCode, getMessageBytes, matchMaker, Protocol } from 'colyseus';
import type WebSocket from 'ws';
import { isWellFormedFrame } from './frameGuard';

/** Application close code Colyseus uses for a protocol error. */
const CLOSE_WITH_ERROR = 4002;

type TransportOptions = NonNullable<ConstructorParameters<typeof WebSocketTransport>[0]>;

/**
 * The stock transport, with every incoming frame checked by `isWellFormedFrame` before any
 * listener (the room's decoder) sees it. A malformed frame closes that socket; nothing else.
 */
export class GuardedTransport extends WebSocketTransport {
  constructor(options: TransportOptions & { messageTypes: readonly string[] }) {
    const { messageTypes, ...transportOptions } = options;
    super(transportOptions);
    const types: ReadonlySet<string> = new Set(messageTypes);
    const connect = (
      WebSocketTransport.prototype as unknown as {
        onConnection: (this: WebSocketTransport, ws: WebSocket, req?: IncomingMessage) => unknown;
      }
    ).onConnection;
    // The base class listens with an unbound method; replace it with a guarded one.
    this.wss.removeAllListeners('connection');
    this.wss.on('connection', (rawClient: WebSocket, req?: IncomingMessage) => {
      // The stock listener prints a stack trace for every socket without a seat (a bogus room
      // id, an expired reservation): refuse those here, counted, in the same words.
      if (!hasSeat(req)) {
        socketErrors.noSeat++;
        rawClient.on('error', () => socketErrors.count++);
        rawClient.send(NO_SEAT_FRAME, () => rawClient.close(CLOSE_WITH_ERROR));
        return;
      }
      guardFrames(rawClient, types);
      const joining = connect.call(this, rawClient, req);
      // The stock listener prints a stack trace per bad socket (oversized frame, bad opcode):
      // a client could fill the logs at will. Count them instead; ws closes the socket itself.
      rawClient.removeAllListeners('error');
      rawClient.on('error', () => socketErrors.count++);
      return joining;
    });
  }
}

/** Protocol-level socket errors seen (oversized or malformed WebSocket frames), and sockets refused for having no seat. */
export const socketErrors = { count: 0, noSeat: 0 };

/** The stock transport's answer to a socket without a seat, as the client library knows it. */
const NO_SEAT_FRAME = Buffer.from(getMessageBytes[Protocol.ERROR](ErrorCode.MATCHMAKE_EXPIRED, 'seat reservation expired.'));

/** The room and reservation the socket's URL names exist (the stock listener's own test, without its throw). */
function hasSeat(req?: IncomingMessage): boolean {
  const url = req?.url ?? '';
  if (url.length > 512) return false;
  let parsed: URL;
  try {
    parsed = new URL(`ws://server/${url}`);
  } catch {
    return false;
  }
  const roomId = /\/[a-zA-Z0-9_-]+\/([a-zA-Z0-9_-]+)$/.exec(parsed.pathname)?.[1];
  const room = roomId
    ? (matchMaker.getRoomById(roomId) as { hasReservedSeat(id: string | null, token: string | null): boolean } | undefined)
    : undefined;
  return (
    room !== undefined && room.hasReservedSeat(parsed.searchParams.get('sessionId'), parsed.searchParams.get('reconnectionToken')) === true
  );
}

function guardFrames(rawClient: WebSocket, types: ReadonlySet<string>): void {
  const emit = rawClient.emit.bind(rawClient) as (event: string | symbol, ...args: unknown[]) => boolean;
  rawClient.emit = ((event: string | symbol, ...args: unknown[]) => {
    if (event === 'message' && !isWellFormedFrame(args[0], args[1] as boolean, types)) {
      rawClient.close(CLOSE_WITH_ERROR);
      return false;
    }
    return emit(event, ...args);
  }) as WebSocket['emit'];
}
