import type { Client } from 'colyseus';

type PingableSocket = {
  readyState: number;
  pingCount?: number;
  /** The socket's `bytesRead` when the last heartbeat looked. */
  heardBytes?: number;
  _socket?: { bytesRead?: number };
  ping(cb: () => void): void;
  terminate(): void;
};
const noop = () => undefined;

/**
 * The transport's dead-socket check (server/app.ts turns its own off), room by room: the stock
 * one pings every socket of the process in one synchronous loop, a stall of tens of ms per
 * thousand sockets; rooms tick at different moments, so this spreads the same work out.
 *
 * Only sockets that were silent since the last heartbeat are pinged: any byte from the client (a
 * message, a pong) proves it alive, read from the TCP socket's own `bytesRead` (no listener per
 * message). A ping costs a write, and its pong a read, per socket and heartbeat: at human pace
 * that was as many socket writes as the patches. A socket that answered nothing to
 * `misses` pings in a row is cut, as before; pongs also reset `pingCount` (the transport's
 * own pong handler). A live client that only answers pings is pinged every other heartbeat.
 */
export function heartbeat(clients: Iterable<Client>, misses: number): void {
  for (const client of clients) {
    const ws = (client as unknown as { ref?: PingableSocket }).ref;
    if (!ws || typeof ws.ping !== 'function' || ws.readyState !== 1) continue;
    const read = ws._socket?.bytesRead;
    if (read !== undefined && read !== ws.heardBytes) {
      ws.heardBytes = read;
      ws.pingCount = 0;
      continue;
    }
    if ((ws.pingCount ?? 0) >= misses) {
      ws.terminate();
      continue;
    }
    ws.pingCount = (ws.pingCount ?? 0) + 1;
    ws.ping(noop);
  }
}
