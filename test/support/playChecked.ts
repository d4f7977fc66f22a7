import assert from 'node:assert/strict';
import { activePlayer, Match, randomLegalAction, seedRng, validateOptions, viewFor } from '../../server/rules';
import { projectGame } from '../../server/project';
import type { CockroachState } from '../../server/schema/CockroachState';
import { assertChangesAllowed, assertDecodedMatchesView, FilteredWire } from './decodedView';

/**
 * Plays one whole game into `state` without sockets, checking every client's decoded bytes
 * against the rules' view after each patch. Every `defaultEvery`-th step is a default action.
 */
export function playChecked(
  state: CockroachState,
  wire: FilteredWire,
  ids: string[],
  seed: string,
  raw: Record<string, unknown> = {},
  defaultEvery = 7,
): Match {
  const options = validateOptions(raw);
  assert.ok(options.ok);
  const started = Match.start(seed, ids, options.options);
  assert.ok(started.ok);
  const { match } = started;
  const bot = seedRng(`${seed}-bot`);
  const check = () => {
    projectGame(state, match.game);
    const changes = wire.patch();
    for (const [viewer, decoded] of wire.decoded) {
      const view = viewFor(match.game, viewer);
      const who = viewer ?? 'spectator';
      assertChangesAllowed(decoded, changes.get(viewer)!, view, viewer, who);
      assertDecodedMatchesView(decoded, view, who, state.options.private);
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
