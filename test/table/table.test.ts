import assert from 'node:assert/strict';
import { activePlayer, randInt, seedRng, viewFor } from '../../server/rules';
import type { Action, PlayerView } from '../../server/rules';
import { CockroachState } from '../../server/schema/CockroachState';
import { addSeatedPlayer, setHost, setPresence } from '../../server/project';
import { Table, TableBot, TableHost } from '../../server/table/Table';
import { DEFAULT_OPTIONS } from '../../server/rules/options';
import { setLogSink } from '../../server/ops/log';
import { FinishedGameRecord, sha256Hex, verifyRecord } from '../../server/fairness';

/**
 * The table without sockets, the way boardgame.io tests its Master with a fake transport: a host
 * that records what would be sent, and a clock the test moves by any amount, ticking the table at
 * moments of its choosing (between ticks time still passes).
 */
function fakeHost(players: string[], bots: string[] = []) {
  const state = new CockroachState();
  for (const id of players) addSeatedPlayer(state, id, `n-${id}`, bots.includes(id));
  setHost(
    state,
    players.find((p) => !bots.includes(p))!,
  );
  let now = 1_700_000_000_000;
  const sent: { type: string; message: unknown }[] = [];
  const moves: { id: string; type: string; payload: Record<string, unknown>; at: number }[] = [];
  let ended: boolean | null = null;
  const records: FinishedGameRecord[] = [];
  // eslint-disable-next-line prefer-const -- assigned after the host that closes over it
  let table!: Table;
  const host: TableHost = {
    state,
    now: () => now,
    patch: () => undefined,
    broadcast: (type, message) => sent.push({ type, message }),
    actAs: (id, type, payload) => {
      moves.push({ id, type, payload, at: now });
      const { step, ...fields } = payload;
      table.play(id, { type, ...fields } as Action, type, step as number);
    },
    gameEnded: (everyHumanAway) => (ended = everyHumanAway),
    recordFinished: (record) => records.push(record),
  };
  table = new Table(host, { ...DEFAULT_OPTIONS, turnSeconds: 15 }, { botThinkMs: 800 });
  return {
    table,
    records,
    state,
    sent,
    moves,
    ended: () => ended,
    now: () => now,
    /** Time passes; nothing runs until the next tick. */
    elapse: (ms: number) => (now += ms),
    tick: () => table.tick(),
  };
}

