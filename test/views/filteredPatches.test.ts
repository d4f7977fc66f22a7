/**
 * The room's own patch writer (server/schema/filteredPatches.ts) against @colyseus/schema 2.0's
 * `applyFilters`: twin clients (same session id, each with its own filter state) get the library's
 * bytes and ours after every change of whole games, from the lobby through drops, a spectator
 * joining mid-game, the end (every hand revealed), a rematch and a second game. Every patch must
 * be byte for byte the same, for every client.
 */
import assert from 'node:assert/strict';
import { SchemaSerializer } from 'colyseus';
import type { Client } from 'colyseus';
import { encode } from '@colyseus/schema';
import { activePlayer, Match, randomLegalAction, seedRng, validateOptions } from '../../server/rules';
import type { GameOptions, PlayerId } from '../../server/rules';
import { Projection } from '../../server/project';
import { CockroachState } from '../../server/schema/CockroachState';
import { FilteredPatchSerializer, PatchBytes, PatchPlan, writeFilteredPatch } from '../../server/schema/filteredPatches';
import { tableStateAround, TableState } from '../../server/table/state';
import { create, joinById, useTestServer } from '../support/server';

interface Twins {
  id: string;
  library: Client;
  ours: Client;
}

class Bench {
  readonly state = new CockroachState();
  readonly projection = new Projection(this.state);
  readonly twins: Twins[] = [];
  patches = 0;
  bytes = 0;
  /** One buffer for every client and patch, as the room's serializer keeps it. */
  private readonly out = new PatchBytes();

  /** One patch: encoded once, then each twin cut by the library and by ours. */
  patch(): void {
    const state = this.state;
    if ((state as unknown as { $changes: { changes: Map<unknown, unknown> } }).$changes.changes.size === 0) return;
    state.encode(false, [], true);
    const plan = new PatchPlan();
    for (const t of this.twins) {
      const expected = state.applyFilters(t.library);
      const out = this.out;
      out.reset();
      writeFilteredPatch(state, t.ours, plan, out);
      assert.deepEqual(out.toArray(), expected, `patch ${this.patches} for ${t.id}`);
      this.bytes += out.length;
    }
    state.discardAllChanges();
    this.patches++;
  }

  /** A client joins: pending changes go out first, then it gets the full state (the library's, for both twins). */
  join(id: string): void {
    this.patch();
    const twins: Twins = { id, library: { sessionId: id } as Client, ours: { sessionId: id } as Client };
    this.state.encodeAll(true);
    assert.deepEqual(this.state.applyFilters(twins.ours, true), this.state.applyFilters(twins.library, true));
    this.twins.push(twins);
  }

  project(table: TableState, deadline = 0): void {
    table.deadline = deadline;
    this.projection.project(table);
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
    bench.projection.project(
      tableStateAround(
        ids.map((id) => ({ id })),
        started.match,
        opts,
      ),
    );
    const state = bench.state;
    state.encode(false, [], true);
    const stranger = { sessionId: 'x1' } as Client; // never sent the full state
    const out = new PatchBytes();
    writeFilteredPatch(state, stranger, new PatchPlan(), out);
    assert.notDeepEqual(out.toArray(), state.applyFilters(bench.twins[0].library));
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
