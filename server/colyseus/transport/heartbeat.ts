import type { Client } from 'colyseus';

type PingableSocket = {
  readyState: number;
  /** Pings not answered yet: the transport's own pong handler resets it. */
  pingCount?: number;
  /** The TCP socket's `bytesRead` at the last heartbeat, heartbeats since bytes last came, since the last ping. */
  heardBytes?: number;
  silentBeats?: number;
  beatsSincePing?: number;
  _socket?: { bytesRead?: number };
  ping(cb: () => void): void;
  terminate(): void;
};
const noop = () => undefined;

/**
 * A socket that sends something every heartbeat is still pinged this often (in heartbeats), so a
 * client that writes but never reads (a ping's pong needs everything before it read) is cut too.
 */
export const ROUND_TRIP_EVERY = 4;

/**
 * The transport's dead-socket check (server/app.ts turns its own off), room by room: the stock
 * one pings every socket of the process in one synchronous loop, a stall of tens of ms per
 * thousand sockets; rooms tick at different moments, so this spreads the same work out.
 *
 * A ping costs a socket write and its pong a read, per socket and heartbeat: at human pace as
 * many system calls as the patches. So a socket that sent anything since the last heartbeat (a
 * move, the SDK's own ping: read from the TCP socket's `bytesRead`, no listener per message) is
 * not pinged, unless a ping is still unanswered or it went ROUND_TRIP_EVERY heartbeats without
 * one. Cut: a socket that answered none of `misses` pings, or one silent for `misses`
 * heartbeats with a ping unanswered; so a lost network is noticed at most 3 heartbeats after the
 * client's last byte (about 9 s, what the SDK's `serverNoticeMs` counts on), as before. Sockets
 * without TCP figures are pinged every heartbeat and cut after `misses` unanswered pings.
 */
export function heartbeat(clients: Iterable<Client>, misses: number): void {
  for (const client of clients) {
    const ws = (client as unknown as { ref?: PingableSocket }).ref;
    if (!ws || typeof ws.ping !== 'function' || ws.readyState !== 1) continue;
    const read = ws._socket?.bytesRead;
    const known = read !== undefined;
    const heard = known && read !== ws.heardBytes;
    ws.heardBytes = read;
    ws.silentBeats = heard || !known ? 0 : (ws.silentBeats ?? 0) + 1;
    ws.beatsSincePing = (ws.beatsSincePing ?? 0) + 1;
    const unanswered = ws.pingCount ?? 0;
    if (unanswered >= misses || (unanswered > 0 && ws.silentBeats >= misses)) {
      ws.terminate();
      continue;
    }
    if (heard && unanswered === 0 && ws.beatsSincePing < ROUND_TRIP_EVERY) continue;
    ws.pingCount = unanswered + 1;
    ws.beatsSincePing = 0;
    ws.ping(noop);
  }
}
