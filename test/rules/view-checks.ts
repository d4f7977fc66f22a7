// What a view may hold, checked field by field against the game it was made from. Used by the
// view tests and by the property tests at sampled steps.
import assert from 'node:assert/strict';
import { Game, PlayerId, PlayerView, viewFor } from '../../server/rules';

/** In JSON only a key is followed by a colon, so this finds these keys at any depth. */
const FORBIDDEN_KEY = /"(rng|seed|kinds|card)":/;

/** deepEqual, with a cheap JSON fast path: the property tests call this thousands of times. */
function same(actual: unknown, expected: unknown, message?: string): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) assert.deepEqual(actual, expected, message);
}

/** Builds viewFor(game, viewer) and checks it holds exactly what `viewer` may know. */
export function assertViewSafe(game: Game, viewer: PlayerId | null): PlayerView {
  const view = viewFor(game, viewer);
  const ended = game.phase === 'ended';
  const match = FORBIDDEN_KEY.exec(JSON.stringify(view));
  if (match) assert.fail(`view of ${viewer} has a key ${match[0]}`);

  same(view.order, game.order);
  for (const p of game.order) {
    const entry = view.players[p];
    assert.equal(entry.handCount, game.hands[p].length);
    same(
      entry.front,
      game.fronts[p].map((id) => game.kinds[id]),
    );
    if (ended || p === viewer) {
      const expected = Object.fromEntries(game.hands[p].map((id) => [String(id), game.kinds[id]]));
      same(entry.hand, expected, `${p}'s hand as seen by ${viewer}`);
    } else {
      if ('hand' in entry) assert.fail(`${viewer} sees ${p}'s hand`);
    }
  }
  same(Object.keys(view.players).sort(), [...game.order].sort());

  const r = game.round;
  const knowsCard = r.card !== null && viewer !== null && r.seen.includes(viewer);
  if (knowsCard) assert.equal(view.round.cardKind, game.kinds[r.card!]);
  else if ('cardKind' in view.round) assert.fail(`${viewer} sees the card in flight`);
  assert.equal(view.round.hasCard, r.card !== null);
  same(view.round.seen, r.seen);
  same(view.round.claims, game.options.claimHistory ? r.claims : []);

  if (ended)
    same(
      view.removed,
      game.removed.map((id) => game.kinds[id]),
    );
  else if ('removed' in view) assert.fail(`${viewer} sees the removed cards during play`);
  return view;
}
