import type { Client } from 'colyseus';

type PingableSocket = { readyState: number; pingCount?: number; ping(cb: () => void): void; terminate(): void };
const noop = () => undefined;

/**
 * The transport's dead-socket check (server/app.ts turns its own off), room by room: the stock
 * one pings every socket of the process in one synchronous loop, a stall of tens of ms per
 * thousand sockets; rooms tick at different moments, so this spreads the same work out. Pongs
 * reset `pingCount` (the transport's own pong handler).
 */
export function heartbeat(clients: Iterable<Client>, misses: number): void {
  for (const client of clients) {
    const ws = (client as unknown as { ref?: PingableSocket }).ref;
    if (!ws || typeof ws.ping !== 'function' || ws.readyState !== 1) continue;
    if ((ws.pingCount ?? 0) >= misses) {
      ws.terminate();
      continue;
    }
    ws.pingCount = (ws.pingCount ?? 0) + 1;
    ws.ping(noop);
  }
}
