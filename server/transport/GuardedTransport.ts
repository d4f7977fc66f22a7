import type { IncomingMessage } from 'node:http';
import { WebSocketTransport } from '@colyseus/ws-transport';
import type WebSocket from 'ws';
import { isWellFormedFrame } from './frameGuard';

/** Application close code Colyseus uses for a protocol error. */
const CLOSE_WITH_ERROR = 4002;

/**
 * The stock transport, with every incoming frame checked by `isWellFormedFrame` before any
 * listener (the room's decoder) sees it. A malformed frame closes that socket; nothing else.
 */
export class GuardedTransport extends WebSocketTransport {
  // The base class registers `this.onConnection` unbound, so `this` here is not the transport.
  protected onConnection(rawClient: WebSocket, req?: IncomingMessage) {
    const emit = rawClient.emit.bind(rawClient) as (event: string | symbol, ...args: unknown[]) => boolean;
    rawClient.emit = ((event: string | symbol, ...args: unknown[]) => {
      if (event === 'message' && !isWellFormedFrame(args[0], args[1] as boolean)) {
        rawClient.close(CLOSE_WITH_ERROR);
        return false;
      }
      return emit(event, ...args);
    }) as WebSocket['emit'];
    return (WebSocketTransport.prototype as unknown as { onConnection: Function }).onConnection.call(this, rawClient, req);
  }
}
