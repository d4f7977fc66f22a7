import assert from 'node:assert/strict';
import { Client } from 'colyseus.js';
import { CockroachState } from '../../server/schema/CockroachState';
import { startServerProcess, ServerProcess } from '../../loadtest/lib/serverProcess';
import { Tracked } from '../support/server';
import { collectLines, createAt, exitCode, httpGet, joinAt, playToEnd, ROOM, waitFor } from './support';
import { assertNoHiddenCards } from './logCheck';

/** One process (a REDIS_URL in the developer's shell must not leak in), no rate limit, every line. */
const FAST = { REDIS_URL: '', PUBLIC_ADDRESS: '', MESSAGE_BURST: '1000000', MESSAGES_PER_SECOND: '1000000', LOG_LEVEL: 'debug' };

async function game(endpoint: string, label: string): Promise<Tracked[]> {
  const host = await createAt(endpoint, { nickname: `${label}0`, turnSeconds: 60 }, `${label}0`);
  const guest = await joinAt(endpoint, host.room.roomId, { nickname: `${label}1` }, `${label}1`);
  await host.until(() => host.state.players.size === 2, 'two seated');
  host.room.send('start', {});
  await Promise.all([host, guest].map((c) => c.until(() => c.state.phase === 'playing', 'playing')));
  return [host, guest];
}

function events(lines: string[]): { event: string; [k: string]: unknown }[] {
  return lines.map((l) => JSON.parse(l));
}

/** `npm start` as a child process, drained with SIGTERM as a deploy would (no Redis: one process). */
describe('ops: drain on SIGTERM', function () {
  this.timeout(60000);
  const procs: ServerProcess[] = [];
  const clients: Tracked[] = [];
  after(async () => {
    for (const c of clients) if (c.leftWith === null) await c.room.leave().catch(() => undefined);
    await Promise.all(procs.map((p) => p.stop()));
  });

  it('takes no new rooms, tells and closes lobbies, lets the running game finish, then exits 0', async () => {
    const proc = await startServerProcess({ ...FAST, DRAIN_SECONDS: '60' });
    procs.push(proc);
    const lines = collectLines(proc);
    const lobby = await createAt(proc.endpoint, { nickname: 'lobby' }, 'lobby');
    const players = await game(proc.endpoint, 'g');
    clients.push(lobby, ...players);

    const exited = exitCode(proc);
    proc.child.kill('SIGTERM');
    await lobby.until(() => lobby.leftWith !== null, 'the lobby closed');
    assert.deepEqual(
      lobby.messagesOf('error').map((e) => e.code),
      ['SERVER_DRAINING'],
      'lobby players told first',
    );
    assert.equal(lobby.leftWith, 4000);

    const ready = await httpGet(`http://127.0.0.1:${proc.port}/ready`);
    assert.equal(ready.status, 503);
    assert.equal((await httpGet(`http://127.0.0.1:${proc.port}/health`)).status, 200, 'alive for the games it holds');
    await assert.rejects(new Client(proc.endpoint).create(ROOM, { nickname: 'late' }), (e: Error) =>
      e.message.startsWith('SERVER_DRAINING: '),
    );
    assert.equal((await new Client(proc.endpoint).getAvailableRooms(ROOM)).length, 0, 'nothing listed');

    // A player who drops during the drain comes back as usual.
    const token = players[1].room.reconnectionToken;
    players[1].room.connection.close();
    await players[0].until(() => players[0].state.players.get(players[1].id)!.connected === false, 'dropped');
    players[1] = new Tracked(await new Client(proc.endpoint).reconnect<CockroachState>(token, CockroachState), 'g1 back');
    clients.push(players[1]);
    await players[0].until(() => players[0].state.players.get(players[1].id)!.connected === true, 'back during the drain');
    const back = players[1];
    await back.until(() => back.state.phase === 'playing' && (back.state.players.get(back.id)?.hand.size ?? 0) > 0, 'its view again');

    await playToEnd(() => players, 'drain-finish');
    for (const c of players) await c.until(() => c.messagesOf('result').length === 1, `${c.label}: result`);
    assert.equal(await exited, 0);
    for (const c of players) {
      await c.until(() => c.leftWith !== null, `${c.label}: closed at shutdown`);
      assert.deepEqual(c.messagesOf('error'), [], 'no game was cut');
    }

    const log = events(lines);
    const done = log.find((e) => e.event === 'drain.done');
    assert.deepEqual({ finished: done?.finished, cut: done?.cut }, { finished: 1, cut: 0 });
    assert.ok(log.some((e) => e.event === 'drain.lobby_closed' && e.roomId === lobby.room.roomId));
    assert.ok(
      log.some((e) => e.event === 'action' && e.roomId === players[0].room.roomId),
      'per-action lines at LOG_LEVEL=debug',
    );
    assertNoHiddenCards(lines);
  });

  it('cuts a game still running at DRAIN_SECONDS: its players are told (SERVER_SHUTDOWN) before the close, then exits 0', async () => {
    const proc = await startServerProcess({ ...FAST, DRAIN_SECONDS: '1' });
    procs.push(proc);
    const lines = collectLines(proc);
    const players = await game(proc.endpoint, 'c');
    clients.push(...players);
    const watcher = await joinAt(proc.endpoint, players[0].room.roomId, { spectator: true }, 'watcher');
    clients.push(watcher);
    await waitFor(() => watcher.state.phase === 'playing', 'watching');

    const exited = exitCode(proc);
    const t0 = Date.now();
    proc.child.kill('SIGTERM');
    for (const c of [...players, watcher]) {
      await c.until(() => c.leftWith !== null, `${c.label}: closed`, 10000);
      assert.equal(c.messagesOf('error')[0]?.code, 'SERVER_SHUTDOWN', `${c.label}: told before the close`);
    }
    assert.ok(Date.now() - t0 >= 900, 'the game had its drain time');
    assert.equal(await exited, 0);
    const done = events(lines).find((e) => e.event === 'drain.done');
    assert.deepEqual({ finished: done?.finished, cut: done?.cut }, { finished: 0, cut: 1 });
    assertNoHiddenCards(lines);
  });

  it('a second SIGTERM cuts at once', async () => {
    const proc = await startServerProcess({ ...FAST, DRAIN_SECONDS: '600' });
    procs.push(proc);
    const players = await game(proc.endpoint, 's');
    clients.push(...players);
    const exited = exitCode(proc);
    proc.child.kill('SIGTERM');
    await waitFor(async () => (await httpGet(`http://127.0.0.1:${proc.port}/ready`)).status === 503, 'draining');
    proc.child.kill('SIGTERM');
    for (const c of players) {
      await c.until(() => c.leftWith !== null, `${c.label}: closed`);
      assert.equal(c.messagesOf('error')[0]?.code, 'SERVER_SHUTDOWN');
    }
    assert.equal(await exited, 0);
  });
});
