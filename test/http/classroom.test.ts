import assert from 'node:assert/strict';
import { Client } from 'colyseus.js';
import { startServerProcess, ServerProcess } from '../../loadtest/lib/serverProcess';
import { chooseMove } from '../../loadtest/clientBot';
import { seedRng } from '../../server/rules';
import { ROOM_NAME } from '../../server/protocol';
import { CockroachState } from '../../server/schema/CockroachState';
import { Tracked } from '../support/server';
import { tempDir } from '../support/tempDirs';
import { request } from './support';

/**
 * Issue 21 "a classroom is turned away", at the default settings of `npm start` (no limit
 * changed): 36 children on one address (127.0.0.1) open six tables of six within seconds, play,
 * drop together (the school's Wi-Fi blips), and all come back with their reconnection tokens.
 * Once with guest identities (POST /api/guest, the token on every request), once anonymous.
 */
const TABLES = 6;
const SEATS = 6;

interface Child {
  client: Client;
  tracked: Tracked;
}

/** Plays `moves` legal moves at one table, each from the mover's own decoded state, everyone caught up after each. */
async function play(table: Child[], moves: number, seed: string): Promise<void> {
  const rng = seedRng(seed);
  for (let played = 0; played < moves; played++) {
    const all = table.map((c) => c.tracked);
    const step = Math.max(...all.map((c) => c.state.step));
    await Promise.all(all.map((c) => c.until(() => c.state.step === step, `${c.label} at step ${step}`, 10_000)));
    if (all[0].state.phase !== 'playing') return;
    const mover = all.find((c) => chooseMove(c.state, c.id, rng) !== null);
    assert.ok(mover, `nobody can move at step ${step}`);
    const move = chooseMove(mover.state, mover.id, rng)!;
    mover.room.send(move.type, move.payload);
    await Promise.all(all.map((c) => c.until(() => c.state.step > step, `${c.label} past step ${step}`, 10_000)));
  }
}

/** A refusal's text, for the assertion message (colyseus.js puts "CODE: 한국어" in it). */
const why = (e: unknown) => (e instanceof Error ? e.message : String(e));

