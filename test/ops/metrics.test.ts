import assert from 'node:assert/strict';
import { activePlayer, randomLegalAction, seedRng } from '../../server/rules';
import { CockroachState } from '../../server/schema/CockroachState';
import { fakeClock } from '../support/fakeClock';
import { Client } from 'colyseus.js';
import { matchMaker } from 'colyseus';
import { TestServer, Tracked } from '../support/server';
import { EMBEDDED_EDGE, EMBEDDED_OPS } from '../../server/base/config';
import { startServer } from '../../server/app';
import { assertNoErrors, openTable, startTable, syncAndCheck } from '../support/table';
import { httpGet, metric, parseMetrics, scrape, waitFor } from './support';

describe('ops: GET /metrics (Prometheus text) after a game', function () {
  this.timeout(30000);
  // /metrics lives on the ops listener (OPS_PORT); this server opens one on a free port.
  const ts = {} as TestServer;
  before(async () => {
    const server = await startServer({
      port: 0,
      reconnectGraceSeconds: 90,
      messageBurst: 1_000_000,
      messagesPerSecond: 1_000_000,
      ops: { ...EMBEDDED_OPS, edge: { ...EMBEDDED_EDGE, opsPort: 0 } },
    });
    const endpoint = `ws://127.0.0.1:${server.port}`;
    Object.assign(ts, { server, endpoint, client: () => new Client(endpoint), serverRoom: (id: string) => matchMaker.getRoomById(id) });
  });
  after(() => ts.server.close());

  it('counts rooms by phase, clients, actions, refusals by code, action latency, reconnections and timeouts', async () => {
    const port = ts.server.opsPort!;
    const res = await httpGet(`http://127.0.0.1:${port}/metrics`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    const before = parseMetrics(res.body);
    assert.equal(metric(before, 'cockroach_rooms'), 0);
    assert.ok(before.has('process_cpu_user_seconds_total'), 'process metrics too');
    assert.ok(before.has('nodejs_eventloop_lag_p99_seconds'));
    const delta = (after: Map<string, number>, name: string, labels: Record<string, string> = {}) =>
      metric(after, name, labels) - metric(before, name, labels);

    const table = await openTable(ts, 3);
    let m = await scrape(port);
    assert.equal(metric(m, 'cockroach_rooms', { phase: 'lobby' }), 1);
    assert.equal(metric(m, 'cockroach_clients', { role: 'player' }), 3);
    assert.equal(metric(m, 'cockroach_clients', { role: 'spectator' }), 1);

    const clock = fakeClock(table.room);
    await startTable(table);
    const game = table.room.table.match!.game;
    m = await scrape(port);
    assert.equal(metric(m, 'cockroach_rooms', { phase: 'playing' }), 1);
    assert.equal(metric(m, 'cockroach_rooms', { phase: 'lobby' }), 0);

    // Two refusals with their codes.
    const host = table.players[0];
    host.room.send('start', {});
    const spectatorError = table.spectator.nextMessage('error');
    table.spectator.room.send('peek', {});
    assert.equal((await host.nextMessage('error')).code, 'ALREADY_STARTED');
    assert.equal((await spectatorError).code, 'SPECTATOR');
    host.messages.length = 0;
    table.spectator.messages.length = 0;

    // The clock plays the starter's turn.
    clock.advance(game.options.turnSeconds * 1000);
    await host.until(() => table.room.table.match!.game.step === 1, 'the timeout applied');
    await syncAndCheck(table);

    // A drop and a reconnect.
    const dropper = table.players[1];
    const token = dropper.room.reconnectionToken;
    dropper.room.connection.close();
    await host.until(() => host.state.players.get(dropper.id)!.connected === false, 'dropped');
    const back = new Tracked(await ts.client().reconnect<CockroachState>(token, CockroachState), 'back');
    table.players[1] = back;
    await host.until(() => host.state.players.get(back.id)!.connected === true, 'back');

    const bot = seedRng('metrics');
    const counts: Record<string, number> = {};
    while (game.phase === 'playing') {
      const actor = table.byId(activePlayer(game)!);
      const action = randomLegalAction(game, actor.id, bot)!;
      const { type, ...payload } = action;
      const step = game.step;
      actor.room.send(type, { ...payload, step }); // with step: the frozen clock keeps the late-action window open
      await actor.until(() => table.room.table.match!.game.step > step, `${type} applied`);
      counts[type] = (counts[type] ?? 0) + 1;
    }
    await syncAndCheck(table);
    assertNoErrors(table);
    const played = Object.values(counts).reduce((a, b) => a + b, 0);

    m = await scrape(port);
    assert.equal(metric(m, 'cockroach_rooms', { phase: 'ended' }), 1);
    assert.equal(metric(m, 'cockroach_rooms', { phase: 'playing' }), 0);
    for (const [type, n] of Object.entries(counts))
      assert.equal(delta(m, 'cockroach_actions_total', { action: type, source: 'player' }), n, type);
    assert.equal(delta(m, 'cockroach_actions_total', { action: 'start' }), 1);
    assert.equal(delta(m, 'cockroach_actions_total', { source: 'timeout' }), 1);
    assert.equal(delta(m, 'cockroach_refusals_total', { code: 'ALREADY_STARTED' }), 1);
    assert.equal(delta(m, 'cockroach_refusals_total', { code: 'SPECTATOR' }), 1);
    assert.equal(delta(m, 'cockroach_refusals_total'), 2);
    assert.equal(delta(m, 'cockroach_action_seconds_count'), played, 'one latency sample per player action');
    assert.ok(delta(m, 'cockroach_action_seconds_sum') > 0);
    assert.equal(delta(m, 'cockroach_action_seconds_bucket', { le: '+Inf' }), played);
    assert.equal(delta(m, 'cockroach_turn_timeouts_total'), 1);
    assert.equal(delta(m, 'cockroach_reconnections_total', { outcome: 'reconnected' }), 1);
    assert.equal(delta(m, 'cockroach_reconnections_total', { outcome: 'expired' }), 0);
    assert.equal(delta(m, 'cockroach_games_total', { event: 'started' }), 1);
    assert.equal(delta(m, 'cockroach_games_total', { event: 'ended', reason: game.lossReason! }), 1);
    assert.equal(metric(m, 'cockroach_draining'), 0);
    assert.ok(metric(m, 'cockroach_process_info', { process_id: ts.server.processId }) === 1);

    for (const c of [...table.players, table.spectator]) await c.leave();
    // The room disposes once its last client's leave went through: wait for that, not for a while.
    await waitFor(async () => metric(await scrape(port), 'cockroach_rooms') === 0, 'a room everyone left is gone');
    m = await scrape(port);
    assert.equal(metric(m, 'cockroach_rooms'), 0, 'a room everyone left is gone');
    assert.equal(metric(m, 'cockroach_clients'), 0);
  });
});

// After the server above has closed: one Colyseus server per process at a time.
describe('ops: /metrics on the public port', function () {
  it('is refused there by default, whatever the case or a trailing slash', async () => {
    const closed = await startServer({ port: 0, reconnectGraceSeconds: 90, messageBurst: 1000, messagesPerSecond: 1000 });
    try {
      for (const path of ['/metrics', '/METRICS', '/Metrics', '/metrics/'])
        assert.equal((await httpGet(`http://127.0.0.1:${closed.port}${path}`)).status, 404, path);
      assert.equal(closed.opsPort, null);
    } finally {
      await closed.close();
    }
  });

  it('is served there only with OPS_ON_PUBLIC_PORT, still case-sensitive', async () => {
    const open = await startServer({
      port: 0,
      reconnectGraceSeconds: 90,
      messageBurst: 1000,
      messagesPerSecond: 1000,
      ops: { ...EMBEDDED_OPS, edge: { ...EMBEDDED_EDGE, opsOnPublicPort: true } },
    });
    try {
      assert.equal((await httpGet(`http://127.0.0.1:${open.port}/metrics`)).status, 200);
      assert.equal((await httpGet(`http://127.0.0.1:${open.port}/METRICS`)).status, 404, 'case-sensitive routing');
      assert.equal(open.opsPort, null);
    } finally {
      await open.close();
    }
  });
});
