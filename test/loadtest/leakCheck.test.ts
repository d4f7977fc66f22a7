import assert from 'node:assert/strict';
import { activePlayer, Match, randomLegalAction, seedRng, validateOptions } from '../../server/rules';
import { Projection } from '../../server/project';
import { tableStateAround } from '../../server/table/state';
import { CockroachState } from '../../server/schema/CockroachState';
import { hiddenInfoViolations, PatchChange } from '../../loadtest/lib/leakCheck';

/** Encode once, filter per client, decode into each client's own state (no sockets). */
function wire(state: CockroachState, ids: string[]) {
  state.encodeAll(true);
  const decoded = new Map<string, CockroachState>();
  for (const id of ids) {
    const d = new CockroachState();
    d.decode(state.applyFilters({ sessionId: id }, true));
    decoded.set(id, d);
  }
  state.discardAllChanges();
  return {
    decoded,
    patch(): Map<string, PatchChange[]> {
      state.encode(false, [], true);
      const changes = new Map<string, PatchChange[]>();
      for (const id of ids) changes.set(id, decoded.get(id)!.decode(state.applyFilters({ sessionId: id })) as unknown as PatchChange[]);
      state.discardAllChanges();
      return changes;
    },
  };
}

describe('loadtest leak check: what a bot can verify from its own view', () => {
  it('finds nothing in correctly filtered six-player games, and catches a view checked as someone else', () => {
    for (let g = 0; g < 3; g++) {
      const ids = Array.from({ length: 6 }, (_, i) => `p${i}`);
      const options = validateOptions({});
      assert.ok(options.ok);
      const seats = ids.map((id) => ({ id }));
      const projection = new Projection(new CockroachState());
      projection.project(tableStateAround(seats, null, options.options));
      const state = projection.schema;
      const w = wire(state, ids);
      const started = Match.start(`leak-check-${g}`, ids, options.options);
      assert.ok(started.ok);
      const { match } = started;
      const bot = seedRng(`leak-check-bot-${g}`);
      let caughtCardKind = false;
      const check = () => {
        projection.project(tableStateAround(seats, match, options.options));
        const changes = w.patch();
        for (const id of ids) assert.deepEqual(hiddenInfoViolations(w.decoded.get(id)!, id, changes.get(id)), [], id);
        // p0's view checked as if it were p1's: p0's own hand is someone else's for p1.
        if (match.game.phase === 'playing' && match.game.hands.p0.length > 0) {
          assert.ok(hiddenInfoViolations(w.decoded.get('p0')!, 'p1', changes.get('p0')).some((v) => v.startsWith('hand of p0')));
        }
        const round = w.decoded.get(ids[0])!.round;
        const seer = ids.find((id) => w.decoded.get(id)!.round.cardKind !== '');
        const outsider = ids.find((id) => !round.seen.includes(id));
        if (seer && outsider) {
          assert.ok(hiddenInfoViolations(w.decoded.get(seer)!, outsider).includes('cardKind without seeing the card'));
          caughtCardKind = true;
        }
      };
      check();
      while (match.game.phase === 'playing') {
        const player = activePlayer(match.game)!;
        assert.ok(match.act(player, randomLegalAction(match.game, player, bot)!).ok);
        check();
      }
      assert.equal(state.phase, 'ended');
      assert.ok(caughtCardKind, 'some card was seen by some and not by others');
    }
  });
});
