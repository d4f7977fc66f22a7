import type { IncomingMessage } from 'node:http';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { ErrorCode, getMessageBytes, Protocol } from 'colyseus';
import type WebSocket from 'ws';
import { CLOSE_CODES } from '../../protocol';
import { isWellFormedFrame } from './frameGuard';
import { localRoom, ownValue } from '../localRoom';

/** Application close code Colyseus uses for a protocol error. */
const CLOSE_WITH_ERROR = CLOSE_CODES.PROTOCOL_ERROR;

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
      if (!seated(req)) {
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

/** hasSeat, and no seat when anything in the check throws: a connection listener must never throw. */
function seated(req?: IncomingMessage): boolean {
  try {
    return hasSeat(req);
  } catch {
    return false;
  }
}

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
  const room = localRoom<{ reservedSeats: Record<string, unknown>; hasReservedSeat(id: string, token: string | null): boolean }>(roomId);
  const sessionId = parsed.searchParams.get('sessionId');
  // Only a reservation the room really holds: `?sessionId=__proto__` names none.
  if (!room || sessionId === null || ownValue(room.reservedSeats, sessionId) === undefined) return false;
  return room.hasReservedSeat(sessionId, parsed.searchParams.get('reconnectionToken')) === true;
}

/** How long a socket that keeps sending after it was told to close may still receive the close frame. */
const CLOSING_GRACE_MS = 1000;
const stopped = new WeakSet<WebSocket>();

/**
 * A socket that goes on sending after the server closed it (a flood closed after its 50th refused
 * message, a malformed frame) is not read any further: the kernel may already hold megabytes of
 * its frames, and parsing them all stalled the process for hundreds of milliseconds (issue 20).
 * It keeps the close frame it was sent for a moment, then the connection is cut.
 */
function stopReading(rawClient: WebSocket): false {
  if (stopped.has(rawClient)) return false;
  stopped.add(rawClient);
  // ws itself resumes a paused socket when its parser drains: take its data listener away instead.
  const socket = (rawClient as unknown as { _socket?: { pause(): void; removeAllListeners(event: string): void } })._socket;
  socket?.removeAllListeners('data');
  socket?.pause();
  // And the parser stops after this frame instead of going through the rest of the chunk it holds
  // (ws 8's receiver loops while `_loop`; the data left in it is dropped with the socket).
  const receiver = (rawClient as unknown as { _receiver?: { _loop?: unknown } })._receiver;
  if (receiver && typeof receiver._loop === 'boolean') receiver._loop = false;
  setTimeout(() => rawClient.terminate(), CLOSING_GRACE_MS).unref();
  return false;
}

function guardFrames(rawClient: WebSocket, types: ReadonlySet<string>): void {
  const emit = rawClient.emit.bind(rawClient) as (event: string | symbol, ...args: unknown[]) => boolean;
  rawClient.emit = ((event: string | symbol, ...args: unknown[]) => {
    if (event === 'message' && rawClient.readyState !== rawClient.OPEN) return stopReading(rawClient);
    if (event === 'message' && !isWellFormedFrame(args[0], args[1] as boolean, types)) {
      rawClient.close(CLOSE_WITH_ERROR);
      return false;
    }
    return emit(event, ...args);
  }) as WebSocket['emit'];
}
