import type { Client } from 'colyseus';

/**
 * What the look keeps on a `ws` socket (written for ws 8 under @colyseus/ws-transport 0.15:
 * `pingCount` is the transport's own field, reset to 0 by its pong handler; `_socket` is the TCP
 * socket). Times are the room's credited clock (below), in ms.
 */
type WatchedSocket = {
  readyState: number;
  pingCount?: number;
  _socket?: { bytesRead?: number };
  /** `bytesRead` at the last look. */
  heardBytes?: number;
  /** When bytes last came (or the socket was first looked at). */
  heardAt?: number;
  /** When the last ping was sent. */
  pingAt?: number;
  ping(cb: () => void): void;
  terminate(): void;
};
const noop = () => undefined;

export interface LivenessTimes {
  /** A socket that sent nothing for this long is pinged. */
  pingAfterMs: number;
  /** A socket that keeps talking is still pinged this often: one that writes but never reads is cut too. */
  roundTripMs: number;
  /** Cut: nothing heard for this long with a ping unanswered (a lost network, a dead phone). */
  quietCutMs: number;
  /** Cut: a ping unanswered this long, whatever else came (a client that writes but never reads). */
  pongCutMs: number;
  /** At most this much of the time between two looks counts (the server's own stalls do not). */
  creditMaxMs: number;
}

/**
 * The dead-socket check, room by room (server/app.ts turns the transport's own off: it pings every
 * socket of the process in one synchronous loop, tens of ms per thousand sockets).
 *
 * It cuts on *time since the socket's last byte* (the TCP socket's `bytesRead`, no listener per
 * message), with a ping outstanding, measured on a clock that only runs while this process does:
 * each look credits at most `creditMaxMs` of the time since the previous one. So
 * - a server stall (a long collection, an overloaded loop) is not silence: the pongs that came
 *   meanwhile are not read yet when the first timers run after it, and the stall itself does not
 *   count. The room runs `look` from `setImmediate` for the same reason: after the loop's poll
 *   phase has read what arrived.
 * - a client whose own process stalls (a phone's GC, a load generator's event loop) has
 *   `quietCutMs - pingAfterMs` ms to answer a ping, instead of one heartbeat;
 * - a dead socket is still cut at most `quietCutMs` plus one look after its last byte.
 * A ping costs a socket write and its pong a read: a socket that sent anything within
 * `pingAfterMs` is not pinged, except every `roundTripMs`.
 */
export class Liveness {
  private credited = 0;
  private lastLook = NaN;

  constructor(private readonly times: LivenessTimes) {}

  /** Looks at every socket of a room; `now` is the room clock's time in ms. */
  look(clients: Iterable<Client>, now: number): void {
    const elapsed = Number.isNaN(this.lastLook) ? 0 : Math.max(0, now - this.lastLook);
    this.lastLook = now;
    this.credited += Math.min(elapsed, this.times.creditMaxMs);
    const at = this.credited;
    const { pingAfterMs, roundTripMs, quietCutMs, pongCutMs } = this.times;
    for (const client of clients) {
      const ws = (client as unknown as { ref?: WatchedSocket }).ref;
      if (!ws || typeof ws.ping !== 'function' || ws.readyState !== 1) continue;
      const read = ws._socket?.bytesRead;
      const waiting = (ws.pingCount ?? 0) > 0;
      if (ws.heardAt === undefined) {
        ws.heardAt = at;
        ws.pingAt = at;
        ws.heardBytes = read;
      } else if (read !== undefined ? read !== ws.heardBytes : !waiting && ws.pingAt! > ws.heardAt) {
        // Bytes came; a socket without TCP figures is heard by its pong alone.
        ws.heardBytes = read;
        ws.heardAt = at;
      }
      if (waiting) {
        if (at - ws.heardAt >= quietCutMs || at - ws.pingAt! >= pongCutMs) ws.terminate();
        continue;
      }
      if (at - ws.heardAt < pingAfterMs && at - ws.pingAt! < roundTripMs) continue;
      ws.pingCount = 1;
      ws.pingAt = at;
      ws.ping(noop);
    }
  }
}
