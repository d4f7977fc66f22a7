/**
 * The room's own patch writer (server/schema/filteredPatches.ts) against @colyseus/schema 2.0's
 * `encode` + `applyFilters`: the same tables are projected into two states, one sent by the library
 * (which keeps each field's bytes) and one by the room's serializer (which keeps none and numbers
 * objects itself); twin clients (same session id, each with its own filter state) get the library's
 * bytes and ours after every change of whole games, from the lobby through drops, a spectator
 * joining mid-game, the end (every hand revealed), a rematch and a second game. Every patch and
 * every join's full state must be byte for byte the same, for every client.
 */
import assert from 'node:assert/strict';
import { SchemaSerializer } from 'colyseus';
import type { Client } from 'colyseus';
import { encode } from '@colyseus/schema';
import { activePlayer, Match, randomLegalAction, seedRng, validateOptions } from '../../server/rules';
import type { GameOptions, PlayerId } from '../../server/rules';
import { Projection } from '../../server/project';
import { CockroachState } from '../../server/schema/CockroachState';
import { assignRefIds, FilteredPatchSerializer, PatchBytes, PatchPlan, writeFilteredPatch } from '../../server/schema/filteredPatches';
import { tableStateAround, TableState } from '../../server/table/state';
import { create, joinById, useTestServer } from '../support/server';

interface Twins {
  id: string;
  library: Client;
  ours: Client;
}

type Tree = {
  changes: Map<unknown, unknown>;
  allChanges: Set<number>;
  caches: Record<number, unknown>;
  getValue(i: number): { $changes?: Tree } | null;
};
const treeOf = (state: CockroachState) => (state as unknown as { $changes: Tree }).$changes;

/** Every change tree under the root. */
function treesUnder(state: CockroachState): Tree[] {
  const trees = [treeOf(state)];
  for (let t = 0; t < trees.length; t++)
    trees[t].allChanges.forEach((index) => {
      const child = trees[t].getValue(index)?.$changes;
      if (child) trees.push(child);
    });
  return trees;
}

class Bench {
  /** Sent by the library, as Colyseus's SchemaSerializer does. */
  readonly library = new CockroachState();
  /** Sent by the room's serializer. */
  readonly state = new CockroachState();
  readonly serializer = new FilteredPatchSerializer<CockroachState>();
  readonly projections = [new Projection(this.library), new Projection(this.state)];
  readonly twins: Twins[] = [];
  patches = 0;
  bytes = 0;
  /** One buffer for every client and patch, as the room's serializer keeps it. */
  private readonly out = new PatchBytes();

  constructor() {
    this.serializer.reset(this.state);
  }

  /** One patch: the library encodes once and cuts per twin; ours numbers new objects, then writes each twin's cut. */
  patch(): void {
    const { library, state } = this;
    const changed = treeOf(library).changes.size > 0;
    assert.equal(treeOf(state).changes.size > 0, changed, 'both states changed alike');
    if (!changed) return;
    library.encode(false, [], true);
    assignRefIds(state, false);
    const plan = new PatchPlan();
    for (const t of this.twins) {
      const expected = library.applyFilters(t.library);
      const out = this.out;
      out.reset();
      writeFilteredPatch(state, t.ours, plan, out);
      assert.deepEqual(out.toArray(), expected, `patch ${this.patches} for ${t.id}`);
      this.bytes += out.length;
    }
    library.discardAllChanges();
    state.discardAllChanges();
    this.patches++;
  }

  /** A client joins: pending changes go out first, then it gets the full state. */
  join(id: string): void {
    this.patch();
    const twins: Twins = { id, library: { sessionId: id } as Client, ours: { sessionId: id } as Client };
    this.library.encodeAll(true);
    assert.deepEqual(this.serializer.getFullState(twins.ours), this.library.applyFilters(twins.library, true), `${id}'s full state`);
    this.twins.push(twins);
  }

  project(table: TableState, deadline = 0): void {
    table.deadline = deadline;
    for (const projection of this.projections) projection.project(table);
    this.patch();
  }
}

function options(raw: Record<string, unknown>): GameOptions {
  const parsed = validateOptions(raw);
  if (!parsed.ok) throw new Error('options');
  return parsed.options;
}

function play(players: number, raw: Record<string, unknown>, seed: string): Bench {
  const bench = new Bench();
  const opts = options(raw);
  const ids: PlayerId[] = Array.from({ length: players }, (_, i) => `p${i}${seed}`.slice(0, 9));
  const seats = (n: number, scores: Record<string, number> = {}) => ids.slice(0, n).map((id) => ({ id, score: scores[id] ?? 0 }));
  const rng = seedRng(`${seed}-moves`);
  let scores: Record<string, number> = {};
  for (let n = 1; n <= players; n++) {
    bench.project(tableStateAround(seats(n), null, opts));
    bench.join(ids[n - 1]);
  }
  for (let game = 0; game < 2; game++) {
    const started = Match.start(`${seed}-${game}`, ids, opts);
    assert.ok(started.ok);
    const match = started.match;
    const table = () => tableStateAround(seats(players, scores), match, opts);
    bench.project(table(), 1_767_000_000_000);
    for (let step = 0; match.game.phase === 'playing' && step < 400; step++) {
      const actor = activePlayer(match.game)!;
      assert.ok(match.act(actor, randomLegalAction(match.game, actor, rng)!).ok);
      const now = table();
      // Someone's connection drops for a few moves: the seat's flags change in the patches.
      if (step % 7 === 3) now.seats.get(ids[step % players])!.connected = false;
      bench.project(now, 1_767_000_000_000 + step * 1000);
      if (game === 0 && step === 5) bench.join(`watch${seed}`.slice(0, 9));
    }
    assert.equal(match.game.phase, 'ended');
    scores = { ...scores, [match.game.loser!]: (scores[match.game.loser!] ?? 0) + 1 };
    // The rematch: back to the lobby, the last game's fields cleared.
    bench.project(tableStateAround(seats(players, scores), null, opts));
  }
  return bench;
}

