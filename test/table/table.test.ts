import assert from 'node:assert/strict';
import { activePlayer, randInt, randomLegalAction, seedRng, viewFor } from '../../server/rules';
import type { Action, PlayerView } from '../../server/rules';
import type { TableBot } from '../../server/table/Table';
import { sha256Hex, verifyRecord } from '../../server/fairness';
import { playOut, simpleBot, tableHarness } from './support';

describe('table: the game path without sockets', () => {
  it('plays a default action never before the deadline and within 1.5 s after it, whenever the turn began and the ticks fall', () => {
    const rng = seedRng('deadlines');
    for (let trial = 0; trial < 200; trial++) {
      const t = tableHarness();
      t.seat('a', 'b', 'c');
      t.table.start('a');
      // Ticks every 500 ms from a random phase; the turn begins anywhere between two ticks.
      let sinceTick = randInt(rng, 500);
      for (let turn = 0; turn < 3 && t.game().phase === 'playing'; turn++) {
        const step = t.game().step;
        const deadline = t.table.state.deadline;
        assert.equal(deadline, t.now() + 15000);
        while (t.game().step === step) {
          t.elapse(500 - sinceTick);
          sinceTick = 0;
          t.tick();
          if (t.game().step === step) assert.ok(t.now() < deadline + 1500, 'not yet played 1.5 s after the deadline');
        }
        assert.ok(t.now() >= deadline, `played ${deadline - t.now()} ms early`);
        assert.ok(t.now() < deadline + 1500, `played ${t.now() - deadline} ms late`);
      }
    }
  });

  it('keeps the running deadline when someone else drops or goes away', () => {
    const t = tableHarness();
    t.seat('a', 'b', 'c');
    t.table.start('a');
    const deadline = t.table.state.deadline;
    const active = activePlayer(t.game())!;
    const other = t.game().order.find((id) => id !== active)!;
    t.elapse(7000);
    t.table.leave(other);
    assert.equal(t.table.state.seats.get(other)!.away, true);
    assert.equal(t.table.state.deadline, deadline);
    t.elapse(8000);
    t.tick();
    assert.equal(t.table.match!.record.log[0].auto, true, 'played at the original deadline');
    assert.ok(t.events().some((e) => e.type === 'defaultMove' && e.reason === 'clock' && e.player === active));
  });

  it('a bot on turn acts after its think time, from its own seat view, through the player path', () => {
    const seen: PlayerView[] = [];
    const t = tableHarness();
    t.seat('a');
    const bot: TableBot = {
      thinkMs: (max) => max,
      decide: (view) => {
        seen.push(view);
        const game = t.game();
        // The view is exactly the rules' view for the bot's seat: nothing more.
        assert.deepEqual(view, viewFor(game, 'bot1'));
        return game.round.card === null
          ? { type: 'offer', cardId: game.hands.bot1[0], to: 'a', claim: 'bat' }
          : { type: 'call', call: 'true' };
      },
    };
    assert.equal(t.table.addBot('a', () => ({ id: 'bot1', decider: bot })).outcome.ok, true);
    t.table.start('a');
    let guard = 0;
    while (t.game().phase === 'playing' && guard++ < 500) {
      const game = t.game();
      if (activePlayer(game) === 'bot1') {
        const step = game.step;
        t.elapse(799);
        t.tick();
        assert.equal(game.step, step, 'still thinking');
        t.elapse(1);
        t.tick();
        assert.equal(game.step, step + 1, 'moved after its think time');
        assert.equal(t.botMoves.at(-1)!.payload.step, step, 'quotes the step it decided on');
      } else {
        const action: Action =
          game.round.card === null ? { type: 'offer', cardId: game.hands.a[0], to: 'bot1', claim: 'fly' } : { type: 'call', call: 'false' };
        assert.equal(t.table.move('a', action, game.step).outcome.ok, true);
      }
    }
    assert.equal(t.game().phase, 'ended');
    assert.ok(seen.length > 0);
    assert.ok(
      t.table.match!.record.log.some((e) => e.player === 'bot1' && !e.auto),
      'logged as the bot own moves',
    );
    assert.equal(t.changes.filter((c) => c.finished).length, 1, 'one finished game');
  });

  it('plays a game out at once when every human is away, bots included', () => {
    const t = tableHarness();
    t.seat('a', 'b');
    t.table.addBot('a', () => ({ id: 'bot1', decider: simpleBot(1000) }));
    t.table.start('a');
    t.table.leave('a');
    assert.equal(t.table.state.lifecycle, 'playing');
    t.table.leave('b');
    assert.equal(t.table.state.lifecycle, 'ended');
    assert.equal(t.table.everyHumanAway(), true);
    assert.ok(t.changes.at(-1)!.finished, 'the same change finished the game');
    assert.equal(t.table.timers.size, 0);
  });

  it('keeps a running score over a rematch, hands the host on at the end, and starts afresh', () => {
    const t = tableHarness();
    t.seat('a', 'b', 'c');
    t.table.start('a');
    t.table.leave('a');
    while (t.game().phase === 'playing') t.advance(15000);
    const result = t.table.result!;
    assert.ok(result.gameId);
    assert.equal(t.table.state.gamesPlayed, 1);
    for (const id of ['a', 'b', 'c']) assert.equal(t.table.state.seats.get(id)!.score, result.scores[id]);
    assert.equal(t.table.state.hostId, 'b', 'the host was away: the first present human in join order');
    assert.deepEqual(t.table.rematch('c').outcome, { ok: false, code: 'NOT_HOST' });
    assert.equal(t.table.rematch('b').outcome.ok, true);
    assert.equal(t.table.state.lifecycle, 'lobby');
    assert.equal(t.table.result, null);
    assert.deepEqual([...t.table.state.seats.keys()], ['a', 'b', 'c'], 'the away creator keeps the seat (issue 32)');
    assert.equal(t.table.state.seats.get('a')!.away, true);
    t.table.leave('a');
    assert.deepEqual([...t.table.state.seats.keys()], ['b', 'c'], 'leaving the lobby frees it');
    t.table.start('b');
    assert.equal(t.table.state.lifecycle, 'playing');
    assert.deepEqual([...t.game().order].sort(), ['b', 'c']);
    assert.notEqual(t.table.gameId, result.gameId);
    assert.equal(t.table.state.seats.get('b')!.score, result.scores.b, 'scores kept across the rematch');
  });

  it('commits to a secret before the game, derives the deal from it and the entropy, and reveals it only at the end', () => {
    const t = tableHarness();
    t.table.seat({ id: 'a', nickname: 'a', entropy: '0123456789abcdef' });
    t.table.seat({ id: 'b', nickname: 'b', entropy: 'fedcba9876543210' });
    t.seat('c');
    const commitment = t.table.state.fairness.commitment;
    assert.match(commitment, /^[0-9a-f]{64}$/);
    assert.equal(t.table.state.fairness.serverSeed, '');
    t.table.start('a');
    assert.deepEqual(t.table.state.fairness.entropy, { a: '0123456789abcdef', b: 'fedcba9876543210', c: '' });
    assert.equal(t.table.state.fairness.serverSeed, '', 'still secret while playing');
    while (t.game().phase === 'playing') t.advance(15000);
    assert.equal(sha256Hex(t.table.state.fairness.serverSeed), commitment, 'the revealed secret is the committed one');
    const finished = t.changes.filter((c) => c.finished).map((c) => c.finished!);
    assert.equal(finished.length, 1);
    assert.equal(finished[0].record.gameId, t.table.result!.gameId);
    assert.deepEqual(verifyRecord(JSON.parse(JSON.stringify(finished[0].record))), { ok: true });
    t.table.rematch('a');
    assert.notEqual(t.table.state.fairness.commitment, commitment, 'a fresh commitment for the next game');
    assert.equal(t.table.state.fairness.serverSeed, '');
    assert.deepEqual(t.table.state.fairness.entropy, {});
  });
});

