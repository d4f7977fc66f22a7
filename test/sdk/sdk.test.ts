import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { activePlayer, legalActions, passTargets, peekRefusal, RULE_MESSAGES, seedRng, viewFor } from '../../server/rules';
import { CockroachClient, CockroachResult, GameSnapshot, MemoryTokenStore, verifyGame } from '../../client-sdk/index';
import { localError } from '../../client-sdk/errors';
import { GAMES_HTTP_ERRORS } from '../../server/http/games';
import { playRandomly } from '../../client-sdk/bots';
import { useTestServer } from '../support/server';
import { assertNarrowed, leaveAfterEach, next, rejects, until } from './support';

describe('client SDK against a real server', function () {
  this.timeout(30000);
  const ts = useTestServer();
  leaveAfterEach();
  const client = () => new CockroachClient(ts.endpoint);

  async function table(count: number, options = {}) {
    const host = await client().create('민수', options);
    const sessions = [host];
    for (let i = 1; i < count; i++) sessions.push(await client().join(host.roomId, `친구${i}`));
    await until(host, () => host.snapshot.seats.length === count, 'seated');
    return { host, sessions, room: () => ts.serverRoom(host.roomId) };
  }

  it('surfaces matchmaking refusals as SdkError with the server code and Korean message; a mistyped room id is not "no network"', async () => {
    await rejects(client().create('', {}), 'BAD_NICKNAME');
    await rejects(client().create('민수', { loseCount: 7 as 3 }), 'BAD_OPTION');
    await rejects(client().join('nosuchroom', '민수'), 'ROOM_NOT_FOUND');
    await rejects(new CockroachClient('ws://127.0.0.1:9').join('nosuchroom', '민수'), 'CONNECTION_FAILED');
    const { host } = await table(2);
    await host.start();
    await rejects(client().join(host.roomId, '늦음'), 'LATE_JOIN');
  });

  it('lists open rooms with their metadata, and spectates by id; a table is private unless made public', async () => {
    const hidden = await client().create('비밀방');
    assert.equal(hidden.snapshot.options.private, true, "the SDK's create() makes a private table by default");
    const host = await client().create('공개방', { loseCount: 3, private: false });
    const listed = await client().listRooms();
    assert.ok(!listed.some((r) => r.roomId === hidden.roomId), 'a private table is not listed');
    const mine = listed.find((r) => r.roomId === host.roomId)!;
    assert.deepEqual([mine.phase, mine.seats, mine.host, mine.options.loseCount], ['lobby', 1, '공개방', 3]);
    const watcher = await client().spectate(host.roomId);
    assert.equal(watcher.me, null);
    await rejects(watcher.start(), 'SPECTATOR');
  });

  it('plays a whole game through the SDK alone: bots decide from snapshots and helpers', async () => {
    const { host, sessions, room } = await table(4);
    const errors: unknown[] = [];
    const stops = sessions.map((s, i) => playRandomly(s, seedRng(`sdk-${i}`), (e) => errors.push(e)));
    const results = sessions.map((s) => new Promise((resolve) => s.once('gameOver', resolve)));
    await host.start();
    const all = await Promise.all(results);
    stops.forEach((stop) => stop());
    assert.deepEqual(errors, []);
    assert.equal(room().table.match!.game.phase, 'ended');
    for (const result of all) assert.deepEqual(result, all[0]);
    assert.equal(host.snapshot.phase, 'ended');
    assert.equal(host.snapshot.result, all[0]);
    const mine = host.snapshot.seats.find((seat) => seat.isMe)!;
    assert.equal(
      host.snapshot.myHand.reduce((n, g) => n + g.count, 0),
      mine.handCount,
      'my hand grouped by kind',
    );
    // The game's record, from the endpoint the client already knows, checks out.
    const record = await client().fetchRecord((all[0] as CockroachResult).gameId);
    assert.deepEqual(verifyGame(record), { ok: true });
  });

  it("fetchRecord refuses an unknown game with the server's own Korean sentences", async () => {
    await rejects(client().fetchRecord('not-a-game'), 'GAME_NOT_FOUND');
    await rejects(client().fetchRecord('0'.repeat(64)), 'GAME_NOT_FOUND');
    await rejects(new CockroachClient('ws://127.0.0.1:9').fetchRecord('0'.repeat(64)), 'CONNECTION_FAILED');
    for (const code of ['GAME_NOT_FOUND', 'RECORDS_UNAVAILABLE'] as const)
      assert.equal(localError(code, 'fetchRecord').message, GAMES_HTTP_ERRORS[code]);
  });

  it('settles each action: resolves once applied, rejects with the refusal code', async () => {
    const { host, sessions, room } = await table(3);
    await rejects(sessions[1].start(), 'NOT_HOST');
    await host.start();
    const game = room().table.match!.game;
    const byId = (id: string) => sessions.find((s) => s.me === id)!;
    const [a, b, c] = game.order.map(byId);
    await until(a, () => a.snapshot.myTurn, 'my turn');
    assert.deepEqual(a.snapshot.canDo, ['offer']);
    await rejects(b.offer(b.snapshot.myHand[0].cardIds[0], a.me!, 'rat'), 'NOT_YOUR_TURN');
    await rejects(a.call(true), 'MUST_OFFER');
    const handed = new Promise((resolve) => b.once('cardHandedToMe', resolve));
    await a.offer(a.snapshot.myHand[0].cardIds[0], b.me!, 'rat');
    assert.equal(a.snapshot.step, 1, 'resolved after the patch arrived');
    assert.deepEqual(await handed, { from: a.me, claim: 'rat' });
    await until(b, () => b.snapshot.step === 1, 'b up to date');
    assert.deepEqual(b.snapshot.canDo, ['call', 'peek']);
    await b.peek();
    assert.ok(b.snapshot.round.cardKind, 'the peeked kind reached me');
    assert.deepEqual(b.snapshot.canDo, ['pass']);
    await rejects(b.call(false), 'ALREADY_PEEKED');
    await rejects(b.pass(a.me!, 'bat'), 'TARGET_ALREADY_SEEN');
    // Everyone but me, from the seat after mine (the table's order): c, then a.
    assert.deepEqual(
      b.passOptions().map((o) => [o.id, o.allowed, o.reason?.code]),
      [
        [c.me, true, undefined],
        [a.me, false, 'TARGET_ALREADY_SEEN'],
      ],
    );
    assert.deepEqual(
      b.offerTargets().map((o) => [o.id, o.allowed]),
      [
        [c.me, true],
        [a.me, true],
      ],
      'offer targets: everyone but me, in the same order',
    );
    await b.pass(c.me!, 'bat');
    await until(c, () => c.snapshot.step === 3, 'c up to date');
    assert.deepEqual(c.peekAvailability(), {
      allowed: false,
      reason: { code: 'NO_PASS_TARGET', message: RULE_MESSAGES.NO_PASS_TARGET },
    });
    assert.match(RULE_MESSAGES.NO_PASS_TARGET, /[\uAC00-\uD7A3]/, 'the Korean sentence the button shows');
    await rejects(c.peek(), 'NO_PASS_TARGET');
    const revealed = new Promise((resolve) => a.once('revealed', resolve));
    await c.call(true);
    assert.equal(((await revealed) as { caller: string }).caller, c.me);
    await c.chat('oops');
    const next = byId(game.round.starter);
    await until(next, () => next.snapshot.myTurn, 'the next starter');
    const [first, second] = next.snapshot.myHand.flatMap((g) => g.cardIds);
    const other = next === a ? b : a;
    const applied = next.offer(first, other.me!, 'rat');
    await rejects(next.offer(second ?? first, other.me!, 'bat'), 'ACTION_PENDING');
    await applied;
    assert.equal(game.step, 5);
  });

  it('reports my turn with the seconds left on the server clock', async () => {
    const { host, sessions, room } = await table(2, { turnSeconds: 30 });
    const turns = sessions.map(
      (s) => new Promise<{ secondsLeft: number; canDo: readonly string[] }>((resolve) => s.once('myTurn', resolve)),
    );
    await host.start();
    const starter = room().table.match!.game.order[0];
    const turn = await turns[sessions.findIndex((s) => s.me === starter)];
    assert.deepEqual(turn.canDo, ['offer']);
    assert.ok(turn.secondsLeft > 25 && turn.secondsLeft <= 30, `${turn.secondsLeft}`);
  });

  it('resumes by itself after a drop, and from the stored token after an app restart', async () => {
    const store = new MemoryTokenStore();
    const host = await new CockroachClient(ts.endpoint, { store }).create('민수');
    const friend = await client().join(host.roomId, '지우');
    await host.start();
    const me = host.me;
    const lost = new Promise((resolve) => host.once('connectionLost', resolve));
    const back = new Promise((resolve) => host.once('reconnected', resolve));
    (host as unknown as { room: { connection: { close(): void } } }).room.connection.close();
    await lost;
    await back;
    assert.equal(host.me, me, 'the same seat and id');
    assert.equal(host.snapshot.myHandCount, ts.serverRoom(host.roomId).table.match!.game.hands[me!].length);
    assert.ok(host.snapshot.myHand.length > 0, 'my hand is back');

    await until(friend, () => friend.snapshot.seats.find((s) => s.id === me)?.connected === true, 'first return seen');

    // "App restart": a brand new client with the same store takes the seat back.
    const saved = store.load()!;
    assert.equal(saved.sessionId, me);
    (host as unknown as { leaving: boolean }).leaving = true; // the old app is gone without a word
    (host as unknown as { room: { connection: { close(): void } } }).room.connection.close();
    await until(friend, () => friend.snapshot.seats.find((s) => s.id === me)?.connected === false, 'drop seen');
    const restarted = await new CockroachClient(ts.endpoint, { store }).resume();
    assert.equal(restarted.me, me);
    await until(friend, () => friend.snapshot.seats.find((s) => s.id === me)?.connected === true, 'return seen');
    const left = next(restarted, 'left');
    await restarted.leave();
    assert.deepEqual(
      [(await left).reason.code, (await left).reason.message],
      ['LEFT', '방에서 나왔어요.'],
      'my own leave is told as such, ready to show',
    );
    assert.equal(store.load(), null, 'leaving forgets the seat');
    await rejects(new CockroachClient(ts.endpoint, { store }).resume(), 'NO_SAVED_SEAT');
  });

  it("matches the server's decisions (whose turn, what they may do, whom to pass to, peek) over many random states", async () => {
    for (const [count, options] of [
      [2, { twoPlayerPass: true }],
      [2, {}],
      [3, {}],
      [5, {}],
    ] as const) {
      const { host, sessions, room } = await table(count, options);
      const stops = sessions.map((s, i) => playRandomly(s, seedRng(`decisions-${count}-${i}`)));
      let checked = 0;
      const failures: unknown[] = [];
      const check = (snap: GameSnapshot) => {
        try {
          assertNarrowed(snap);
          compare();
        } catch (error) {
          failures.push(error);
        }
      };
      const compare = () => {
        const game = room().table.match?.game;
        if (!game || game.phase !== 'playing') return;
        for (const s of sessions) {
          if (s.snapshot.step !== game.step || s.snapshot.phase !== 'playing') continue; // only the state it has seen
          const snap = s.snapshot;
          const mine: boolean = activePlayer(game) === s.me;
          assert.equal(snap.myTurn, mine);
          assert.deepEqual(snap.canDo, [...new Set(legalActions(game, s.me!).map((a) => a.type))]);
          if (mine && game.round.card !== null) {
            assert.equal(s.peekAvailability().allowed, peekRefusal(game) === null);
            if (game.round.peeked)
              assert.deepEqual(
                s
                  .passOptions()
                  .filter((o) => o.allowed)
                  .map((o) => o.id)
                  .sort(),
                [...passTargets(game)].sort(),
              );
          }
          assert.deepEqual(snap.round.cardKind ?? undefined, viewFor(game, s.me).round.cardKind);
          checked++;
        }
      };
      // A watcher's snapshots are checked against the narrowed types too.
      const watcher = await client().spectate(host.roomId);
      const offs = [...sessions, watcher].map((s) => s.on('change', check));
      const over = new Promise((resolve) => host.once('gameOver', resolve));
      await host.start();
      await over;
      offs.forEach((off) => off());
      stops.forEach((stop) => stop());
      assert.deepEqual(failures, []);
      assert.ok(checked > 50, `${checked} states compared`);
    }
  });

  it('ships without server packages or Node-only modules, and without runtime import cycles', () => {
    const edges = new Map<string, string[]>();
    const bare = new Set<string>();
    const visit = (file: string) => {
      if (edges.has(file)) return;
      const runtime: string[] = [];
      edges.set(file, runtime);
      const source = readFileSync(file, 'utf8');
      for (const [statement, spec] of source.matchAll(/^(?:import|export)[^;]*?from '([^']+)'/gms)) {
        const typeOnly = /^(?:import|export) type /.test(statement);
        if (!spec.startsWith('.')) {
          bare.add(spec);
          continue;
        }
        const base = path.resolve(path.dirname(file), spec);
        const target = existsSync(`${base}.ts`) ? `${base}.ts` : path.join(base, 'index.ts');
        if (!typeOnly) runtime.push(target);
        visit(target);
      }
    };
    visit(path.resolve(__dirname, '../../client-sdk/index.ts'));
    assert.deepEqual([...bare].sort(), ['@colyseus/schema', 'colyseus.js']);
    const root = path.resolve(__dirname, '../..');
    const outside = [...edges.keys()]
      .map((f) => path.relative(root, f))
      .filter((f) => !/^(client-sdk|server\/(rules|schema|fairness)|server\/protocol\.ts|server\/colyseus\/client\.ts)/.test(f));
    assert.deepEqual(outside, [], 'only the SDK and the pure shared code');
    // A require cycle (React Native's bundler warns on each): depth-first search on runtime edges.
    const state = new Map<string, 'open' | 'done'>();
    const cycles: string[] = [];
    const walk = (file: string, trail: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open')
        return void cycles.push([...trail.slice(trail.indexOf(file)), file].map((f) => path.relative(root, f)).join(' → '));
      state.set(file, 'open');
      for (const next of edges.get(file) ?? []) walk(next, [...trail, file]);
      state.set(file, 'done');
    };
    for (const file of edges.keys()) walk(file, []);
    assert.deepEqual(cycles, []);
  });
});
