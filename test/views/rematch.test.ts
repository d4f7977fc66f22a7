import assert from 'node:assert/strict';
import { validateOptions } from '../../server/rules';
import { Projection } from '../../server/project';
import { SeatSketch, tableStateAround } from '../../server/table/state';
import { CockroachState } from '../../server/schema/CockroachState';
import { FilteredWire, viewOfDecoded } from '../support/decodedView';
import { playChecked } from '../support/playChecked';

/** Every client decodes a lobby: no hands, no order, no round, seats back to -1. */
function assertLobbyEverywhere(wire: FilteredWire, ids: string[]) {
  for (const [viewer, decoded] of wire.decoded) {
    const who = viewer ?? 'spectator';
    const seen = viewOfDecoded(decoded);
    assert.equal(decoded.phase, 'lobby', who);
    assert.deepEqual(seen.handsSeen, {}, `${who}: still decodes the last game's hands in the lobby`);
    assert.deepEqual(seen.order, [], who);
    assert.equal(decoded.step, 0, who);
    assert.equal(decoded.round.no, 0, who);
    assert.equal(decoded.round.cardKind, '', who);
    assert.equal(decoded.lastReveal, undefined, who);
    assert.equal(decoded.loser, '', who);
    assert.equal(decoded.lossReason, '', who);
    assert.equal(decoded.removed.length, 0, who);
    assert.equal(decoded.options.loseCount, 0, `${who}: loseCount not given, so 0 in the lobby again`);
    assert.equal(decoded.options.claimHistory, false, `${who}: the same options`);
    assert.equal(decoded.options.private, true, `${who}: the same options`);
    for (const id of ids) {
      const p = decoded.players.get(id)!;
      assert.equal(p.seat, -1, `${who}: seat of ${id}`);
      assert.equal(p.handCount, 0, `${who}: handCount of ${id}`);
      assert.equal(p.front.length, 0, `${who}: front of ${id}`);
    }
  }
}

describe('views: a rematch, on decoded bytes', () => {
  for (const count of [2, 4, 6]) {
    it(`${count} players and a spectator: one patch back to the lobby shows no old hands, the second game only each owner's`, () => {
      const ids = Array.from({ length: count }, (_, i) => `player${i}`);
      const seats: SeatSketch[] = ids.map((id, i) => ({ id, bot: i === 1 }));
      const options = validateOptions({ claimHistory: false });
      assert.ok(options.ok);
      const projection = new Projection(new CockroachState());
      projection.project(tableStateAround(seats, null, options.options, true));
      const wire = new FilteredWire(projection.schema, [...ids, null]);

      const first = playChecked(projection, wire, seats, `rematch-${count}-a`, { claimHistory: false }, 7, true);
      assert.equal(first.game.phase, 'ended');
      // After the end every client decoded every hand: the clearing must reach them all.
      const ended = viewOfDecoded(wire.decoded.get(null)!);
      assert.ok(Object.keys(ended.handsSeen).length > 0, 'the spectator saw the hands at the end');

      const scored = seats.map((s, i) => (i === 0 ? { ...s, score: 3 } : s));
      projection.project(tableStateAround(scored, null, options.options, true));
      wire.patch();
      assertLobbyEverywhere(wire, ids);
      for (const [viewer, decoded] of wire.decoded) {
        const who = viewer ?? 'spectator';
        assert.equal(decoded.players.get(ids[0])!.score, 3, `${who}: the score survives`);
        assert.equal(decoded.players.get(ids[1])!.bot, true, `${who}: a bot stays a bot`);
        assert.equal(decoded.players.get(ids[1])!.nickname, ids[1], who);
      }

      const second = playChecked(projection, wire, scored, `rematch-${count}-b`, { claimHistory: false }, 7, true);
      assert.equal(second.game.phase, 'ended');

      projection.project(tableStateAround(scored, null, options.options, true));
      wire.patch();
      assertLobbyEverywhere(wire, ids);
    });
  }

  it('would catch stale hands: a lobby that does not clear the last game leaves them on every screen', () => {
    const ids = ['a', 'b', 'c'];
    const seats = ids.map((id) => ({ id }));
    const options = validateOptions({ claimHistory: false });
    assert.ok(options.ok);
    const projection = new Projection(new CockroachState());
    projection.project(tableStateAround(seats, null, options.options, true));
    const wire = new FilteredWire(projection.schema, [...ids, null]);
    playChecked(projection, wire, seats, 'rematch-naive', { claimHistory: false }, 7, true);
    projection.schema.phase = 'lobby';
    wire.patch();
    assert.throws(() => assertLobbyEverywhere(wire, ids), /last game's hands/);
  });
});
