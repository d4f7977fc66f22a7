import assert from 'node:assert/strict';
import { Reflection } from '@colyseus/schema';
import { OPTION_SPECS, validateOptions, wireOptions } from '../../server/rules/options';
import { Projection } from '../../server/project';
import { tableStateAround } from '../../server/table/state';
import type { GameOptions } from '../../server/rules';

function projectOptions(state: CockroachState, options: GameOptions, isPrivate: boolean): void {
  new Projection(state).project(tableStateAround([], null, options, isPrivate));
}
import { CockroachState } from '../../server/schema/CockroachState';
import { buildSnapshot } from '../../client-sdk/snapshot';

describe('views: options described once (server/rules/options.ts)', () => {
  const raw = { turnSeconds: 60, claimHistory: false, eightKindsRule: true, loseCount: 3 };

  it('the schema has one field per option of the list, with its wire type, in the list order', () => {
    const fields = (new CockroachState().options as unknown as { _definition: { schema: unknown } })._definition;
    const schema = fields.schema as Record<string, string>;
    assert.deepEqual(
      Object.keys(schema),
      OPTION_SPECS.map((s) => s.key),
    );
    for (const spec of OPTION_SPECS) assert.equal(schema[spec.key], spec.wire, spec.key);
  });

  it('a client with the classes, one with only the handshake, and the SDK snapshot all read the projected options', () => {
    const options = validateOptions(raw);
    assert.ok(options.ok);
    const state = new CockroachState();
    projectOptions(state, options.options, true);
    const expected = wireOptions(options.options, true);
    assert.deepEqual(expected, {
      loseCount: 3,
      turnSeconds: 60,
      claimHistory: false,
      quickChat: true,
      eightKindsRule: true,
      twoPlayerPass: false,
      showSeenBy: true,
      private: true,
    });

    const typed = new CockroachState();
    typed.decode(state.encodeAll());
    const reflected = Reflection.decode(Reflection.encode(state)) as unknown as CockroachState;
    reflected.decode(state.encodeAll());
    for (const decoded of [typed, reflected]) assert.deepEqual({ ...decoded.options.toJSON() }, expected);
    assert.deepEqual(buildSnapshot(typed, null, 'room', null).options, expected);
  });

  it('shows loseCount 0 while it was not given, and the snapshot resolves it by seat count', () => {
    const options = validateOptions({});
    assert.ok(options.ok);
    const state = new CockroachState();
    projectOptions(state, options.options, false);
    assert.equal(state.options.loseCount, 0);
    assert.equal(state.options.turnSeconds, 30);
    assert.equal(buildSnapshot(state, null, 'room', null).options.loseCount, 4);
  });
});
