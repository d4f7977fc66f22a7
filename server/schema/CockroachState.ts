/**
 * The room's synced state: field definitions and visibility rules only. It imports nothing but
 * @colyseus/schema and the pure list of options, so the client SDK can ship these classes to
 * decode typed state.
 *
 * Visibility (schema 2.x `@filter`, decorator above `@type`) asks the one rule,
 * server/rules/visibility.ts:
 * - `Player.hand`: `maySeeHand` (its owner; everyone once the game has ended);
 * - `Round.cardKind`: `maySeeCardInFlight` (the players listed in the same instance's `seen`).
 * The two-player removed cards and `fairness.serverSeed` are seen by everyone or nobody
 * (`maySeeRemoved`, `maySeeServerSeed`): server/project.ts writes them only once they may be
 * seen, so no filter is needed.
 * Strings use "" for "nobody/none" (a schema string cannot hold null).
 */
import { ArraySchema, defineTypes, filter, MapSchema, Schema, type } from '@colyseus/schema';
import { OPTION_SPECS, WireOptions } from '../rules/options';
import { maySeeCardInFlight, maySeeHand } from '../rules/visibility';

interface SessionClient {
  sessionId: string;
}

export class Player extends Schema {
  @type('string') id = '';
  @type('string') nickname = '';
  /** Seat index from 0 once the game started; -1 in the lobby. */
  @type('int8') seat = -1;
  @type('uint8') handCount = 0;
  /** Face-up kinds in the order they landed. */
  @type(['string']) front = new ArraySchema<string>();
  @type('boolean') connected = true;
  @type('boolean') away = false;
  @type('boolean') bot = false;
  /** Points over this room's finished games (1 per game won). */
  @type('uint16') score = 0;

  /**
   * Card id (decimal string) → kind: a plain string per card, not a schema object (v2). The
   * server creates it with the player (server/project.ts). No initializer on purpose: a client
   * that may not see the hand would hold a map the server never sent, and its decoder warns
   * "trying to remove reference undefined" when the player is removed. So it is undefined on
   * clients until they may see it.
   */
  @filter(function (this: Player, client: SessionClient, _value: unknown, root: CockroachState) {
    return maySeeHand(client.sessionId, this.id, root.phase);
  })
  @type({ map: 'string' })
  hand!: MapSchema<string>;
}

export class Claim extends Schema {
  @type('string') from = '';
  @type('string') to = '';
  @type('string') claim = '';
}

/** A fresh instance per round: a filter never takes a value back, so secrets never share one. */
export class Round extends Schema {
  @type('uint16') no = 0;
  @type('string') starter = '';
  @type('string') holder = '';
  @type('string') lastPasser = '';
  @type('string') claim = '';
  @type(['string']) seen = new ArraySchema<string>();
  @type([Claim]) claims = new ArraySchema<Claim>();
  /** Epoch ms when whoever must act runs out of time; 0 when nobody is on the clock. */
  @type('float64') deadline = 0;
  @type('boolean') hasCard = false;

  @filter(function (this: Round, client: SessionClient) {
    // `values()`: the list's own entries; iterating the ArraySchema itself would copy them first.
    return maySeeCardInFlight(client.sessionId, this.seen.values());
  })
  @type('string')
  cardKind = '';
}

export class LastReveal extends Schema {
  @type('string') kind = '';
  @type('string') claim = '';
  @type('string') call = '';
  @type('string') caller = '';
  @type('boolean') correct = false;
  @type('string') takenBy = '';
}

/** Its fields come from the one list of options (server/rules/options.ts), in that order. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging -- fields defined at run time from the option list
export interface RoomOptions extends WireOptions {}
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class RoomOptions extends Schema {
  constructor() {
    super();
    for (const spec of OPTION_SPECS) (this as unknown as Record<string, unknown>)[spec.key] = spec.unset;
  }
}
for (const spec of OPTION_SPECS) defineTypes(RoomOptions, { [spec.key]: spec.wire });

export class Fairness extends Schema {
  /** Lowercase hex SHA-256 of `serverSeed`, set before any player's entropy is used. */
  @type('string') commitment = '';
  /** Player id → that player's entropy ("" for none), from `start` on. */
  @type({ map: 'string' }) entropy = new MapSchema<string>();
  /** "" until the game has ended. */
  @type('string') serverSeed = '';
}

/** Someone watching (issue 32): public, so everyone at the table sees who is watching. */
export class Watcher extends Schema {
  @type('string') id = '';
  @type('string') nickname = '';
}

export class CockroachState extends Schema {
  @type('string') phase: 'lobby' | 'playing' | 'ended' = 'lobby';
  @type('string') hostId = '';
  @type(RoomOptions) options = new RoomOptions();
  @type(['string']) order = new ArraySchema<string>();
  @type({ map: Player }) players = new MapSchema<Player>();
  @type(Round) round = new Round();
  @type(LastReveal) lastReveal?: LastReveal;
  @type('string') loser = '';
  @type('string') lossReason = '';
  /** Two-player set-aside kinds: empty until the game has ended. */
  @type(['string']) removed = new ArraySchema<string>();
  /** Actions applied so far; a client may quote it so a stale tap is refused. */
  @type('uint32') step = 0;
  /** Games finished in this room. */
  @type('uint16') gamesPlayed = 0;
  @type(Fairness) fairness = new Fairness();
  /** Watchers by session id (issue 32). */
  @type({ map: Watcher }) watchers = new MapSchema<Watcher>();
  /** No newcomer may sit down or watch until the creator unlocks (a kick locks). */
  @type('boolean') locked = false;
  /** The creator's player id while the creator is seated, else "": the host whenever present. */
  @type('string') creatorId = '';
}