describe('table: whole games, rematches, drops and returns through its inputs alone', () => {
  it('plays whole games of 2 to 6 with the refusals changing nothing, and ends each in one change', () => {
    for (let count = 2; count <= 6; count++) {
      const t = tableHarness();
      const ids = Array.from({ length: count }, (_, i) => `p${i}`);
      t.seat(...ids);
      assert.deepEqual(t.table.start('p1').outcome, { ok: false, code: 'NOT_HOST' });
      assert.deepEqual(t.table.start('nobody').outcome, { ok: false, code: 'SPECTATOR' });
      assert.equal(t.changes.length, count, 'a refusal is no change');
      assert.equal(t.table.start('p0').outcome.ok, true);
      const rng = seedRng(`whole-${count}`);
      for (let guard = 0; t.table.state.lifecycle === 'playing'; guard++) {
        assert.ok(guard < 3000);
        const game = t.game();
        const active = activePlayer(game)!;
        const other = ids.find((id) => id !== active)!;
        const before = JSON.stringify(t.table.match);
        const changes = t.changes.length;
        assert.equal(t.table.move(other, { type: 'peek' }, game.step).outcome.ok, false);
        assert.deepEqual(t.table.move(active, { type: 'peek' }, game.step - 1).outcome, { ok: false, code: 'STALE_ACTION' });
        assert.equal(JSON.stringify(t.table.match), before, 'refused moves change nothing');
        assert.equal(t.changes.length, changes);
        assert.equal(t.table.move(active, randomLegalAction(game, active, rng)!, game.step).outcome.ok, true);
      }
      const last = t.changes.at(-1)!;
      assert.ok(last.finished, 'the move that ended the game finished it');
      // Everything the end shows is in the state of that very change.
      assert.equal(t.table.state.lifecycle, 'ended');
      assert.notEqual(t.table.state.fairness.serverSeed, '');
      assert.equal(t.table.state.gamesPlayed, 1);
      const scores = [...t.table.state.seats.values()].map((s) => s.score);
      assert.equal(
        scores.reduce((a, b) => a + b, 0),
        count - 1,
        'everyone but the loser scored',
      );
      const ended = last.events.find((e) => e.type === 'ended');
      assert.ok(ended && ended.type === 'ended');
      assert.equal(ended.loser, last.finished!.result.loser, 'the loser is told once, from one source');
      assert.equal(ended.reason, last.finished!.result.reason);
      assert.deepEqual(t.table.move('p0', { type: 'peek' }).outcome, { ok: false, code: 'NOT_PLAYING' });
    }
  });

  it('chooses the host with one rule: the creator, the next present human when the host leaves, never a bot, a returner when nobody is host', () => {
    const t = tableHarness({ lobbyGraceMs: 20_000 });
    t.seat('a');
    t.table.addBot('a', () => ({ id: 'bot1', decider: simpleBot() }));
    t.seat('b', 'c');
    assert.equal(t.table.state.hostId, 'a');
    t.table.drop('a');
    assert.equal(t.table.state.hostId, 'a', 'a dropped host keeps the role while the seat is held');
    t.advance(20_000);
    assert.equal(t.table.state.seats.has('a'), true, 'the creator’s seat outlives the lobby grace');
    t.table.leave('a');
    assert.equal(t.table.state.hostId, 'b', 'the next present human, not the bot seated before them');
    assert.ok(t.events().some((e) => e.type === 'hostChanged' && e.host === 'b'));
    t.table.drop('b');
    t.table.drop('c');
    t.advance(20_000);
    assert.equal(t.table.state.hostId, null, 'only a bot is left: nobody is host');
    t.seat('d');
    assert.equal(t.table.state.hostId, 'd', 'the anonymous creator left and nothing could recognise them: a newcomer may be host');
    assert.equal(t.table.isCreator('d'), false, 'but never the creator');
  });

  it('holds a dropped seat through the grace, then plays the away player at once; the seat comes back whole', () => {
    const t = tableHarness({ reconnectGraceMs: 90_000, options: { turnSeconds: 60 } });
    t.seat('a', 'b', 'c');
    t.table.start('a');
    const order = t.game().order;
    const dropper = order[1];
    t.table.drop(dropper);
    assert.equal(t.table.state.seats.get(dropper)!.connected, false);
    t.advance(89_000);
    assert.equal(t.table.state.seats.get(dropper)!.away, false, 'still within the grace');
    t.advance(1_000);
    assert.equal(t.table.state.seats.get(dropper)!.away, true);
    assert.ok(t.events().some((e) => e.type === 'away' && e.player === dropper && e.reason === 'grace'));
    const played = t.game().step;
    assert.ok(played >= 1, 'the starter timed out meanwhile');
    playOut(
      t,
      seedRng('away'),
      order.filter((id) => id !== dropper),
    );
    assert.ok(t.table.match!.record.log.some((e) => e.player === dropper && e.auto));
    assert.equal(t.table.return(dropper).outcome.ok, true);
    assert.deepEqual(
      { connected: t.table.state.seats.get(dropper)!.connected, away: t.table.state.seats.get(dropper)!.away },
      { connected: true, away: false },
    );
    // Back on the results screen, the seat is kept at the rematch.
    t.table.rematch(t.table.state.hostId!);
    assert.ok(t.table.state.seats.has(dropper));
  });

  it('a dropped lobby seat gets the game’s grace, counted from the drop, when the game starts meanwhile', () => {
    const t = tableHarness({ reconnectGraceMs: 90_000, lobbyGraceMs: 20_000, options: { turnSeconds: 60 } });
    t.seat('a', 'b', 'c');
    t.table.drop('c');
    t.advance(10_000);
    t.table.start('a');
    t.advance(10_000);
    assert.equal(t.table.state.seats.has('c'), true, 'in a game the seat is not freed');
    assert.equal(t.table.state.seats.get('c')!.away, false);
    t.advance(69_000);
    assert.equal(t.table.state.seats.get('c')!.away, false, '89 s after the drop');
    t.advance(1_000);
    assert.equal(t.table.state.seats.get('c')!.away, true, '90 s after the drop');
  });

  it('leaving on purpose frees a lobby seat at once and makes a game seat away at once', () => {
    const t = tableHarness();
    t.seat('a', 'b', 'c', 'd');
    t.table.leave('d');
    assert.equal(t.table.state.seats.has('d'), false);
    t.table.start('a');
    t.table.leave('c');
    assert.equal(t.table.state.seats.get('c')!.away, true);
    assert.equal(t.table.state.seats.get('c')!.connected, false);
    assert.deepEqual(t.table.leave('nobody').outcome, { ok: false, code: 'NOBODY_THERE' });
  });

  it('rematches again and again, with bots kept and scores summed', () => {
    const t = tableHarness();
    t.seat('a', 'b');
    t.table.addBot('a', () => ({ id: 'bot1', decider: simpleBot(100) }));
    const totals: Record<string, number> = { a: 0, b: 0, bot1: 0 };
    for (let g = 0; g < 3; g++) {
      assert.equal(t.table.start('a').outcome.ok, true);
      playOut(t, seedRng(`again-${g}`), ['a', 'b']);
      const result = t.table.result!;
      for (const id of Object.keys(totals)) totals[id] += result.scores[id];
      assert.equal(t.table.rematch('a').outcome.ok, true);
    }
    assert.equal(t.table.state.gamesPlayed, 3);
    for (const [id, total] of Object.entries(totals)) assert.equal(t.table.state.seats.get(id)!.score, total, id);
    assert.equal(t.table.isBot('bot1'), true);
  });

  it('refuses lobby management from anyone but the host, and outside the lobby', () => {
    const t = tableHarness();
    t.seat('a', 'b');
    assert.deepEqual(t.table.addBot('b', () => ({ id: 'x', decider: simpleBot() })).outcome, { ok: false, code: 'NOT_HOST' });
    assert.deepEqual(t.table.removeBot('a', 'b').outcome, { ok: false, code: 'NOT_A_BOT' });
    assert.deepEqual(t.table.removeBot('a', '__proto__').outcome, { ok: false, code: 'NOT_A_BOT' });
    for (let i = 0; i < 4; i++) t.table.addBot('a', () => ({ id: `bot${i}`, decider: simpleBot() }));
    assert.deepEqual(t.table.addBot('a', () => ({ id: 'bot9', decider: simpleBot() })).outcome, { ok: false, code: 'ROOM_FULL' });
    assert.equal(new Set([...t.table.state.seats.values()].map((s) => s.nickname)).size, 6, 'distinct names');
    assert.equal(t.table.joinRefusal(), 'ROOM_FULL');
    t.table.start('a');
    assert.equal(t.table.joinRefusal(), 'LATE_JOIN');
    assert.deepEqual(t.table.removeBot('a', 'bot0').outcome, { ok: false, code: 'NOT_IN_LOBBY' });
    assert.deepEqual(t.table.rematch('a').outcome, { ok: false, code: 'GAME_NOT_OVER' });
  });

  it('kicks by the host in the lobby or at the end, and bars the identity, or an anonymous player’s address for anonymous joins', () => {
    const t = tableHarness();
    t.seat('host');
    t.table.seat({ id: 'ann', nickname: 'ann', who: { key: 'guest:ann', address: '10.0.0.1' } });
    t.table.seat({ id: 'anon', nickname: 'anon', who: { key: null, address: '10.0.0.2' } });
    assert.deepEqual(t.table.kick('ann', 'anon').outcome, { ok: false, code: 'NOT_HOST' });
    assert.deepEqual(t.table.kick('host', 'host').outcome, { ok: false, code: 'ONESELF' });
    assert.deepEqual(t.table.kick('host', 'nobody').outcome, { ok: false, code: 'NOBODY_THERE' });
    assert.equal(t.table.kick('host', 'ann').outcome.ok, true);
    assert.equal(t.table.kick('host', 'anon').outcome.ok, true);
    assert.ok(t.events().some((e) => e.type === 'left' && e.player === 'ann' && e.reason === 'kicked'));
    assert.equal(t.table.joinRefusal({ key: 'guest:ann', address: '10.9.9.9' }), 'KICKED', 'the identity, from anywhere');
    assert.equal(t.table.joinRefusal({ key: 'guest:ann', address: '10.9.9.9' }, true), 'KICKED', 'nor watching');
    assert.equal(t.table.joinRefusal({ key: null, address: '10.0.0.2' }), 'KICKED', 'anonymous from that address');
    assert.equal(t.table.state.locked, true, 'a kick locks the table');
    assert.equal(t.table.joinRefusal({ key: 'guest:sib', address: '10.0.0.2' }), 'LOCKED', 'a newcomer waits for the host');
    assert.equal(t.table.unlock('host').outcome.ok, true);
    assert.equal(t.table.joinRefusal({ key: 'guest:sib', address: '10.0.0.2' }), null, 'an identity from that address is welcome');
    assert.deepEqual(t.table.seat({ id: 'ann2', nickname: 'x', who: { key: 'guest:ann', address: '1.1.1.1' } }).outcome, {
      ok: false,
      code: 'KICKED',
    });
    t.table.seat({ id: 'sib', nickname: 'sib', who: { key: 'guest:sib', address: '10.0.0.2' } });
    assert.equal(t.table.joinRefusal({ key: 'guest:sib', address: '10.0.0.2' }), 'ALREADY_SEATED');
    t.table.start('host');
    assert.deepEqual(t.table.kick('host', 'sib').outcome, { ok: false, code: 'NOT_IN_LOBBY' });
  });

  it('plays at most maxGames games: then the rematch is refused', () => {
    const t = tableHarness({ maxGames: 2 });
    t.seat('a', 'b');
    for (let g = 0; g < 2; g++) {
      t.table.start('a');
      playOut(t, seedRng(`bound-${g}`), ['a', 'b']);
      const rematch = t.table.rematch('a').outcome;
      if (g === 0) assert.equal(rematch.ok, true);
      else assert.deepEqual(rematch, { ok: false, code: 'TOO_MANY_GAMES' });
    }
    assert.equal(t.table.state.gamesPlayed, 2);
    assert.equal(t.table.state.lifecycle, 'ended');
  });
});
