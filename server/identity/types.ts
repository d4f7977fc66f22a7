/**
 * Who is playing (PROTOCOL v3 "Who is playing: identities"). The matchmaking guard builds one per
 * request before anything is reserved; the room receives it with the seat reservation.
 */
export interface Identity {
  /** Stable key for limits and seats: 'app:<sub>' or 'guest:<id>'; null for an anonymous player. */
  key: string | null;
  kind: 'app' | 'guest' | 'anonymous';
  /** From an app token's `nickname` claim: it overrides the join option. */
  nickname?: string;
  /** Client address (after TRUSTED_PROXY): the backstop's key and an anonymous player's only signal. */
  address: string;
}
