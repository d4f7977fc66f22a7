import assert from 'node:assert/strict';
import { GameOptions, Match, validateOptions, viewFor } from '../../server/rules';
import { Projection } from '../../server/project';
import { tableStateAround } from '../../server/table/state';
import { CockroachState } from '../../server/schema/CockroachState';
import { assertDecodedMatchesView, FilteredWire } from '../support/decodedView';
import { playChecked as playGameChecked } from '../support/playChecked';

const seatsOf = (ids: string[]) => ids.map((id) => ({ id }));

/** A schema with these players seated in the lobby, projected from a table state. */
function lobby(ids: string[], options: GameOptions, isPrivate = false): Projection {
  const projection = new Projection(new CockroachState());
  projection.project(tableStateAround(seatsOf(ids), null, options, isPrivate));
  return projection;
}

function playChecked(seed: string, count: number, rawOptions: Record<string, unknown>, isPrivate = false) {
  const ids = Array.from({ length: count }, (_, i) => `player${i}`);
  const options = validateOptions(rawOptions);
  assert.ok(options.ok);
  const projection = lobby(ids, options.options, isPrivate);
  const wire = new FilteredWire(projection.schema, [...ids, null]);
  return playGameChecked(projection, wire, seatsOf(ids), seed, rawOptions, 5, isPrivate);
}

describe('views: encode, filter per client, decode — without sockets', () => {
  for (const count of [2, 3, 4, 5, 6]) {
    it(`gives each of ${count} players and a spectator exactly their view after every action`, () => {
      for (let g = 0; g < 4; g++) {
        const raw = {
          twoPlayerPass: g % 2 === 0,
          claimHistory: g !== 1,
          eightKindsRule: g === 3,
          quickChat: g !== 2,
          turnSeconds: [15, 30, 60, 30][g],
          ...(g === 2 ? { loseCount: 3 } : {}),
        };
        const match = playChecked(`filters-${count}-${g}`, count, raw, g === 1);
        assert.equal(match.game.phase, 'ended');
      }
    });
  }

  it('would catch a leak: an unfiltered hand decodes where it must not', () => {
    const options = validateOptions({});
    assert.ok(options.ok);
    const projection = lobby(['a', 'b'], options.options);
    const wire = new FilteredWire(projection.schema, ['a', 'b']);
    const started = Match.start('leak', ['a', 'b'], options.options);
    assert.ok(started.ok);
    projection.project(tableStateAround(seatsOf(['a', 'b']), started.match, options.options));
    wire.patch();
    // Hand a's cards to b's client by lying about who b is: the check must notice.
    const decodedB = wire.decoded.get('b')!;
    assert.throws(() => assertDecodedMatchesView(decodedB, viewFor(started.match.game, 'a'), 'b as a'), /hands decoded differ/);
  });

  it('would catch a wrongly projected option: each option, flipped on the wire, fails the check', () => {
    const options = validateOptions({ loseCount: 4 });
    assert.ok(options.ok);
    const started = Match.start('options', ['a', 'b'], options.options);
    assert.ok(started.ok);
    const game = started.match.game;
    const wrong: Record<string, unknown> = {
      loseCount: 5,
      turnSeconds: 60,
      claimHistory: false,
      quickChat: false,
      eightKindsRule: true,
      twoPlayerPass: true,
      showSeenBy: false,
      private: true,
    };
    for (const [key, value] of Object.entries(wrong)) {
      const projection = lobby(['a', 'b'], options.options);
      projection.project(tableStateAround(seatsOf(['a', 'b']), started.match, options.options));
      const state = projection.schema;
      (state.options as unknown as Record<string, unknown>)[key] = value;
      const wire = new FilteredWire(state, ['a']);
      assert.throws(
        () => assertDecodedMatchesView(wire.decoded.get('a')!, viewFor(game, 'a'), `a with ${key} wrong`, false),
        /decoded options differ|private flag differs/,
        key,
      );
    }
  });

  it('a player leaving the lobby decodes without a warning on the other clients', () => {
    const options = validateOptions({});
    assert.ok(options.ok);
    const projection = lobby(['a', 'b', 'c'], options.options);
    const wire = new FilteredWire(projection.schema, ['a', 'b', null]);
    const warnings: unknown[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args.join(' '));
    try {
      projection.project(tableStateAround(seatsOf(['a', 'b']), null, options.options));
      wire.patch();
    } finally {
      console.warn = warn;
    }
    assert.deepEqual(warnings, []);
    for (const [viewer, decoded] of wire.decoded) assert.deepEqual([...decoded.players.keys()], ['a', 'b'], String(viewer));
  });
});
