import assert from 'node:assert/strict';
import { SERVER_MESSAGES } from '../../server/protocol';
import { CockroachClient, GameSession } from '../../client-sdk/index';
import type { SessionEvents } from '../../client-sdk/session';
import { fakeClock } from '../support/fakeClock';
import { Tracked, useTestServer } from '../support/server';
import { openTable, startTable, syncAndCheck } from '../support/table';

/** Every event a client received since `from` (a count of `events` messages), flattened. */
function eventsOf(c: Tracked, from = 0): any[] {
  return c
    .messagesOf(SERVER_MESSAGES.events)
    .slice(from)
    .flatMap((m) => m.events);
}

describe('room: what happened, on the wire as one message type, cut down for each viewer', function () {
  this.timeout(30000);
  const ts = useTestServer();

  it('tells the kind in flight only to those who have seen it, never a card id, and the clock’s moves to all', async () => {
    const table = await openTable(ts, 3, { turnSeconds: 15 });
    const clock = fakeClock(table.room);
    await startTable(table);
    const game = table.room.table.match!.game;
    const [starter, holder, third] = game.order.map((id) => table.byId(id));
    const everyone = [starter, holder, third, table.spectator];
    for (const c of everyone) await c.until(() => eventsOf(c).some((e) => e.type === 'started'), 'started');
    const mark = new Map(everyone.map((c) => [c, c.messagesOf(SERVER_MESSAGES.events).length]));
    const since = (c: Tracked) => eventsOf(c, mark.get(c));
    const waitFor = (type: string) => Promise.all(everyone.map((c) => c.until(() => since(c).some((e) => e.type === type), type)));

    const card = game.hands[starter.id][0];
    const kind = game.kinds[card];
    starter.room.send('offer', { cardId: card, to: holder.id, claim: 'bat', step: 0 });
    await waitFor('offered');
    const offered = (c: Tracked) => since(c).find((e) => e.type === 'offered');
    assert.deepEqual(offered(starter), { type: 'offered', from: starter.id, to: holder.id, claim: 'bat', kind });
    for (const c of [holder, third, table.spectator])
      assert.deepEqual(offered(c), { type: 'offered', from: starter.id, to: holder.id, claim: 'bat' }, c.label);

    holder.room.send('peek', { step: 1 });
    await waitFor('peeked');
    const peeked = (c: Tracked) => since(c).find((e) => e.type === 'peeked');
    for (const c of [starter, holder]) assert.deepEqual(peeked(c), { type: 'peeked', player: holder.id, kind }, c.label);
    for (const c of [third, table.spectator]) assert.deepEqual(peeked(c), { type: 'peeked', player: holder.id }, c.label);

    holder.room.send('pass', { to: third.id, claim: 'fly', step: 2 });
    await waitFor('passed');
    const passed = (c: Tracked) => since(c).find((e) => e.type === 'passed');
    for (const c of [starter, holder]) assert.equal(passed(c).kind, kind, c.label);
    for (const c of [third, table.spectator]) assert.equal('kind' in passed(c), false, `${c.label}: the new holder has not seen it`);

    // The clock plays the third player's turn: a call, so the card is revealed to everyone.
    clock.advance(15000);
    await waitFor('revealed');
    for (const c of everyone) {
      const events = since(c);
      const auto = events.find((e) => e.type === 'defaultMove');
      assert.deepEqual(auto, { type: 'defaultMove', player: third.id, move: 'call', reason: 'clock' }, c.label);
      const revealed = events.find((e) => e.type === 'revealed');
      assert.equal(revealed.kind, kind, c.label);
      assert.equal(revealed.claim, 'fly');
      assert.equal(revealed.caller, third.id);
      // No card id anywhere in what anyone was told.
      assert.doesNotMatch(JSON.stringify(c.messagesOf(SERVER_MESSAGES.events)), /"(card|cardId)":/, c.label);
      // Each message names the step it brings the client to.
      const last = c.messagesOf(SERVER_MESSAGES.events).at(-1);
      assert.equal(last.step, game.step, c.label);
    }
    await syncAndCheck(table);
  });

  it('tells everyone of seats, departures and the host', async () => {
    const table = await openTable(ts, 3);
    const [host, second, third] = table.players;
    await host.leave();
    for (const c of [second, third, table.spectator]) {
      await c.until(() => eventsOf(c).some((e) => e.type === 'hostChanged'), 'a new host');
      const events = eventsOf(c);
      assert.ok(
        events.some((e) => e.type === 'left' && e.player === host.id && e.reason === 'left'),
        c.label,
      );
      assert.deepEqual(
        events.filter((e) => e.type === 'hostChanged'),
        [{ type: 'hostChanged', host: second.id }],
      );
    }
    assert.ok(eventsOf(second).some((e) => e.type === 'seated' && e.player === third.id && e.bot === false));
  });

  it('the SDK announces from them: the card coming to me, the reveal, and the move the clock played for me', async () => {
    const host = await new CockroachClient(ts.endpoint).create('민수', { turnSeconds: 15 });
    const guest = await new CockroachClient(ts.endpoint).join(host.roomId, '지우');
    const sessions = [host, guest];
    try {
      await until(host, () => host.snapshot.seats.length === 2);
      const room = ts.serverRoom(host.roomId);
      const clock = fakeClock(room);
      const heard = new Map<GameSession, { event: keyof SessionEvents; payload: unknown }[]>(sessions.map((s) => [s, []]));
      for (const s of sessions)
        for (const event of ['cardHandedToMe', 'revealed', 'movePlayedForMe'] as const)
          s.on(event, (payload: unknown) => heard.get(s)!.push({ event, payload }));
      await host.start();
      const game = room.table.match!.game;
      const [starter, other] = game.order.map((id) => sessions.find((s) => s.me === id)!);
      await until(starter, () => starter.snapshot.myTurn);
      clock.advance(15000); // the clock offers for the starter
      await until(other, () => heard.get(other)!.some((h) => h.event === 'cardHandedToMe'));
      await until(starter, () => heard.get(starter)!.some((h) => h.event === 'movePlayedForMe'));
      assert.deepEqual(heard.get(starter), [{ event: 'movePlayedForMe', payload: { move: 'offer', reason: 'clock' } }]);
      assert.deepEqual(heard.get(other), [{ event: 'cardHandedToMe', payload: { from: starter.me, claim: game.round.claim } }]);
      await other.call(true);
      for (const s of sessions) await until(s, () => heard.get(s)!.some((h) => h.event === 'revealed'));
      for (const s of sessions) assert.deepEqual(heard.get(s)!.find((h) => h.event === 'revealed')!.payload, s.snapshot.lastReveal);
    } finally {
      for (const s of sessions) await s.leave();
    }
  });
});

/** Resolves once `test()` holds on the session's snapshot (re-checked on every change). */
function until(session: GameSession, test: () => boolean): Promise<void> {
  if (test()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (off(), reject(new Error('timed out'))), 5000);
    const check = () => {
      if (!test()) return;
      clearTimeout(timer);
      off();
      resolve();
    };
    const offs = (['change', 'cardHandedToMe', 'revealed', 'movePlayedForMe'] as const).map((e) => session.on(e, check));
    const off = () => offs.forEach((f) => f());
  });
}
