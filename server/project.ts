/**
 * The one writer of schema fields: `project(table state → schema)`, called by the room once per
 * applied input, just before the one patch that input sends. Nothing reads the schema back: the
 * table's plain state (server/table/state.ts) is the source, the schema is its picture.
 *
 * Schema 2.x sends a filtered field only when its instance is visited in a patch, and an equal
 * value is never re-sent. So when someone gains the right to see a field (a peek, the end of the
 * game) the field is marked dirty here, in the same patch that grants the right. Values that
 * everyone or nobody may see (the removed cards, the server's secret) are written only once the
 * visibility rule (server/rules/visibility.ts) lets everyone see them.
 *
 * What was last written is remembered by the `Projection` instance (one per room, beside its
 * schema), so an input touches only what it changed: reading a schema collection goes through a
 * Proxy, and six players per action add up.
 */
import { MapSchema } from '@colyseus/schema';
import { wireOptions } from './rules/options';
import type { Game, PlayerId } from './rules';
import { maySeeRemoved, maySeeServerSeed } from './rules/visibility';
import type { TableView } from './table/state';
import { creatorSeat } from './table/state';
import { CockroachState, Claim, LastReveal, Player, Round, Watcher } from './schema/CockroachState';

interface SeatWritten {
  connected: boolean;
  away: boolean;
  score: number;
}

interface GameWritten {
  game: Game;
  ended: boolean;
  /** Per player: seat, hand and front sizes last written. */
  players: Map<PlayerId, { seat: number; hand: number; front: number }>;
}

export class Projection {
  private readonly seats = new Map<PlayerId, SeatWritten>();
  private game: GameWritten | null = null;
  private optionsKey: unknown = null;
  private entropy: Readonly<Record<PlayerId, string>> | null = null;

  constructor(readonly schema: CockroachState) {}

  /** Brings the schema in line with the table's state. */
  project(table: TableView): void {
    const s = this.schema;
    s.phase = table.lifecycle;
    s.hostId = table.hostId ?? '';
    s.creatorId = creatorSeat(table)?.id ?? '';
    s.locked = table.locked;
    s.gamesPlayed = table.gamesPlayed;
    this.projectOptions(table);
    this.projectFairness(table);
    this.projectSeats(table);
    this.projectWatchers(table);
    const game = table.match?.game ?? null;
    if (game) this.projectGame(game);
    else if (this.game) this.clearGame();
    s.round.deadline = table.deadline;
  }

  /** The options as created in the lobby (`loseCount` 0 when not given), as resolved during a game. */
  private projectOptions(table: TableView): void {
    const game = table.match?.game ?? null;
    const key = game ?? table.options;
    if (key === this.optionsKey) return;
    this.optionsKey = key;
    const wire = wireOptions(table.options, table.isPrivate);
    if (game) wire.loseCount = game.options.loseCount;
    this.schema.options.assign(wire);
  }

  private projectFairness(table: TableView): void {
    const f = this.schema.fairness;
    f.commitment = table.fairness.commitment;
    f.serverSeed = maySeeServerSeed(table.lifecycle) ? table.fairness.serverSeed : '';
    const next = table.fairness.entropy;
    if (next === this.entropy) return;
    this.entropy = next;
    for (const key of [...f.entropy.keys()]) if (!Object.prototype.hasOwnProperty.call(next, key)) f.entropy.delete(key);
    for (const [key, value] of Object.entries(next)) f.entropy.set(key, value);
  }

  /** Watchers come and go whole: a name never changes while someone watches. */
  private projectWatchers(table: TableView): void {
    const watchers = this.schema.watchers;
    if (watchers.size === 0 && table.watchers.size === 0) return;
    for (const id of [...watchers.keys()]) if (!table.watchers.has(id)) watchers.delete(id);
    for (const watcher of table.watchers.values())
      if (!watchers.has(watcher.id)) watchers.set(watcher.id, new Watcher().assign({ id: watcher.id, nickname: watcher.nickname }));
  }

  private projectSeats(table: TableView): void {
    const players = this.schema.players;
    for (const id of [...this.seats.keys()]) {
      if (table.seats.has(id)) continue;
      this.seats.delete(id);
      this.game?.players.delete(id);
      players.delete(id);
      // Removed at the results screen (a kick): no seat in the order points at a missing player.
      const order = this.schema.order;
      const at = order.indexOf(id);
      if (at >= 0) {
        const rest = order.filter((other) => other !== id);
        order.clear();
        order.push(...rest);
      }
    }
    for (const seat of table.seats.values()) {
      const was = this.seats.get(seat.id);
      if (was && was.connected === seat.connected && was.away === seat.away && was.score === seat.score) continue;
      let player = players.get(seat.id);
      if (!player) {
        // `new Player({ id })` would be wiped by the field initialisers: assign after construction.
        player = new Player().assign({ id: seat.id, nickname: seat.nickname, bot: seat.bot, hand: new MapSchema<string>() });
        players.set(seat.id, player);
      }
      player.connected = seat.connected;
      player.away = seat.away;
      player.score = seat.score;
      this.seats.set(seat.id, { connected: seat.connected, away: seat.away, score: seat.score });
    }
  }

