import assert from 'node:assert/strict';
import { activePlayer, randomLegalAction, seedRng } from '../../server/rules';
import { sha256Hex } from '../../server/fairness';
import type { CockroachState } from '../../server/schema/CockroachState';
import { CockroachRoom, RecordSink } from '../../server/room/CockroachRoom';
import type { FinishedGameRecord } from '../../server/fairness';
import { Tracked, useTestServer } from '../support/server';
import { openTable, startTable, Table } from '../support/table';

/** What a client decoded in the first patch that showed `ended`. */
interface EndSeen {
  serverSeed: string;
  commitment: string;
  gamesPlayed: number;
  hostId: string;
  scores: Record<string, number>;
  resultBefore: number;
}

/** Records, for each client, the first decoded state showing `ended` (checked byte for byte: every patch). */
function watchTheEnd(clients: Tracked[]): Map<Tracked, EndSeen> {
  const seen = new Map<Tracked, EndSeen>();
  for (const c of clients) {
    c.onPatch.push((state: CockroachState) => {
      if (state.phase !== 'ended' || seen.has(c)) return;
      const scores: Record<string, number> = {};
      state.players.forEach((p, id) => (scores[id] = p.score));
      seen.set(c, {
        serverSeed: state.fairness.serverSeed,
        commitment: state.fairness.commitment,
        gamesPlayed: state.gamesPlayed,
        hostId: state.hostId,
        scores,
        resultBefore: c.messagesOf('result').length,
      });
    });
  }
  return seen;
}

async function playToTheEnd(table: Table, seed: string) {
  const game = table.room.table.match!.game;
  const rng = seedRng(seed);
  while (game.phase === 'playing') {
    const actor = table.byId(activePlayer(game)!);
    const { type, ...payload } = randomLegalAction(game, actor.id, rng)!;
    const before = game.step;
    actor.room.send(type, { ...payload, step: before });
    await actor.until(() => game.step > before, `${type} applied`);
  }
}

describe('room: a game ends in one patch, then its result', function () {
  this.timeout(60000);
  const ts = useTestServer();

  for (const count of [2, 4]) {
    it(`${count} players and a spectator: the patch that shows "ended" already has the secret, the scores and the host`, async () => {
      const table = await openTable(ts, count);
      const everyone = [...table.players, table.spectator];
      const seen = watchTheEnd(everyone);
      await startTable(table);
      // The host leaves for good mid-game: the end must also hand the host on, in that same patch.
      const host = table.players[0];
      await host.leave();
      const rest = table.players.slice(1);
      const restTable = { ...table, players: rest };
      await playToTheEnd(restTable, `end-${count}`);
      const watchers = [...rest, table.spectator];
      for (const c of watchers) await c.until(() => c.messagesOf('result').length === 1, 'the result');
      for (const c of watchers) {
        const end = seen.get(c)!;
        const result = c.messagesOf('result')[0];
        assert.equal(end.resultBefore, 0, `${c.label}: result came after the ended patch`);
        assert.match(end.serverSeed, /^[0-9a-f]{64}$/, `${c.label}: the ended patch revealed the secret`);
        assert.equal(sha256Hex(end.serverSeed), end.commitment, `${c.label}: the committed secret`);
        assert.equal(end.gamesPlayed, 1, `${c.label}: gamesPlayed in the ended patch`);
        assert.deepEqual(end.scores, result.scores, `${c.label}: the scores in the ended patch are the result's`);
        assert.notEqual(end.hostId, host.id, `${c.label}: the away host was replaced in the ended patch`);
        assert.ok(
          rest.some((p) => p.id === end.hostId),
          `${c.label}: a present player hosts`,
        );
        assert.equal(c.state.loser, result.loser, 'one loser everywhere');
        assert.equal(c.state.lossReason, result.reason);
        const ended = c
          .messagesOf('events')
          .flatMap((m) => m.events)
          .filter((e: { type: string }) => e.type === 'ended');
        assert.deepEqual(ended, [{ type: 'ended', loser: result.loser, reason: result.reason }], `${c.label}: the ended event agrees`);
      }
      for (const c of watchers) await c.leave();
    });
  }

  it('would catch a split end: a patch with "ended" but no secret fails the check', async () => {
    const table = await openTable(ts, 2);
    const everyone = [...table.players, table.spectator];
    const seen = watchTheEnd(everyone);
    await startTable(table);
    // Reveal the secret one patch late, as the table did before it owned its state.
    const room = table.room as unknown as { projection: { project(t: unknown): void } };
    const project = room.projection.project.bind(room.projection);
    room.projection.project = (t: any) => project(t.lifecycle === 'ended' ? { ...t, fairness: { ...t.fairness, serverSeed: '' } } : t);
    await playToTheEnd(table, 'split');
    await table.spectator.until(() => seen.has(table.spectator), 'the ended patch');
    assert.equal(seen.get(table.spectator)!.serverSeed, '', 'the check sees the missing secret');
    for (const c of everyone) await c.leave();
  });

  it('announces the result only once the record is kept (the ended patch does not wait)', async () => {
    const kept: { record: FinishedGameRecord; done: () => void }[] = [];
    const writer: RecordSink = { write: (record) => new Promise<void>((done) => kept.push({ record, done })) };
    const before = CockroachRoom.records;
    CockroachRoom.records = writer;
    try {
      const table = await openTable(ts, 2);
      await startTable(table);
      await playToTheEnd(table, 'kept');
      for (const c of [...table.players, table.spectator]) await c.until(() => c.state.phase === 'ended', 'the ended patch');
      assert.equal(kept.length, 1, 'the record was handed to the writer');
      // A latecomer meanwhile gets no result either: none has been announced.
      const late = await joinAs(table);
      assert.equal(
        late.messagesOf('result').length + table.spectator.messagesOf('result').length,
        0,
        'no result before the record is kept',
      );
      kept[0].done();
      for (const c of [...table.players, table.spectator, late]) await c.until(() => c.messagesOf('result').length === 1, 'the result');
      assert.equal(table.spectator.messagesOf('result')[0].gameId, kept[0].record.gameId);
      for (const c of [...table.players, table.spectator, late]) await c.leave();
    } finally {
      CockroachRoom.records = before;
    }

    async function joinAs(table: Table) {
      const { joinById } = await import('../support/server');
      const late = await joinById(ts, table.room.roomId, { spectator: true }, 'late');
      await late.until(() => late.state.phase === 'ended', 'the state');
      return late;
    }
  });
});
