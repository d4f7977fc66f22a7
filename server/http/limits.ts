import type { EdgeConfig } from '../base/config';
import type { Identity } from '../identity/types';
import { LobbyLedger, PendingSeats } from './lobbies';
import { HourWindow, MinuteWindow } from './windows';

export type LimitCode = 'TOO_MANY_REQUESTS' | 'TOO_MANY_LOBBIES' | 'TOO_MANY_GUESSES';

/** An admitted create, charged: says what became of it. Each ends the create's hold on the lobby limit. */
export interface CreateTicket {
  /** It made this room: a lobby of its creator from now on. */
  opened(room: { roomId: string; processId?: string }): void;
  /** A joinOrCreate that joined a room after all: the create is given back. */
  joined(): void;
  /** It made nothing (refused, failed): the create stays charged. Idempotent; a no-op after the others. */
  release(): void;
}

/** One limit counted twice: per identity (a person) and per address (the backstop). */
interface Pair<T> {
  player: T;
  address: T;
}

/**
 * The matchmaking limits that count people (issue 21). Each is counted per identity (an app or
 * guest token's player) and, as a coarse backstop sized for a school or a carrier NAT, per client
 * address; an anonymous player (guest mode, no token) is counted by its address alone. A request
 * passes when every count it touches has room; only then is it charged, at every level.
 * Reconnections and identities taking their seat back are never counted here (the guard does not
 * ask). docs/security.md "Limits that count people" gives each number and why.
 */
export class EdgeLimits {
  private readonly creates: Pair<MinuteWindow>;
  private readonly joins: Pair<MinuteWindow>;
  private readonly wrongCodes: Pair<HourWindow>;
  private readonly guests: HourWindow;
  private readonly renewals: HourWindow;
  private readonly lobbies: Pair<LobbyLedger>;
  private readonly pending: Pair<PendingSeats>;

  /** `listing`: where lobbies on other processes are looked up (tests: a driver of their own). */
  constructor(edge: EdgeConfig, now: () => number = Date.now, listing?: ConstructorParameters<typeof LobbyLedger>[2]) {
    const seatMs = edge.seatReservationSeconds * 1000;
    this.creates = { player: new MinuteWindow(edge.createsPerMinute, now), address: new MinuteWindow(edge.addressCreatesPerMinute, now) };
    this.joins = { player: new MinuteWindow(edge.joinsPerMinute, now), address: new MinuteWindow(edge.addressJoinsPerMinute, now) };
    this.wrongCodes = { player: new HourWindow(edge.wrongCodesPerHour, now), address: new HourWindow(edge.addressWrongCodesPerHour, now) };
    this.guests = new HourWindow(edge.guestsPerAddressPerHour, now);
    this.renewals = new HourWindow(edge.guestRenewalsPerAddressPerHour, now);
    this.lobbies = {
      player: new LobbyLedger(edge.lobbiesPerPlayer, now, listing),
      address: new LobbyLedger(edge.lobbiesPerAddress, now, listing),
    };
    this.pending = {
      player: new PendingSeats(edge.pendingSeatsPerPlayer, seatMs, now),
      address: new PendingSeats(edge.pendingSeatsPerAddress, seatMs, now),
    };
  }

  /**
   * Checks and charges a create (or a joinOrCreate that may create) in one step: the creates are
   * charged and a place on the lobby limit held before the first await (a lobby elsewhere is read
   * from the shared listing), so concurrent creates of one identity cannot all pass one check.
   * A refusal charges nothing.
   */
  async takeCreate(who: Identity): Promise<CreateTicket | LimitCode> {
    if (!this.each(who, (w, key) => w.peek(key), this.creates)) return 'TOO_MANY_REQUESTS';
    if (!this.seatsFree(who)) return 'TOO_MANY_REQUESTS';
    for (const [window, key] of this.levels(who, this.creates)) window.take(key);
    const held = this.levels(who, this.lobbies).map(([ledger, key]) => ({ ledger, key, ticket: ledger.hold(key) }));
    let done = false;
    const release = () => {
      if (done) return;
      done = true;
      for (const { ledger, key, ticket } of held) ledger.release(key, ticket);
    };
    const refund = () => {
      for (const [window, key] of this.levels(who, this.creates)) window.giveBack(key);
    };
    for (const { ledger, key, ticket } of held) {
      if (await ledger.fits(key, ticket)) continue;
      release();
      refund();
      return 'TOO_MANY_LOBBIES';
    }
    return {
      opened: (room) => {
        if (done) return;
        release();
        for (const [ledger, key] of this.levels(who, this.lobbies)) ledger.opened(key, room);
      },
      joined: () => {
        if (done) return;
        release();
        refund();
      },
      release,
    };
  }

  /** Why this identity may not join a room now, else null. Charges nothing. */
  joinRefusal(who: Identity): LimitCode | null {
    if (!this.each(who, (w, key) => w.peek(key), this.joins)) return 'TOO_MANY_REQUESTS';
    return this.seatsFree(who) ? null : 'TOO_MANY_REQUESTS';
  }

  chargeJoin(who: Identity): void {
    for (const [window, key] of this.levels(who, this.joins)) window.take(key);
  }

  /** A joinById that turned out to be the identity taking its seat back: never counted. */
  refundJoin(who: Identity): void {
    for (const [window, key] of this.levels(who, this.joins)) window.giveBack(key);
  }

  /** Past its wrong room codes: every joinById is refused (a right code past the limit would tell). */
  guessRefusal(who: Identity): LimitCode | null {
    return this.each(who, (w, key) => w.peek(key), this.wrongCodes) ? null : 'TOO_MANY_GUESSES';
  }

  wrongCode(who: Identity): void {
    for (const [window, key] of this.levels(who, this.wrongCodes)) window.take(key);
  }

  /** One more guest token for this address? Counts it when so. */
  mayIssueGuest(address: string): boolean {
    return this.guests.take(address);
  }

  /** One more guest token renewal for this address? Counts it when so. */
  mayRenewGuest(address: string): boolean {
    return this.renewals.take(address);
  }

  reserved(who: Identity, reservation: { sessionId: string; room: { roomId: string; processId?: string } }): void {
    for (const [seats, key] of this.levels(who, this.pending)) seats.reserved(key, reservation);
  }

  private seatsFree(who: Identity): boolean {
    return this.levels(who, this.pending).every(([seats, key]) => seats.mayReserve(key));
  }

  /** The counters a request touches: its identity's (when it has one) and its address's. */
  private levels<T>(who: Identity, pair: Pair<T>): [T, string][] {
    const out: [T, string][] = [[pair.address, who.address]];
    if (who.key !== null) out.unshift([pair.player, who.key]);
    return out;
  }

  private each<T>(who: Identity, test: (counter: T, key: string) => boolean, pair: Pair<T>): boolean {
    return this.levels(who, pair).every(([counter, key]) => test(counter, key));
  }
}