  /**
   * The game after its start or any applied action. A new `Game` object is a new game: every
   * player gets a fresh hand map holding the deal. A client that already knows a map is sent
   * only its latest changes when it gains the right to see it, so at the game's end the others
   * would miss every card dealt while the map was hidden from them; a map it has never seen is
   * sent whole.
   */
  private projectGame(game: Game): void {
    const s = this.schema;
    let last = this.game;
    const newGame = !last || last.game !== game;
    if (newGame) {
      last = { game, ended: false, players: new Map() };
      this.game = last;
      if (s.order.length > 0) s.order.clear();
      s.order.push(...game.order);
      for (const id of game.order) {
        const hand = new MapSchema<string>();
        for (const card of game.hands[id]) hand.set(String(card), game.kinds[card]);
        s.players.get(id)!.hand = hand;
      }
    }
    const endsNow = game.phase === 'ended' && !last!.ended;
    if (endsNow) last!.ended = true;
    s.step = game.step;
    const seen = last!.players;
    for (let seat = 0; seat < game.order.length; seat++) {
      const id = game.order[seat];
      const was = seen.get(id);
      const hand = game.hands[id].length;
      const front = game.fronts[id].length;
      if (was && was.seat === seat && was.hand === hand && was.front === front) continue;
      const player = s.players.get(id);
      if (player) projectPlayer(player, game, id, seat);
      seen.set(id, { seat, hand, front });
    }
    projectRound(s, game, newGame);
    if (endsNow) projectEnd(s, game);
  }

  /**
   * Back to the lobby (a rematch): the last game's fields are cleared in the same patch that
   * shows the lobby. Hands may be seen by everyone outside a game (maySeeHand), so every client
   * that saw them at the end is sent their clearing; each keeps its map until the next deal
   * brings a fresh one.
   */
  private clearGame(): void {
    const s = this.schema;
    this.game = null;
    s.step = 0;
    s.round = new Round();
    s.lastReveal = undefined;
    s.loser = '';
    s.lossReason = '';
    if (s.removed.length > 0) s.removed.clear();
    if (s.order.length > 0) s.order.clear();
    s.players.forEach((player) => {
      player.seat = -1;
      player.handCount = 0;
      if (player.hand.size > 0) player.hand.clear();
      if (player.front.length > 0) player.front.clear();
    });
  }
}

function projectPlayer(player: Player, game: Game, id: PlayerId, seat: number) {
  player.seat = seat;
  const hand = game.hands[id];
  player.handCount = hand.length;
  const front = game.fronts[id];
  for (let i = player.front.length; i < front.length; i++) player.front.push(game.kinds[front[i]]);
  // After the deal, cards only ever leave a hand: equal sizes mean equal hands.
  const map = player.hand;
  if (map.size === hand.length) return;
  // A hand holds at most a few dozen cards: a scan allocates nothing, unlike a Set per action.
  if (map.size > hand.length)
    map.forEach((_kind, key) => {
      if (!hand.includes(Number(key))) map.delete(key);
    });
  if (map.size < hand.length)
    for (const id of hand) {
      const key = String(id);
      if (!map.has(key)) map.set(key, game.kinds[id]);
    }
}

function projectRound(state: CockroachState, game: Game, newGame: boolean) {
  const r = game.round;
  let round = state.round;
  if (newGame || round.no !== r.no) {
    // A new card, a new set of people who saw it: a new instance (filters never take back).
    round = new Round().assign({ no: r.no });
    state.round = round;
    // Public and overwritten whole at each call: one instance per game (fewer objects per
    // call; equal fields are not re-sent). Clients notice a new reveal by `round.no`.
    const lr = game.lastReveal;
    if (lr) {
      const reveal = state.lastReveal ?? (state.lastReveal = new LastReveal());
      reveal.assign({ kind: lr.kind, claim: lr.claim, call: lr.call, caller: lr.caller, correct: lr.correct, takenBy: lr.takenBy });
    }
  }
  round.starter = r.starter;
  round.holder = r.holder ?? '';
  round.lastPasser = r.lastPasser ?? '';
  round.claim = r.claim ?? '';
  round.hasCard = r.card !== null;
  const seenBefore = round.seen.length;
  for (let i = round.seen.length; i < r.seen.length; i++) round.seen.push(r.seen[i]);
  if (game.options.claimHistory) {
    for (let i = round.claims.length; i < r.claims.length; i++) round.claims.push(new Claim().assign(r.claims[i]));
  }
  if (r.card !== null) {
    const kind = game.kinds[r.card];
    if (round.cardKind !== kind) round.cardKind = kind;
    else if (round.seen.length > seenBefore) round.setDirty('cardKind');
  }
}

function projectEnd(state: CockroachState, game: Game) {
  state.loser = game.loser ?? '';
  state.lossReason = game.lossReason ?? '';
  if (maySeeRemoved(game.phase)) for (const id of game.removed) state.removed.push(game.kinds[id]);
  // Every hand becomes public: visit each one in this very patch so its filter runs again.
  state.players.forEach((player) => player.setDirty('hand'));
}
