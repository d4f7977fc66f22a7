// What a view may hold, checked field by field against the game it was made from. Used by the
// view tests and by the property tests at sampled steps.
import assert from 'node:assert/strict';
import { Game, PlayerId, PlayerView, viewFor } from '../../server/rules';

const FORBIDDEN_KEYS = new Set(['rng', 'seed', 'kinds', 'card']);

function assertNoForbiddenKey(value: unknown, path: string): void {
  if (value === null || typeof value !== 'object') return;
  for (const [key, inner] of Object.entries(value)) {
    assert.ok(!FORBIDDEN_KEYS.has(key), `view has a key "${key}" at ${path}`);
    assertNoForbiddenKey(inner, `${path}.${key}`);
  }
}

/** Builds viewFor(game, viewer) and checks it holds exactly what `viewer` may know. */
export function assertViewSafe(game: Game, viewer: PlayerId | null): PlayerView {
  const view = viewFor(game, viewer);
  const ended = game.phase === 'ended';
  assertNoForbiddenKey(view, 'view');

  assert.deepEqual(view.order, game.order);
  for (const p of game.order) {
    const entry = view.players[p];
    assert.equal(entry.handCount, game.hands[p].length);
    assert.deepEqual(entry.front, game.fronts[p].map((id) => game.kinds[id]));
    if (ended || p === viewer) {
      const expected = Object.fromEntries(game.hands[p].map((id) => [String(id), game.kinds[id]]));
      assert.deepEqual(entry.hand, expected, `${p}'s hand as seen by ${viewer}`);
    } else {
      assert.ok(!('hand' in entry), `${viewer} sees ${p}'s hand`);
    }
  }
  assert.deepEqual(Object.keys(view.players).sort(), [...game.order].sort());

  const r = game.round;
  const knowsCard = r.card !== null && viewer !== null && r.seen.includes(viewer);
  if (knowsCard) assert.equal(view.round.cardKind, game.kinds[r.card!]);
  else assert.ok(!('cardKind' in view.round), `${viewer} sees the card in flight`);
  assert.equal(view.round.hasCard, r.card !== null);
  assert.deepEqual(view.round.seen, r.seen);
  assert.deepEqual(view.round.claims, game.options.claimHistory ? r.claims : []);

  if (ended) assert.deepEqual(view.removed, game.removed.map((id) => game.kinds[id]));
  else assert.ok(!('removed' in view), `${viewer} sees the removed cards during play`);
  return view;
}
