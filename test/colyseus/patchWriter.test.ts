/**
 * The room's patch writer (server/colyseus/schema/patchWriter.ts) against the stock library: the
 * same seeded evenings (scenario.ts) are played twice, once here through the room's writer and
 * once in a worker thread through Colyseus's own SchemaSerializer (@colyseus/schema 2.0's `encode`
 * + `applyFilters`, with nothing of ours loaded there), and every patch and every full state each
 * client was sent must be equal byte for byte.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { SchemaSerializer } from 'colyseus';
import { encode } from '@colyseus/schema';
import { CockroachState } from '../../server/schema/CockroachState';
import { FilteredPatchSerializer, PatchBytes } from '../../server/colyseus/schema/patchWriter';
import { playScenario, ScenarioSpec, StateWriter } from './scenario';
import { create, joinById, useTestServer } from '../support/server';

const SPECS: ScenarioSpec[] = [
  { seed: 'a', players: 2, options: {} },
  { seed: 'b', players: 3, options: { claimHistory: false } },
  { seed: 'c', players: 4, options: { twoPlayerPass: false } },
  { seed: 'd', players: 5, options: { eightKindsRule: true } },
  { seed: 'e', players: 6, options: {} },
  { seed: 'f', players: 2, options: { twoPlayerPass: true } },
];

function stock(specs: ScenarioSpec[]): Promise<{ results: string[][]; ours: string[] }> {
  const entry = path.join(__dirname, 'stockWorker.ts');
  return new Promise((resolve, reject) => {
    const worker = new Worker(`require('tsx/cjs'); require(${JSON.stringify(entry)});`, { eval: true, workerData: specs });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => code !== 0 && reject(new Error(`worker exited ${code}`)));
  });
}

const ours = (spec: ScenarioSpec) => playScenario(spec, new FilteredPatchSerializer<CockroachState>() as unknown as StateWriter);

/** The first message that differs, or null. */
function firstDifference(a: string[], b: string[]): string | null {
  for (let i = 0; i < Math.max(a.length, b.length); i++)
    if (a[i] !== b[i]) return `message ${i}:\n  ours:  ${a[i]?.slice(0, 160)}\n  stock: ${b[i]?.slice(0, 160)}`;
  return null;
}

describe('colyseus: the room’s patch writer sends what the stock library sends (issue 33)', function () {
  this.timeout(120_000);
  let expected: string[][] = [];

  before(async () => {
    const answer = await stock(SPECS);
    assert.deepEqual(
      answer.ours.filter((file) => /server\/(colyseus|room|http|transport|ops)\//.test(file)),
      [],
      'the worker loaded nothing of ours that touches the library',
    );
    expected = answer.results;
  });

  for (const [i, spec] of SPECS.entries()) {
    it(`${spec.players} players ${JSON.stringify(spec.options)}: every client's patch and full state, byte for byte`, () => {
      const sent = ours(spec);
      assert.ok(sent.length > 150, `${sent.length} messages compared`);
      assert.ok(sent.filter((m) => m.includes(' full ')).length >= spec.players + 3, 'joins, watchers and a reconnection');
      assert.equal(firstDifference(sent, expected[i]), null);
    });
  }

  it('fails when one byte of the writer changes', () => {
    const u8 = PatchBytes.prototype.u8;
    let calls = 0;
    PatchBytes.prototype.u8 = function (this: PatchBytes, value: number) {
      // The 500th structure switch is written one off, as a slip in the writer would.
      return u8.call(this, value === 255 && ++calls === 500 ? 254 : value);
    };
    try {
      const difference = firstDifference(ours(SPECS[4]), expected[4]);
      assert.ok(difference !== null, 'the mutation was noticed');
    } finally {
      PatchBytes.prototype.u8 = u8;
    }
    assert.equal(firstDifference(ours(SPECS[4]), expected[4]), null, 'and the writer restored passes again');
  });

  it('writes integers as the library does, at every size boundary', () => {
    for (const value of [0, 1, 127, 128, 255, 256, 65535, 65536, 2 ** 24, 2 ** 32 - 1, 2 ** 32, -1, -200, 1.5, NaN, Infinity]) {
      const bytes = new PatchBytes();
      bytes.uint(value);
      const theirs: number[] = [];
      encode.number(theirs, value);
      assert.deepEqual(bytes.toArray(), theirs, String(value));
    }
  });

  it('sends every room the library’s handshake, held once per state class', () => {
    const [a, b] = [new FilteredPatchSerializer<CockroachState>(), new FilteredPatchSerializer<CockroachState>()];
    a.reset(new CockroachState());
    b.reset(new CockroachState());
    const library = new SchemaSerializer<CockroachState>();
    library.reset(new CockroachState());
    assert.deepEqual(a.handshake(), library.handshake());
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
