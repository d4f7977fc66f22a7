// Shared tools for the rules tests: seat players in a known order, arrange cards while keeping the
// 64-card accounting exact, and apply actions that must (or must not) go through.
import assert from 'node:assert/strict';
import {
  Action,
  applyAction,
  DECK_SIZE,
  DEFAULT_OPTIONS,
  Game,
  GameOptions,
  Kind,
  KINDS,
  Match,
  PlayerId,
  RULE_MESSAGES,
  RuleErrorCode,
} from '../../server/rules';

export const LETTERS = ['A', 'B', 'C', 'D', 'E', 'F'] as const;

export function opts(over: Partial<GameOptions> = {}): GameOptions {
  return { ...DEFAULT_OPTIONS, ...over };
}

/**
 * A match whose seats are A, B, C, … in that order (A starts): the first seed `prefix#i` whose
 * RNG seating happens to equal the join order. Deterministic, and replayable like any match.
 */
export function seatedMatch(n: number, over: Partial<GameOptions> = {}, prefix = 'seat'): Match {
  const players = LETTERS.slice(0, n);
  for (let i = 0; i < 100_000; i++) {
    const r = Match.start(`${prefix}#${i}`, players, opts(over));
    if (!r.ok) throw new Error(`setup refused: ${r.error.code}`);
    if (r.match.game.order.join() === players.join()) return r.match;
  }
  throw new Error('no seed seats the players in join order');
}

export function seatedGame(n: number, over: Partial<GameOptions> = {}, prefix = 'seat'): Game {
  return seatedMatch(n, over, prefix).game;
}

/** Takes card `id` out of whichever hand, front or removed pile holds it. */
function detach(game: Game, id: number): void {
  assert.notEqual(game.round.card, id, 'cannot move the card in flight');
  for (const pile of [...Object.values(game.hands), ...Object.values(game.fronts), game.removed]) {
    const at = pile.indexOf(id);
    if (at >= 0) {
      pile.splice(at, 1);
      return;
    }
  }
  throw new Error(`card ${id} is nowhere`);
}

/** Some card of `kind` that is not in `player`'s hand or front: from hands first, then the removed pile (never a front). */
function spareCard(game: Game, kind: Kind, player: PlayerId, where: 'hand' | 'front'): number {
  const own = new Set([...game.fronts[player], ...(where === 'hand' ? game.hands[player] : [])]);
  const sources = [...game.order.map((p) => game.hands[p]), game.removed];
  for (const pile of sources) {
    const id = pile.find((c) => game.kinds[c] === kind && !own.has(c));
    if (id !== undefined) return id;
  }
  throw new Error(`no spare ${kind}`);
}

/** Lays `count` more cards of `kind` face up in front of `player`, taken from elsewhere. */
export function putInFront(game: Game, player: PlayerId, kind: Kind, count = 1): number[] {
  const moved: number[] = [];
  for (let i = 0; i < count; i++) {
    const id = spareCard(game, kind, player, 'front');
    detach(game, id);
    game.fronts[player].push(id);
    moved.push(id);
  }
  return moved;
}

/** Makes sure `player` holds a card of `kind` and returns its id. */
export function putInHand(game: Game, player: PlayerId, kind: Kind): number {
  const held = game.hands[player].find((c) => game.kinds[c] === kind);
  if (held !== undefined) return held;
  const id = spareCard(game, kind, player, 'hand');
  detach(game, id);
  game.hands[player].push(id);
  return id;
}

/** Moves every card of `player`'s hand into `into`'s hand. */
export function emptyHand(game: Game, player: PlayerId, into: PlayerId): void {
  game.hands[into].push(...game.hands[player]);
  game.hands[player] = [];
}

/** A card in `player`'s hand whose kind is not `kind`. */
export function handCardNot(game: Game, player: PlayerId, kind: Kind): number {
  const id = game.hands[player].find((c) => game.kinds[c] !== kind);
  assert.ok(id !== undefined, `${player} holds only ${kind}`);
  return id;
}

export function countKind(game: Game, ids: readonly number[], kind: Kind): number {
  return ids.filter((id) => game.kinds[id] === kind).length;
}

/** Every id 0..63 is in exactly one place, and each kind names exactly 8 ids. */
export function assertAccounted(game: Game): void {
  const all = [
    ...Object.values(game.hands).flat(),
    ...Object.values(game.fronts).flat(),
    ...game.removed,
    ...(game.round.card === null ? [] : [game.round.card]),
  ];
  assert.equal(all.length, DECK_SIZE, 'card count');
  assert.deepEqual(
    [...all].sort((a, b) => a - b),
    Array.from({ length: DECK_SIZE }, (_, i) => i),
    'each id once',
  );
  for (const k of KINDS) assert.equal(game.kinds.filter((x) => x === k).length, 8, `eight ${k}`);
}

/** Applies an action that must be allowed. */
export function play(game: Game, player: PlayerId, action: Action) {
  const r = applyAction(game, player, action);
  if (!r.ok) assert.fail(`${player} ${JSON.stringify(action)} refused: ${r.error.code}`);
  return r.events;
}

/** Applies an action that must be refused with `code`, and checks that nothing changed. */
export function refuse(game: Game, player: PlayerId, action: unknown, code: RuleErrorCode): void {
  const before = JSON.stringify(game);
  const r = applyAction(game, player, action as Action);
  assert.equal(r.ok, false, `${player} ${JSON.stringify(action)} should be refused with ${code}`);
  if (!r.ok) {
    assert.equal(r.error.code, code);
    assert.deepEqual(r.error, { code, message: RULE_MESSAGES[code] });
  }
  assert.equal(JSON.stringify(game), before, 'a refusal changes nothing');
}

export const HANGUL = /[\uAC00-\uD7A3]/;