describe('http: a classroom on one address, at the default settings', function () {
  this.timeout(240_000);
  let server: ServerProcess;

  before(async () => {
    // Production defaults whatever the harness sets: no RATE_LIMITS=off, no changed limit.
    server = await startServerProcess({
      RATE_LIMITS: '',
      CREATES_PER_MINUTE: '',
      JOINS_PER_MINUTE: '',
      LOBBIES_PER_ADDRESS: '',
      PENDING_SEATS_PER_ADDRESS: '',
      CONNECTIONS_PER_ADDRESS: '',
      AUTH_JWT_SECRET: '',
      AUTH_JWT_PUBLIC_KEY: '',
      LOG_LEVEL: 'warn',
      DATA_DIR: tempDir('cockroach-classroom-'),
    });
  });
  after(async () => server?.stop());

  it('stops a script minting identities on one address (127.0.0.2) by the issuing limit; the classroom address is unaffected', async () => {
    const attacker = '127.0.0.2';
    const tokens: string[] = [];
    let refused: { status: number; json: any } | null = null;
    for (let i = 0; i < 400 && !refused; i++) {
      const reply = await request(server.port, 'POST', '/api/guest', '', {}, attacker);
      if (reply.status === 200) tokens.push(reply.json.token);
      else refused = reply;
    }
    assert.equal(tokens.length, 300, 'GUESTS_PER_ADDRESS_PER_HOUR');
    assert.equal(refused?.status, 429);
    assert.equal(refused?.json.code, 'TOO_MANY_REQUESTS');
    // Its identities cannot multiply the per-identity limits past the address's backstop either.
    const outcomes = new Map<string, number>();
    for (const token of tokens) {
      const reply = await request(
        server.port,
        'POST',
        `/matchmake/create/${ROOM_NAME}`,
        JSON.stringify({ nickname: '봇' }),
        { authorization: `Bearer ${token}` },
        attacker,
      );
      const key = reply.json?.room ? 'created' : String(reply.json?.code);
      outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    }
    // At most a minute's creates of one address (ADDRESS_CREATES_PER_MINUTE 120; and never more than
    // LOBBIES_PER_ADDRESS 100 open at once), whatever the number of identities; the rest refused.
    assert.ok((outcomes.get('created') ?? 0) <= 120, JSON.stringify([...outcomes]));
    assert.ok(
      [...outcomes.keys()].every((k) => ['created', 'TOO_MANY_LOBBIES', 'TOO_MANY_REQUESTS'].includes(k)),
      JSON.stringify([...outcomes]),
    );
    assert.ok((outcomes.get('TOO_MANY_LOBBIES') ?? 0) + (outcomes.get('TOO_MANY_REQUESTS') ?? 0) >= 180);
    // Meanwhile a child at school (127.0.0.1) gets an identity, opens a table and a friend joins.
    const child = new Client(server.endpoint);
    const guest = await request(server.port, 'POST', '/api/guest', '');
    assert.equal(guest.status, 200);
    child.auth.token = guest.json.token;
    const host = new Tracked(await child.create<CockroachState>(ROOM_NAME, { nickname: '학생' }, CockroachState), 'host');
    const friend = await new Client(server.endpoint).joinById<CockroachState>(host.room.roomId, { nickname: '짝꿍' }, CockroachState);
    await host.until(() => host.state.players.size === 2, 'both seated');
    await friend.leave();
    await host.leave();
  });

  for (const kind of ['guest identities', 'anonymous'] as const) {
    it(`36 players with ${kind} open six tables of six at once, play, drop together and all come back`, async () => {
      // Every child's client, with a guest token when it has one.
      const clients = await Promise.all(
        Array.from({ length: TABLES * SEATS }, async () => {
          const client = new Client(server.endpoint);
          if (kind === 'guest identities') {
            const guest = await request(server.port, 'POST', '/api/guest', '');
            assert.equal(guest.status, 200, guest.body);
            client.auth.token = guest.json.token;
          }
          return client;
        }),
      );
      // Six hosts tap "make a room" together, then their friends join by the code read out.
      const hosts = await Promise.all(
        Array.from({ length: TABLES }, (_, t) =>
          clients[t * SEATS]
            .create<CockroachState>(ROOM_NAME, { nickname: `방장${t}`, private: true }, CockroachState)
            .catch((e) => assert.fail(`table ${t}: create refused: ${why(e)}`)),
        ),
      );
      const tables: Child[][] = hosts.map((room, t) => [{ client: clients[t * SEATS], tracked: new Tracked(room, `t${t}s0`) }]);
      await Promise.all(
        tables.flatMap((table, t) =>
          Array.from({ length: SEATS - 1 }, async (_, i) => {
            const client = clients[t * SEATS + i + 1];
            const room = await client
              .joinById<CockroachState>(hosts[t].roomId, { nickname: `친구${t}${i}` }, CockroachState)
              .catch((e) => assert.fail(`table ${t}: join refused: ${why(e)}`));
            table.push({ client, tracked: new Tracked(room, `t${t}s${i + 1}`) });
          }),
        ),
      );
      for (const table of tables) {
        const host = table[0].tracked;
        await host.until(() => host.state.players.size === SEATS, `${host.label}: six seated`, 10_000);
        host.room.send('start', {});
      }
      for (const table of tables)
        await Promise.all(table.map((c) => c.tracked.until(() => c.tracked.state.phase === 'playing', 'started')));
      await Promise.all(tables.map((table, t) => play(table, 4, `${kind}-before-${t}`)));

      // The Wi-Fi blips: every connection drops at once, and every child comes back with its token.
      const tokens = tables.map((table) => table.map((c) => c.tracked.room.reconnectionToken));
      for (const table of tables) for (const c of table) c.tracked.room.connection.close();
      await Promise.all(
        tables.flatMap((table, t) =>
          table.map(async (c, s) => {
            const before = c.tracked;
            // The server must first notice the drop (its onLeave holds the seat): until then the
            // token is not yet valid and the answer is "expired"; never a refusal for rate.
            const deadline = Date.now() + 20_000;
            for (;;) {
              try {
                const room = await c.client.reconnect<CockroachState>(tokens[t][s], CockroachState);
                c.tracked = new Tracked(room, `${before.label}'`);
                break;
              } catch (e) {
                assert.doesNotMatch(why(e), /TOO_MANY|RATE_LIMITED|AUTH_/, `${before.label}: ${why(e)}`);
                if (Date.now() > deadline) throw new Error(`${before.label} never came back: ${why(e)}`);
                await new Promise((r) => setTimeout(r, 100)); // the SDK's retry pace, not a wait for the server
              }
            }
            assert.equal(c.tracked.id, before.id, 'the same seat');
            const me = () => c.tracked.state.players.get(c.tracked.id);
            await c.tracked.until(
              () => me()?.connected === true && me()!.hand.size === me()!.handCount,
              `${c.tracked.label}: its own hand again`,
              10_000,
            );
          }),
        ),
      );
      // Everyone sees everyone back, and the games go on.
      for (const table of tables)
        for (const c of table)
          await c.tracked.until(
            () => [...c.tracked.state.players.values()].every((p) => p.connected),
            `${c.tracked.label}: all back`,
            10_000,
          );
      await Promise.all(tables.map((table, t) => play(table, 4, `${kind}-after-${t}`)));
      for (const table of tables)
        for (const c of table) assert.deepEqual(c.tracked.messagesOf('error'), [], `${c.tracked.label}: no refusal`);
      await Promise.all(tables.flatMap((table) => table.map((c) => c.tracked.leave())));
      assert.ok(!server.crashed());
    });
  }
});
