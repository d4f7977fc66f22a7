/**
 * One socket write per client per turn of the event loop: every WebSocket frame the server sends
 * is held (the socket corked) until the current synchronous work is done, then all of that
 * socket's frames go out in one `writev`. An action sends each client its patch and the event
 * message right after it (two frames, two system calls before); now one. Order and backpressure
 * are the socket's own, nothing is delayed past the current tick, and a frame sent alone costs
 * what it did (ws also corks header and payload into one `writev`).
 *
 * It replaces `sendFrame` of the `ws` copy @colyseus/ws-transport uses (ws 8), once per process:
 * clients in the same process (colyseus.js in tests) have their own copy and are untouched.
 */
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';

type Frame = (Buffer | string)[];
interface SenderPrototype {
  sendFrame(this: { _socket: Socket }, list: Frame, cb?: (error?: Error | null) => void): void;
}

const held = Symbol('corked until the next tick');
type HeldSocket = Socket & { [held]?: boolean };

function release(socket: HeldSocket): void {
  socket[held] = false;
  socket.uncork();
}

function sendFrame(this: { _socket: HeldSocket }, list: Frame, cb?: (error?: Error | null) => void): void {
  const socket = this._socket;
  if (!socket[held]) {
    socket[held] = true;
    socket.cork();
    process.nextTick(release, socket);
  }
  for (let i = 0; i < list.length - 1; i++) socket.write(list[i]);
  socket.write(list[list.length - 1], cb);
}

let installed = false;

/** Installs the coalescing `sendFrame` (idempotent); returns the Sender prototype it changed. */
export function coalesceSocketWrites(): SenderPrototype {
  const ws = createRequire(require.resolve('@colyseus/ws-transport'))('ws') as { Sender: { prototype: SenderPrototype } };
  if (!installed) {
    ws.Sender.prototype.sendFrame = sendFrame;
    installed = true;
  }
  return ws.Sender.prototype;
}