describe('views: the room writes each client’s patch as @colyseus/schema would (issue 25)', function () {
  this.timeout(60000);
  const cases: [number, Record<string, unknown>][] = [
    [2, {}],
    [3, { claimHistory: false }],
    [4, {}],
    [6, {}],
    [6, { claimHistory: false }],
  ];
  for (const [players, raw] of cases) {
    it(`${players} players ${JSON.stringify(raw)}: every client's bytes equal the library's after every change, over two games`, () => {
      for (const seed of ['a', 'b', 'c']) {
        const bench = play(players, raw, seed);
        assert.ok(bench.patches > 40, `${bench.patches} patches compared`);
        assert.ok(bench.bytes > 1000);
        const ours = treesUnder(bench.state);
        assert.ok(ours.length > 8, `${ours.length} objects`);
        assert.deepEqual(
          ours.filter((tree) => Object.keys(tree.caches).length > 0),
          [],
          'no field bytes kept by ours',
        );
        assert.ok(
          treesUnder(bench.library).some((tree) => Object.keys(tree.caches).length > 0),
          'the library keeps them',
        );
      }
    });
  }

  it('writes integers as the library does, at every size boundary', () => {
    for (const value of [0, 1, 127, 128, 255, 256, 65535, 65536, 2 ** 24, 2 ** 32 - 1, 2 ** 32, -1, -200, 1.5, NaN, Infinity]) {
      const ours = new PatchBytes();
      ours.uint(value);
      const theirs: number[] = [];
      encode.number(theirs, value);
      assert.deepEqual(ours.toArray(), theirs, String(value));
    }
    const big = new PatchBytes();
    const many = Array.from({ length: 5000 }, (_, i) => i % 256);
    big.append(many);
    assert.deepEqual(big.toArray(), many, 'grows past its first size');
    assert.deepEqual([...big.toBuffer(15).subarray(0, 3)], [15, 0, 1]);
  });

  it('would notice a difference: a client with another filter state gets other bytes', () => {
    const bench = new Bench();
    const opts = options({});
    const ids = ['x1', 'x2', 'x3'];
    for (let n = 1; n <= 3; n++) {
      bench.project(
        tableStateAround(
          ids.slice(0, n).map((id) => ({ id })),
          null,
          opts,
        ),
      );
      bench.join(ids[n - 1]);
    }
    const started = Match.start('diff', ids, opts);
    assert.ok(started.ok);
    const table = tableStateAround(
      ids.map((id) => ({ id })),
      started.match,
      opts,
    );
    for (const projection of bench.projections) projection.project(table);
    const { library, state } = bench;
    library.encode(false, [], true);
    assignRefIds(state, false);
    const stranger = { sessionId: 'x1' } as Client; // never sent the full state
    const out = new PatchBytes();
    writeFilteredPatch(state, stranger, new PatchPlan(), out);
    assert.notDeepEqual(out.toArray(), library.applyFilters(bench.twins[0].library));
    library.discardAllChanges();
    state.discardAllChanges();
  });

  it('sends every room the same handshake, the library’s bytes, held once', () => {
    const [a, b] = [new FilteredPatchSerializer<CockroachState>(), new FilteredPatchSerializer<CockroachState>()];
    a.reset(new CockroachState());
    b.reset(new CockroachState());
    const library = new SchemaSerializer<CockroachState>();
    library.reset(new CockroachState());
    assert.deepEqual(a.handshake(), library.handshake());
    assert.ok(a.handshake().length > 100);
    assert.equal(a.handshake(), b.handshake(), 'one array for both rooms');
  });

  describe('in a room', () => {
    const ts = useTestServer();

    it('is the serializer of every room, and clients decode its patches', async () => {
      const host = await create(ts, { nickname: 'host' }, 'host');
      const guest = await joinById(ts, host.room.roomId, { nickname: 'guest' }, 'guest');
      const room = ts.serverRoom(host.room.roomId) as unknown as { _serializer: unknown };
      assert.ok(room._serializer instanceof FilteredPatchSerializer);
      await host.until(() => host.state.players.size === 2, 'the guest seen in a patch');
      host.room.send('start', {});
      await guest.until(() => guest.state.phase === 'playing' && guest.state.players.get(guest.room.sessionId)!.hand.size > 0, 'own hand');
      assert.equal(guest.state.players.get(host.room.sessionId)!.hand.size, 0, 'not the host’s');
      await Promise.all([host.leave(), guest.leave()]);
    });
  });
});
