import type { Client } from 'colyseus';
import { CLOSE_CODES } from '../protocol';
import { FLOOD_DISCONNECT_AFTER, PING_BURST, PING_REFILL_MS } from './constants';
import { RateLimiter } from '../base/RateLimiter';

/**
 * Flood control over every client message except applied moves (PROTOCOL v2: a legal move of
 * whoever must act is never refused for rate, however fast a script plays). Everything else,
 * refused messages, chat, messages that change nothing, is charged. The first refusal of a
 * streak is answered with RATE_LIMITED, the rest silently; a long streak closes the connection.
 */
export class Admission {
  private readonly bucket: RateLimiter;
  /** `ping` also has a small bucket of its own: the SDK sends one after 2 s of silence. */
  private readonly pings: RateLimiter;
  /** Consecutive messages refused for rate, per client. */
  private readonly streaks = new Map<string, number>();

  constructor(burst: number, perSecond: number, now: () => number) {
    this.bucket = new RateLimiter(burst, 1000 / perSecond, now);
    this.pings = new RateLimiter(PING_BURST, PING_REFILL_MS, now);
  }

  /**
   * `ping`, priced like everything else (issue 20): every ping, valid or not, costs a token of
   * the client's bucket, and past the ping bucket (a burst of PING_BURST, then one a second:
   * twice what the SDK sends) it is refused like any message over the limit. The first refusal
   * of a streak is answered (`reply`), and a flood of pings is closed like any flood. True when
   * the ping may be answered.
   */
  admitPing(client: Client, reply: () => void): boolean {
    const id = client.sessionId;
    if (!this.hasRoom(id) || !this.pings.take(id)) {
      this.refuse(client, reply);
      return false;
    }
    this.charge(id);
    this.admitted(id);
    return true;
  }

  /** Whether this client may send a message that will be charged (no token is taken). */
  hasRoom(id: string): boolean {
    return this.bucket.available(id) >= 1;
  }

  /** A message that was not an applied move: it costs a token. */
  charge(id: string): void {
    this.bucket.take(id);
  }

  /** An applied move: the streak of refusals is over. */
  moved(id: string): void {
    this.streaks.delete(id);
  }

  /** Over the limit: answers once per streak (through `reply`) and closes a flooder. */
  refuse(client: Client, reply: () => void): void {
    const id = client.sessionId;
    const streak = (this.streaks.get(id) ?? 0) + 1;
    this.streaks.set(id, streak);
    if (streak === 1) reply();
    if (streak === FLOOD_DISCONNECT_AFTER) client.leave(CLOSE_CODES.PROTOCOL_ERROR);
  }

  /** A message within the limit: the streak is over. */
  admitted(id: string): void {
    this.streaks.delete(id);
  }

  forget(id: string): void {
    this.bucket.forget(id);
    this.pings.forget(id);
    this.streaks.delete(id);
  }
}
