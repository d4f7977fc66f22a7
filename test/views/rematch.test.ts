import assert from 'node:assert/strict';
import { validateOptions } from '../../server/rules';
import { addSeatedPlayer, projectOptions, resetForRematch, setScore } from '../../server/project';
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
    it(`${count} players and a spectator: the lobby shows no old hands, the second game only each owner's`, () => {
      const ids = Array.from({ length: count }, (_, i) => `player${i}`);
      const state = new CockroachState();
      const options = validateOptions({ claimHistory: false });
      assert.ok(options.ok);
      projectOptions(state, options.options, true);
      ids.forEach((id, i) => addSeatedPlayer(state, id, id, i === 1));
      const wire = new FilteredWire(state, [...ids, null]);

      const first = playChecked(state, wire, ids, `rematch-${count}-a`, { claimHistory: false });
      assert.equal(first.game.phase, 'ended');
      // After the end every client decoded every hand: the clearing must reach them all.
      const ended = viewOfDecoded(wire.decoded.get(null)!);
      assert.ok(Object.keys(ended.handsSeen).length > 0, 'the spectator saw the hands at the end');
      setScore(state, ids[0], 3);

      resetForRematch(state, () => wire.patch());
      wire.patch();
      assertLobbyEverywhere(wire, ids);
      for (const [viewer, decoded] of wire.decoded) {
        const who = viewer ?? 'spectator';
        assert.equal(decoded.players.get(ids[0])!.score, 3, `${who}: the score survives`);
        assert.equal(decoded.players.get(ids[1])!.bot, true, `${who}: a bot stays a bot`);
        assert.equal(decoded.players.get(ids[1])!.nickname, ids[1], who);
      }

      const second = playChecked(state, wire, ids, `rematch-${count}-b`, { claimHistory: false });
      assert.equal(second.game.phase, 'ended');

      resetForRematch(state, () => wire.patch());
      wire.patch();
      assertLobbyEverywhere(wire, ids);
    });
  }

  it('would catch stale hands: clearing them in the lobby never reaches the other players', () => {
    const ids = ['a', 'b', 'c'];
    const state = new CockroachState();
    ids.forEach((id) => addSeatedPlayer(state, id, id));
    const wire = new FilteredWire(state, [...ids, null]);
    playChecked(state, wire, ids, 'rematch-naive');
    // The naive order: phase first, then the clearing, in one patch.
    state.phase = 'lobby';
    state.players.forEach((p) => p.hand.clear());
    resetForRematch(state, () => undefined);
    wire.patch();
    assert.throws(() => assertLobbyEverywhere(wire, ids), /last game's hands/);
  });
});
