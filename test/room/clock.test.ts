import assert from 'node:assert/strict';
import { KINDS } from '../../server/rules';
import { LATE_ACTION_WINDOW_MS, TICK_MS } from '../../server/room/constants';
import { CockroachState } from '../../server/schema/CockroachState';
import { fakeClock } from '../support/fakeClock';
import { TestServer, Tracked, useTestServer } from '../support/server';
import { openTable, startTable, syncAndCheck, Table } from '../support/table';

async function settle(table: Table, step: number) {
  await table.players[0].until(() => table.room.table.match!.game.step >= step, `step ${step}`);
  await syncAndCheck(table);
}

async function started(ts: TestServer, count: number, options: Record<string, unknown> = {}) {
  const table = await openTable(ts, count, options);
  const clock = fakeClock(table.room);
  await startTable(table);
  const game = table.room.table.match!.game;
  return { table, clock, game, seat: (i: number) => table.byId(game.order[i]) };
}

describe('room: turn clock, timeouts, reconnection and away players', function () {
  this.timeout(20000);
  const ts = useTestServer({ reconnectGraceSeconds: 90 });

  it('sets the deadline to now + turnSeconds for the starter, and offers a random card to the next seat on timeout', async () => {
    const { table, clock, game, seat } = await started(ts, 3, { turnSeconds: 15 });
    assert.equal(seat(0).state.round.deadline, clock.now() + 15000);
    const hand = [...game.hands[game.order[0]]];
    clock.advance(14999);
    assert.equal(game.step, 0, 'not yet');
    clock.advance(1);
    await settle(table, 1);
    const entry = table.room.table.match!.record.log[0];
    assert.equal(entry.auto, true);
    assert.equal(entry.player, game.order[0]);
    assert.equal(entry.action.type, 'offer');
    if (entry.action.type !== 'offer') return;
    assert.ok(hand.includes(entry.action.cardId));
    assert.equal(entry.action.to, game.order[1]);
    assert.ok(KINDS.includes(entry.action.claim));
    assert.equal(seat(1).state.round.holder, game.order[1]);
    assert.equal(seat(1).state.round.deadline, clock.now() + 15000, 'a fresh deadline for the holder');
  });

  it('makes an unpeeked holder call at random on timeout', async () => {
    const { table, clock, game, seat } = await started(ts, 3);
    seat(0).room.send('offer', { cardId: game.hands[game.order[0]][0], to: game.order[2], claim: 'bat' });
    await settle(table, 1);
    clock.advance(30000);
    await settle(table, 2);
    const entry = table.room.table.match!.record.log[1];
    assert.deepEqual(
      { player: entry.player, type: entry.action.type, auto: entry.auto },
      { player: game.order[2], type: 'call', auto: true },
    );
    assert.equal(game.round.no, 2);
    assert.ok(seat(0).state.lastReveal);
  });

  it('restarts the deadline after a peek, and passes to the first unseen seat with the true kind on timeout', async () => {
    const { table, clock, game, seat } = await started(ts, 4);
    const card = game.hands[game.order[0]][0];
    seat(0).room.send('offer', { cardId: card, to: game.order[2], claim: 'bat' });
    await settle(table, 1);
    clock.advance(10000);
    seat(2).room.send('peek', {});
    await settle(table, 2);
    assert.equal(seat(2).state.round.deadline, clock.now() + 30000, 'a new decision, a new deadline');
    clock.advance(30000);
    await settle(table, 3);
    const entry = table.room.table.match!.record.log[2];
    assert.deepEqual(entry.action, { type: 'pass', to: game.order[1], claim: game.kinds[card] });
  });

  // The branch is chosen, not drawn: the holder's call decides who takes the card (a right call
  // gives it back to the starter, who starts again), so both paths run on every run.
  for (const starterTakes of [true, false]) {
    it(`refuses an action that arrives after the clock played its turn, with or without step (${starterTakes ? 'the starter starts again' : 'the holder takes the card'})`, async () => {
      const { table, clock, game, seat } = await started(ts, 2);
      const starter = seat(0);
      const staleStep = game.step;
      clock.advance(30000);
      await settle(table, 1);
      const withStep = starter.nextMessage('error');
      starter.room.send('offer', { cardId: game.hands[starter.id][0], to: game.order[1], claim: 'rat', step: staleStep });
      assert.equal((await withStep).code, 'STALE_ACTION');
      // The auto offer went to the other seat; its call sends the card back to the starter's front or its own.
      const truth = game.kinds[game.round.card!] === game.round.claim;
      seat(1).room.send('call', { call: starterTakes === truth ? 'true' : 'false' });
      await settle(table, 2);
      assert.equal(game.round.starter === starter.id, starterTakes);
      const without = starter.nextMessage('error');
      starter.room.send('offer', { cardId: game.hands[starter.id][0], to: game.order[1], claim: 'rat' });
      assert.equal((await without).code, 'STALE_ACTION', 'too soon after the clock played for it');
      if (starterTakes) {
        clock.advance(LATE_ACTION_WINDOW_MS);
        starter.room.send('offer', { cardId: game.hands[starter.id][0], to: game.order[1], claim: 'rat' });
        await settle(table, 3);
      }
    });
  }

  it('holds a dropped seat through the grace: reconnect restores the seat, id and private view', async () => {
    const { table, clock, game, seat } = await started(ts, 3, { turnSeconds: 60 });
    const starter = seat(0);
    seat(0).room.send('offer', { cardId: game.hands[starter.id][0], to: game.order[1], claim: 'fly' });
    await settle(table, 1);
    const token = starter.room.reconnectionToken;
    starter.room.connection.close();
    const other = seat(1);
    await other.until(() => other.state.players.get(starter.id)!.connected === false, 'marked disconnected');
    clock.advance(45000);
    const back = new Tracked(await ts.client().reconnect<CockroachState>(token, CockroachState), 'back');
    assert.equal(back.id, starter.id);
    await other.until(() => other.state.players.get(starter.id)!.connected === true, 'marked connected');
    table.players[table.players.indexOf(starter)] = back;
    await syncAndCheck(table);
    assert.equal(back.state.players.get(back.id)!.hand.size, game.hands[back.id].length);
    assert.equal(back.state.round.cardKind, game.kinds[game.round.card!], 'the card in flight it has seen');
    assert.equal(back.state.players.get(back.id)!.away, false);
  });

  it('after the grace the player is away and plays by default at once; the seat comes back with its private view', async () => {
    const { table, clock, game, seat } = await started(ts, 3, { turnSeconds: 60 });
    const dropper = seat(1);
    const watcher = seat(0);
    const token = dropper.room.reconnectionToken;
    dropper.room.connection.close();
    await watcher.until(() => !watcher.state.players.get(dropper.id)!.connected, 'marked disconnected');
    clock.advance(50000);
    seat(0).room.send('offer', { cardId: game.hands[game.order[0]][0], to: game.order[2], claim: 'toad' });
    await watcher.until(() => game.step === 1, 'offer');
    clock.advance(40000);
    await watcher.until(() => watcher.state.players.get(dropper.id)!.away, 'away after 90 s');
    seat(2).room.send('peek', {});
    await watcher.until(() => game.step === 2, 'peek');
    // Hand the away player the card: they call at once, in the same patch.
    seat(2).room.send('pass', { to: dropper.id, claim: 'toad' });
    // If the away player misjudged, they start the next round and offer at once too: step 5.
    await watcher.until(() => game.step >= 4, 'pass and the automatic call');
    assert.deepEqual(
      table.room.table.match!.record.log.slice(0, 4).map((e) => [e.player, e.action.type, e.auto ?? false]),
      [
        [game.order[0], 'offer', false],
        [game.order[2], 'peek', false],
        [game.order[2], 'pass', false],
        [dropper.id, 'call', true],
      ],
    );
    // PROTOCOL v2 "Seats come back": the token still works after the grace.
    const played = game.step;
    const back = new Tracked(await ts.client().reconnect<CockroachState>(token, CockroachState), 'back');
    assert.equal(back.id, dropper.id);
    await watcher.until(
      () => watcher.state.players.get(dropper.id)!.connected && !watcher.state.players.get(dropper.id)!.away,
      'back, not away',
    );
    table.players[table.players.indexOf(dropper)] = back;
    await syncAndCheck(table);
    assert.equal(game.step, played, 'the turns the clock played stay played');
    assert.equal(back.state.players.get(back.id)!.hand.size, game.hands[back.id].length, 'the whole private view');
  });

  it('a leave() during the game stays final: the seat is away and cannot be taken back', async () => {
    const { game, seat } = await started(ts, 3, { turnSeconds: 60 });
    const leaver = seat(2);
    const token = leaver.room.reconnectionToken;
    await leaver.room.leave(true);
    await seat(0).until(() => seat(0).state.players.get(leaver.id)!.away, 'away at once');
    await assert.rejects(ts.client().reconnect(token, CockroachState));
    assert.equal(game.phase, 'playing');
  });

  it('plays an all-away game to its end, closes the room, and leaves no timer behind', async () => {
    const { table } = await started(ts, 3);
    const room = table.room;
    const clockTimers = (room.clock as unknown as { delayed: unknown[] }).delayed;
    const result = table.spectator.nextMessage('result');
    for (const p of table.players) await p.room.leave(true);
    const final = await result;
    assert.ok(final.loser);
    assert.equal(room.table.match!.game.phase, 'ended');
    await table.spectator.until(() => !table.spectator.room.connection.isOpen, 'room closed');
    assert.equal(clockTimers.filter((d) => (d as { active: boolean }).active).length, 0);
    assert.equal(room.table.timers.size, 0, 'no table timer left behind');
  });

  it('on the real clock, plays an unanswered turn at or after its deadline, within 1.5 s, though it began between two ticks', async function () {
    this.timeout(25000);
    const table = await openTable(ts, 2, { turnSeconds: 15 });
    const host = table.players[0];
    // Start the game most of a tick after a tick: Colyseus's room clock credited a timer made
    // there with the whole interval at the next tick and played the turn that much early.
    await new Promise<void>((resolve) => {
      const own = table.room.table.tick.bind(table.room.table);
      table.room.table.tick = () => {
        own();
        table.room.table.tick = own;
        setTimeout(resolve, TICK_MS * 0.8);
      };
    });
    host.room.send('start', {});
    await host.until(() => host.state.phase === 'playing', 'the start');
    const deadline = host.state.round.deadline;
    await host.until(() => host.state.step === 1, 'the starter timed out', 18000);
    const late = Date.now() - deadline;
    assert.ok(late >= 0, `played ${-late} ms before the announced deadline`);
    assert.ok(late < 1500, `played ${late} ms after the deadline`);
    assert.equal(table.room.table.match!.record.log[0].auto, true);
  });
});
