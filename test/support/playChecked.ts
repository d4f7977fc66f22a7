import assert from 'node:assert/strict';
import { activePlayer, Match, randomLegalAction, seedRng, validateOptions, viewFor } from '../../server/rules';
import type { Projection } from '../../server/project';
import { SeatSketch, tableStateAround } from '../../server/table/state';
import { playerViewOf } from '../../server/schema/playerView';
import { assertChangesAllowed, assertDecodedMatchesView, FilteredWire } from './decodedView';

/**
 * Plays one whole game into the projection's schema without sockets, checking every client's
 * decoded bytes against the rules' view after each patch. Every `defaultEvery`-th step is a
 * default action.
 */
export function playChecked(
  projection: Projection,
  wire: FilteredWire,
  seats: readonly SeatSketch[],
  seed: string,
  raw: Record<string, unknown> = {},
  defaultEvery = 7,
  isPrivate = false,
): Match {
  const options = validateOptions(raw);
  assert.ok(options.ok);
  const ids = seats.map((s) => s.id);
  const started = Match.start(seed, ids, options.options);
  assert.ok(started.ok);
  const { match } = started;
  const bot = seedRng(`${seed}-bot`);
  const check = () => {
    projection.project(tableStateAround(seats, match, options.options, isPrivate));
    const changes = wire.patch();
    for (const [viewer, decoded] of wire.decoded) {
      const view = viewFor(match.game, viewer);
      const who = viewer ?? 'spectator';
      assertChangesAllowed(decoded, changes.get(viewer)!, view, viewer, who);
      assertDecodedMatchesView(decoded, view, who, isPrivate);
      // The one adapter (SDK snapshot, bots) reads back exactly the rules' view from the bytes.
      assert.deepEqual(playerViewOf(decoded, viewer), view, `${who}: the adapter's view differs from the rules'`);
    }
  };
  check();
  while (match.game.phase === 'playing') {
    const player = activePlayer(match.game)!;
    if (match.game.step % defaultEvery === defaultEvery - 1) match.actByDefault();
    else assert.ok(match.act(player, randomLegalAction(match.game, player, bot)!).ok);
    check();
  }
  return match;
}
