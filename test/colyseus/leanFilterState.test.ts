import assert from 'node:assert/strict';
import { Schema } from '@colyseus/schema';
import { activePlayer, Match, randomLegalAction, seedRng, validateOptions } from '../../server/rules';
import { Projection } from '../../server/project';
import { tableStateAround } from '../../server/table/state';
import { CockroachState } from '../../server/schema/CockroachState';
import { CLIENT_LEFT, LeanClientState, useLeanFilterState } from '../../server/colyseus/schema/leanFilterState';
import { ClientState } from 'colyseus';

/** The library's applyFilters with the lean bookkeeping installed on this client first (what patchWriter.ts does). */
function leanFilters(state: Schema, client: object, encodeAll = false): number[] {
  useLeanFilterState(client as never, state);
  return Schema.prototype.applyFilters.call(state, client as never, encodeAll);
}

/**
 * The lean per-client filter bookkeeping must send, byte for byte, what the library's own
 * ClientState sends: each viewer is filtered twice per patch, once through CockroachState's
 * lean state (installed as the room's patch writer does) and once with the library's own, and the
 * bytes compared. Nothing of the library is patched in this process.
 */
describe('views: lean per-client filter bookkeeping', () => {
  it('sends the same bytes as the library for every client, every patch, over whole games and a rematch', () => {
    for (const count of [2, 4, 6]) {
      const ids = Array.from({ length: count }, (_, i) => `p${i}`);
      const options = validateOptions({ twoPlayerPass: true });
      assert.ok(options.ok);
      const seats = ids.map((id) => ({ id }));
      const projection = new Projection(new CockroachState());
      projection.project(tableStateAround(seats, null, options.options));
      const state = projection.schema;
      const lean = [...ids, 'watcher'].map((sessionId) => ({ sessionId }));
      const library = [...ids, 'watcher'].map((sessionId) => ({ sessionId }));
      state.encodeAll(true);
      lean.forEach((c, i) => assert.deepEqual(leanFilters(state, c, true), Schema.prototype.applyFilters.call(state, library[i], true)));
      state.discardAllChanges();
      assert.ok(lean.every((c) => (c as { $filterState?: unknown }).$filterState instanceof LeanClientState));
      assert.ok(library.every((c) => !((c as { $filterState?: unknown }).$filterState instanceof LeanClientState)));
      let patches = 0;
      const patch = () => {
        state.encode(false, [], true);
        lean.forEach((c, i) =>
          assert.deepEqual(
            leanFilters(state, c),
            Schema.prototype.applyFilters.call(state, library[i]),
            `patch ${patches} for ${c.sessionId}`,
          ),
        );
        state.discardAllChanges();
        patches++;
      };
      for (const game of ['a', 'b']) {
        const started = Match.start(`lean-${count}-${game}`, ids, options.options);
        assert.ok(started.ok);
        const match = started.match;
        const rng = seedRng(`lean-${count}-${game}-bots`);
        projection.project(tableStateAround(seats, match, options.options));
        patch();
        while (match.game.phase === 'playing') {
          const player = activePlayer(match.game)!;
          if (match.game.step % 6 === 5) match.actByDefault();
          else match.act(player, randomLegalAction(match.game, player, rng)!);
          const table = tableStateAround(seats, match, options.options);
          table.deadline = match.game.step * 1000;
          projection.project(table);
          patch();
        }
        projection.project(tableStateAround(seats, null, options.options));
        patch();
      }
      assert.ok(patches > 20);
    }
  });

  it('answers has/add like a Set for every index range it keeps', () => {
    const client = { sessionId: 'x' };
    const state = new CockroachState();
    leanFilters(state, client, true);
    const lean = (client as unknown as { $filterState: LeanClientState }).$filterState;
    const tree = {};
    assert.equal(lean.refIds.has(tree), false);
    lean.addRefId(tree);
    assert.equal(lean.refIds.has(tree), true);
    const bits = lean.containerIndexes.get(tree)!;
    const indexes = [0, 1, 5, 29, 30, 31, 32, 33, 63, 64, 100, 4096];
    for (const i of indexes) {
      assert.equal(bits.has(i), false, `${i} before`);
      bits.add(i);
      assert.equal(bits.has(i), true, `${i} after`);
    }
    for (let i = 0; i < 130; i++) assert.equal(bits.has(i), indexes.includes(i), String(i));
  });

  it('keeps each object’s indexes apart, whatever was asked in between', () => {
    const client = { sessionId: 'x' };
    leanFilters(new CockroachState(), client, true);
    const lean = (client as unknown as { $filterState: LeanClientState }).$filterState;
    const [a, b] = [{}, {}];
    lean.addRefId(a);
    lean.addRefId(b);
    const ofA = lean.containerIndexes.get(a)!;
    ofA.add(3);
    assert.equal(lean.refIds.has(b), true); // asked about b while a's indexes are in hand
    ofA.add(40);
    const ofB = lean.containerIndexes.get(b)!;
    ofB.add(7);
    assert.deepEqual(
      [3, 7, 40].map((i) => ofB.has(i)),
      [false, true, false],
    );
    const againA = lean.containerIndexes.get(a)!;
    assert.deepEqual(
      [3, 7, 40].map((i) => againA.has(i)),
      [true, false, true],
    );
    assert.equal(lean.containerIndexes.get({}), undefined, 'an object never sent');
  });

  it('knows the states of a departed client by Colyseus’s own values', () => {
    assert.equal(CLIENT_LEFT.LEAVING, ClientState.LEAVING);
    assert.equal(CLIENT_LEFT.RECONNECTED, ClientState.RECONNECTED);
  });

  it('gives each client of a room its own entries on a shared object, and a newcomer in a departed client’s slot none of its', () => {
    const state = new CockroachState();
    const leanOf = (client: object) => (client as { $filterState: LeanClientState }).$filterState;
    const [first, second] = [
      { sessionId: 'a', state: ClientState.JOINED },
      { sessionId: 'b', state: ClientState.JOINED },
    ];
    leanFilters(state, first, true);
    leanFilters(state, second, true);
    const tree = {};
    leanOf(first).addRefId(tree);
    leanOf(first).containerIndexes.get(tree)!.add(4);
    assert.equal(leanOf(second).refIds.has(tree), false);
    leanOf(second).addRefId(tree);
    assert.equal(leanOf(second).containerIndexes.get(tree)!.has(4), false);
    assert.equal(leanOf(first).containerIndexes.get(tree)!.has(4), true);

    first.state = ClientState.LEAVING;
    const newcomer = { sessionId: 'c', state: ClientState.JOINING };
    leanFilters(state, newcomer, true);
    assert.equal((tree as { $held: unknown[] }).$held.length, 4, 'the departed client’s slot is taken over');
    assert.equal(leanOf(newcomer).refIds.has(tree), false, 'nothing inherited from the departed client');
    leanOf(newcomer).addRefId(tree);
    assert.equal(leanOf(newcomer).containerIndexes.get(tree)!.has(4), false);
    assert.equal(leanOf(second).refIds.has(tree), true);

    // A client of another room starts at the first slot of its own.
    const elsewhere = { sessionId: 'd', state: ClientState.JOINED };
    leanFilters(new CockroachState(), elsewhere, true);
    const other = {};
    leanOf(elsewhere).addRefId(other);
    assert.equal((other as { $held: unknown[] }).$held.length, 2);
  });
});
