/**
 * A lean load-test client's knowledge of its game, kept from the `events` message alone once the
 * deal has been decoded: the round's public facts (starter, holder, who has seen the card) and its
 * own hand. The load generator runs 12,000 clients in one process on the server's own machine;
 * decoding every patch for every client costs it a core (schema decode and its garbage: docs/
 * benchmarks.md), which starves the server it measures. A lean client stops decoding patches
 * after the deal and only times their arrival.
 *
 * What it cannot know: which card the rules played for it when its clock ran out (`defaultMove`
 * offers name no card). `handUncertain` says so; an offer of a card that already left is refused
 * by the server and counted, and the card is gone from `hand` either way.
 */
import type { CockroachState } from '../server/schema/CockroachState';
import type { EventsMessage } from '../server/protocol';
import { actorOf } from '../server/rules';
import { moveFactsOf, MoveFacts } from './clientBot';

export class LeanSeat implements MoveFacts {
  // Set by the constructor, from the decoded state (moveFactsOf).
  phase!: string;
  step!: number;
  hasCard!: boolean;
  starter!: string;
  holder!: string;
  order!: string[];
  seen!: string[];
  hand!: number[];
  twoPlayerPass!: boolean;
  handUncertain = false;

  /** From a decoded state (the last one this client will decode). */
  constructor(
    state: CockroachState,
    readonly me: string,
  ) {
    Object.assign(this, moveFactsOf(state, me));
  }

  actor(): string | null {
    return actorOf(this.phase, this.hasCard, this.starter, this.holder);
  }

  /** The card leaves the hand when offered (a refused offer does not bring it back: see above). */
  offered(cardId: number): void {
    const i = this.hand.indexOf(cardId);
    if (i >= 0) this.hand.splice(i, 1);
  }

  /**
   * One change's events, in order; false for a change this client already knows (the one the
   * last decoded state showed, or a table event with no new step).
   */
  apply(message: EventsMessage): boolean {
    if (message.step <= this.step && message.step !== 0) return false;
    for (const e of message.events) {
      switch (e.type) {
        case 'offered':
          this.hasCard = true;
          this.holder = e.to;
          this.seen = [e.from];
          break;
        case 'peeked':
          if (!this.seen.includes(e.player)) this.seen.push(e.player);
          break;
        case 'passed':
          this.holder = e.to;
          break;
        case 'revealed':
          // The taker starts the next round (rules: the taker is the new starter).
          this.hasCard = false;
          this.holder = '';
          this.seen = [];
          this.starter = e.takenBy;
          break;
        case 'ended':
          this.phase = 'ended';
          break;
        case 'rematch':
          // The next deal is in a patch this client no longer decodes: the load run opens a new room instead.
          this.phase = 'lobby';
          break;
        case 'defaultMove':
          if (e.player === this.me && e.move === 'offer') this.handUncertain = true;
          break;
      }
    }
    const advanced = message.step > this.step;
    this.step = message.step;
    return advanced;
  }
}
