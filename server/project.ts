/**
 * The one writer of schema fields. The room and commands never assign state fields themselves:
 * they change the game (pure rules) or the seats, then call in here.
 *
 * Schema 2.x sends a filtered field only when its instance is visited in a patch, and an equal
 * value is never re-sent. So when someone gains the right to see a field (a peek, the end of the
 * game) the field is marked dirty here, in the same patch that grants the right.
 */
import { MapSchema } from '@colyseus/schema';
import { WireOptions, wireOptions } from './rules/options';
import type { Game, GameOptions, PlayerId } from './rules';
import { CockroachState, Claim, LastReveal, Player, Round } from './schema/CockroachState';

/** The options as created, for `resetForRematch` to show again (`loseCount` 0 when not given). */
const createdOptions = new WeakMap<CockroachState, WireOptions>();

export function projectOptions(state: CockroachState, options: GameOptions, isPrivate: boolean): void {
  const wire = wireOptions(options, isPrivate);
  createdOptions.set(state, wire);
  state.options.assign(wire);
}

export function addSeatedPlayer(state: CockroachState, id: PlayerId, nickname: string, bot = false): void {
  state.players.set(id, new Player().assign({ id, nickname, bot, hand: new MapSchema<string>() }));
}

export function setScore(state: CockroachState, id: PlayerId, score: number): void {
  const player = state.players.get(id);
  if (player) player.score = score;
}

export function setGamesPlayed(state: CockroachState, n: number): void {
  state.gamesPlayed = n;
}

export interface FairnessFields {
  commitment?: string;
  /** Replaces the whole map: player id → entropy string. */
  entropy?: Record<string, string>;
  serverSeed?: string;
}

export function setFairness(state: CockroachState, fields: FairnessFields): void {
  const f = state.fairness;
  if (fields.commitment !== undefined) f.commitment = fields.commitment;
  if (fields.serverSeed !== undefined) f.serverSeed = fields.serverSeed;
  if (fields.entropy !== undefined) {
    const next = fields.entropy;
    for (const key of [...f.entropy.keys()]) if (!Object.prototype.hasOwnProperty.call(next, key)) f.entropy.delete(key);
    for (const [key, value] of Object.entries(next)) f.entropy.set(key, value);
  }
}

/**
 * Back to the lobby after a game, as PROTOCOL v2 "Rooms that last" says, keeping each player's
 * id, nickname, bot, score and presence. Hands are cleared first, in a patch of their own sent
 * while `phase` is still `ended`: the hand filter lets everyone see that clearing only then, and
 * a clearing sent in the lobby would leave the last game's hands on the other players' screens.
 * Each player then gets a fresh hand map: a client that already knows a map is sent only its
 * latest changes when it gains the right to see it, so at the next game's end the other players
 * would miss every card dealt while the map was hidden from them. A map it has never seen is
 * sent whole. The options go back to those the room was created with (`loseCount` 0 again when it
 * was not given). The caller sends the patch that carries the lobby.
 */
export function resetForRematch(state: CockroachState, sendPatch: () => void): void {
  state.players.forEach((player) => {
    if (player.hand.size > 0) player.hand.clear();
  });
  sendPatch();
  state.phase = 'lobby';
  state.step = 0;
  state.round = new Round();
  state.lastReveal = undefined;
  state.loser = '';
  state.lossReason = '';
  if (state.removed.length > 0) state.removed.clear();
  if (state.order.length > 0) state.order.clear();
  state.players.forEach((player) => {
    player.seat = -1;
    player.handCount = 0;
    player.hand = new MapSchema<string>();
    if (player.front.length > 0) player.front.clear();
  });
  const created = createdOptions.get(state);
  if (created) state.options.assign(created);
  projected.delete(state);
}

export function removeSeatedPlayer(state: CockroachState, id: PlayerId): void {
  state.players.delete(id);
}

export function setHost(state: CockroachState, id: PlayerId | null): void {
  state.hostId = id ?? '';
}

export function setPresence(state: CockroachState, id: PlayerId, presence: { connected?: boolean; away?: boolean }): void {
  const player = state.players.get(id);
  if (!player) return;
  if (presence.connected !== undefined) player.connected = presence.connected;
  if (presence.away !== undefined) player.away = presence.away;
}

export function setDeadline(state: CockroachState, epochMs: number): void {
  state.round.deadline = epochMs;
}

/**
 * The game last projected into each state, whether its end has been projected, and per player
 * what was last written (seat, hand and front sizes) so that an action touches only the players
 * it changed: reading a schema collection goes through a Proxy, six players per action add up.
 */
interface Projected {
  game: Game;
  ended: boolean;
  players: Map<PlayerId, { seat: number; hand: number; front: number }>;
}
const projected = new WeakMap<CockroachState, Projected>();

/**
 * Brings the schema in line with the game after `setupGame` or any applied action. A new `Game`
 * object is a new game: call `resetForRematch` before projecting a second one into a state.
 */
export function projectGame(state: CockroachState, game: Game): void {
  let last = projected.get(state);
  const newGame = !last || last.game !== game;
  if (newGame) {
    last = { game, ended: false, players: new Map() };
    projected.set(state, last);
    if (state.order.length > 0) state.order.clear();
    state.order.push(...game.order);
  }
  const endsNow = game.phase === 'ended' && !last!.ended;
  if (endsNow) last!.ended = true;
  state.phase = game.phase;
  state.step = game.step;
  state.options.loseCount = game.options.loseCount;
  const seen = last!.players;
  for (let seat = 0; seat < game.order.length; seat++) {
    const id = game.order[seat];
    const was = seen.get(id);
    const hand = game.hands[id].length;
    const front = game.fronts[id].length;
    if (was && was.seat === seat && was.hand === hand && was.front === front) continue;
    projectPlayer(state.players.get(id)!, game, id, seat);
    seen.set(id, { seat, hand, front });
  }
  projectRound(state, game, newGame);
  if (endsNow) projectEnd(state, game);
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
    round = new Round().assign({ no: r.no, deadline: state.round.deadline });
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
  for (const id of game.removed) state.removed.push(game.kinds[id]);
  // Every hand becomes public: visit each one in this very patch so its filter runs again.
  state.players.forEach((player) => player.setDirty('hand'));
}