describe('table: the game path without sockets', () => {
  beforeEach(() => setLogSink(() => undefined));
  afterEach(() => setLogSink(null));

  it('plays a default action never before the deadline and within 1.5 s after it, whenever the turn began and the ticks fall', () => {
    const rng = seedRng('deadlines');
    for (let trial = 0; trial < 200; trial++) {
      const t = fakeHost(['a', 'b', 'c']);
      t.table.start();
      // Ticks every 500 ms from a random phase; the turn begins anywhere between two ticks.
      let sinceTick = randInt(rng, 500);
      for (let turn = 0; turn < 3 && t.table.match!.game.phase === 'playing'; turn++) {
        const step = t.table.match!.game.step;
        const deadline = t.state.round.deadline;
        assert.equal(deadline, t.now() + 15000);
        while (t.table.match!.game.step === step) {
          const wait = 500 - sinceTick;
          t.elapse(wait);
          sinceTick = 0;
          t.tick();
          if (t.table.match!.game.step === step) assert.ok(t.now() < deadline + 1500, 'not yet played 1.5 s after the deadline');
        }
        assert.ok(t.now() >= deadline, `played ${deadline - t.now()} ms early`);
        assert.ok(t.now() < deadline + 1500, `played ${t.now() - deadline} ms late`);
        // The next turn starts at once; the tick phase stays where it is.
      }
    }
  });

  it('keeps the running deadline when someone else drops or goes away', () => {
    const t = fakeHost(['a', 'b', 'c']);
    t.table.start();
    const deadline = t.state.round.deadline;
    const active = activePlayer(t.table.match!.game)!;
    const other = t.table.match!.game.order.find((id) => id !== active)!;
    t.elapse(7000);
    setPresence(t.state, other, { connected: false, away: true });
    t.table.presenceChanged();
    assert.equal(t.state.round.deadline, deadline);
    t.elapse(8000);
    t.tick();
    assert.equal(t.table.match!.record.log[0].auto, true, 'played at the original deadline');
  });

  it('a bot on turn acts after its think time, from its own seat view, through the player path', () => {
    const seen: PlayerView[] = [];
    const t = fakeHost(['a', 'bot1'], ['bot1']);
    const bot: TableBot = {
      thinkMs: (max) => max,
      decide: (view) => {
        seen.push(view);
        const game = t.table.match!.game;
        // The view is exactly the rules' view for the bot's seat: nothing more.
        assert.deepEqual(view, viewFor(game, 'bot1'));
        return game.round.card === null
          ? { type: 'offer', cardId: game.hands.bot1[0], to: 'a', claim: 'bat' }
          : { type: 'call', call: 'true' };
      },
    };
    t.table.seatBot('bot1', bot);
    t.table.start();
    let guard = 0;
    while (t.table.match!.game.phase === 'playing' && guard++ < 500) {
      const game = t.table.match!.game;
      if (activePlayer(game) === 'bot1') {
        const step = game.step;
        t.elapse(799);
        t.tick();
        assert.equal(game.step, step, 'still thinking');
        t.elapse(1);
        t.tick();
        assert.equal(game.step, step + 1, 'moved after its think time');
        assert.equal(t.moves.at(-1)!.payload.step, step, 'quotes the step it decided on');
      } else {
        const me = 'a';
        const action: Action =
          game.round.card === null
            ? { type: 'offer', cardId: game.hands[me][0], to: 'bot1', claim: 'fly' }
            : { type: 'call', call: 'false' };
        assert.equal(t.table.play(me, action, action.type, game.step).ok, true);
      }
    }
    assert.equal(t.table.match!.game.phase, 'ended');
    assert.ok(seen.length > 0);
    assert.ok(
      t.table.match!.record.log.some((e) => e.player === 'bot1' && !e.auto),
      'logged as the bot own moves',
    );
    assert.equal(t.sent.filter((m) => m.type === 'result').length, 1);
  });

  it('plays a game out at once when every human is away, bots included, and says so', () => {
    const t = fakeHost(['a', 'b', 'bot1'], ['bot1']);
    t.table.seatBot('bot1', { thinkMs: () => 1000, decide: () => ({ type: 'call', call: 'true' }) });
    t.table.start();
    setPresence(t.state, 'a', { connected: false, away: true });
    setPresence(t.state, 'b', { connected: false, away: true });
    t.table.presenceChanged();
    assert.equal(t.table.match!.game.phase, 'ended');
    assert.equal(t.ended(), true);
    assert.equal(t.table.timers.size, 0);
  });

  it('keeps a running score over a rematch, hands the host on at the end, and starts afresh', () => {
    const t = fakeHost(['a', 'b', 'c']);
    t.table.start();
    setPresence(t.state, 'a', { connected: false, away: true });
    t.table.presenceChanged();
    while (t.table.match!.game.phase === 'playing') {
      t.elapse(15000);
      t.tick();
    }
    const result = t.table.result!;
    assert.ok(result.gameId);
    assert.equal(t.state.gamesPlayed, 1);
    for (const id of ['a', 'b', 'c']) assert.equal(t.state.players.get(id)!.score, result.scores[id]);
    assert.equal(t.state.hostId, 'b', 'the host was away: the first present human in join order');
    t.state.players.delete('a');
    t.table.rematch();
    assert.equal(t.state.phase, 'lobby');
    assert.equal(t.table.result, null);
    assert.equal(t.state.order.length, 0);
    t.table.start();
    assert.equal(t.state.phase, 'playing');
    assert.deepEqual([...t.state.order].sort(), ['b', 'c']);
    assert.notEqual(t.table.gameId, result.gameId);
    assert.equal(t.state.players.get('b')!.score, result.scores.b, 'scores kept across the rematch');
  });

  it('commits to a secret before the game, derives the deal from it and the entropy, and reveals it only at the end', () => {
    const t = fakeHost(['a', 'b', 'c']);
    t.table.seated('a', '0123456789abcdef');
    t.table.seated('b', 'fedcba9876543210');
    const commitment = t.state.fairness.commitment;
    assert.match(commitment, /^[0-9a-f]{64}$/);
    assert.equal(t.state.fairness.serverSeed, '');
    t.table.start();
    assert.deepEqual(Object.fromEntries(t.state.fairness.entropy.entries()), { a: '0123456789abcdef', b: 'fedcba9876543210', c: '' });
    assert.equal(t.state.fairness.serverSeed, '', 'still secret while playing');
    while (t.table.match!.game.phase === 'playing') {
      t.elapse(15000);
      t.tick();
    }
    assert.equal(sha256Hex(t.state.fairness.serverSeed), commitment, 'the revealed secret is the committed one');
    assert.equal(t.records.length, 1);
    const record = t.records[0];
    assert.equal(record.gameId, t.table.result!.gameId);
    assert.deepEqual(verifyRecord(JSON.parse(JSON.stringify(record))), { ok: true });
    t.table.rematch();
    assert.notEqual(t.state.fairness.commitment, commitment, 'a fresh commitment for the next game');
    assert.equal(t.state.fairness.serverSeed, '');
    assert.equal(t.state.fairness.entropy.size, 0);
  });
});
