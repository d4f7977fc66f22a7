import assert from 'node:assert/strict';
import { activePlayer, randomLegalAction, seedRng } from '../../server/rules';
import { CockroachState } from '../../server/schema/CockroachState';
import { colyseusLogger, formatLine, log, setLogContext, setLogLevel, setLogSink } from '../../server/base/log';
import { Tracked, useTestServer } from '../support/server';
import { openTable, startTable } from '../support/table';
import { assertNoHiddenCards } from './logCheck';

const SEED = '0123456789abcdef0123456789abcdef';

describe('ops: structured logs', function () {
  this.timeout(30000);

  describe('format', () => {
    it('writes one JSON object per line with time, level and event, flat primitive values', () => {
      setLogContext({}); // a server started by an earlier test file left its process id here
      const entry = JSON.parse(formatLine('info', 'room.created', { roomId: 'r1', n: 3, ok: true, none: undefined }));
      assert.deepEqual(Object.keys(entry), ['time', 'level', 'event', 'roomId', 'n', 'ok']);
      assert.ok(!Number.isNaN(Date.parse(entry.time)));
    });

    it('drops keys that name hidden data, and never serialises an object', () => {
      const entry = JSON.parse(
        formatLine('info', 'x', {
          hand: '3,4',
          cardKind: 'bat',
          Seed: SEED,
          removed: 'fly',
          roomId: 'r',
          sneaky: { hands: [1] } as unknown as string,
        }),
      );
      assert.deepEqual(entry.dropped, ['hand', 'cardKind', 'Seed', 'removed']);
      assert.equal(entry.roomId, 'r');
      assert.equal(entry.sneaky, '[object]');
      assert.doesNotMatch(JSON.stringify(entry), /bat|fly|3,4|0123456789abcdef/);
    });

    it('redacts credentials from every string and every key, whoever wrote them (issue 23 item 6)', () => {
      const token = 'Zq3_x9Lk2';
      const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzZWNyZXQtc3ViIn0.QmFzZTY0LXNpZ25hdHVyZQ';
      const colyseus = new Error(
        `remote room (r0om1) timed out, requesting "checkReconnectionToken with args ["${token}"]". (2000ms exceeded)`,
      );
      const lines: string[] = [];
      setLogSink((line) => lines.push(line));
      setLogLevel('info'); // a server started by an earlier test file may have left 'warn'
      try {
        log.warn('http.failed', { where: 'matchmake' }, colyseus);
        log.warn('ws.url', { url: `/p1/r0om1?sessionId=s1&reconnectionToken=${token}` });
        log.info('auth', { header: `Bearer ${jwt}`, note: `token=${token}&x=1`, raw: `{"reconnectionToken":"${token}"}` });
        log.info('keys', { token, Authorization: 'Basic dXNlcjpwYXNz', reconnection_token: token, password: 'hunter2hunter2' });
        colyseusLogger.error(`_reserveSeat with args ["s1",{"nickname":"a"},{"sub":"secret-sub"}]`, jwt);
      } finally {
        setLogLevel('warn');
        setLogSink(null);
      }
      assert.equal(lines.length, 5);
      const text = lines.join('\n');
      for (const secret of [token, jwt, 'secret-sub', 'dXNlcjpwYXNz', 'hunter2hunter2', 'eyJzdWIiOiJzZWNyZXQtc3ViIn0'])
        assert.ok(!text.includes(secret), `${secret} in ${text}`);
      const [failed, url, auth, keys] = lines.map((l) => JSON.parse(l));
      assert.match(failed.errMessage, /^remote room \(r0om1\) timed out, requesting "checkReconnectionToken with args \[redacted\]/);
      assert.match(failed.errStack, /with args \[redacted\]/);
      assert.equal(url.url, '/p1/r0om1?sessionId=s1&reconnectionToken=[redacted]', 'the rest of the line stays readable');
      assert.equal(auth.header, 'Bearer [redacted]');
      assert.equal(auth.note, 'token=[redacted]&x=1');
      assert.equal(auth.raw, '{"reconnectionToken":"[redacted]"}');
      assert.deepEqual(keys, {
        ...keys,
        token: '[redacted]',
        Authorization: '[redacted]',
        reconnection_token: '[redacted]',
        password: '[redacted]',
      });
    });

    it("routes Colyseus's own logger into the same lines, objects by class name only", () => {
      const lines: string[] = [];
      setLogSink((line) => lines.push(line));
      try {
        colyseusLogger.error('seat reservation expired', new CockroachState(), { hands: { a: ['bat'] } }, new Error('boom'));
      } finally {
        setLogSink(null);
      }
      assert.equal(lines.length, 1);
      const entry = JSON.parse(lines[0]);
      assert.equal(entry.event, 'colyseus');
      assert.match(entry.msg, /^seat reservation expired \[CockroachState\] \[Object\] Error: boom/);
      assert.doesNotMatch(lines[0], /bat/);
    });

    it('filters by level, and `always` writes whatever the level', () => {
      const lines: string[] = [];
      setLogSink((line) => lines.push(line));
      try {
        setLogLevel('error');
        log.info('hidden');
        log.warn('hidden');
        log.always('listening', { port: 1 });
        log.error('shown');
      } finally {
        setLogLevel('warn');
        setLogSink(null);
      }
      assert.deepEqual(
        lines.map((l) => JSON.parse(l).event),
        ['listening', 'shown'],
      );
    });
  });

  describe('a whole game at LOG_LEVEL=debug', () => {
    const ts = useTestServer({ seed: () => SEED, reconnectGraceSeconds: 90 });
    const lines: string[] = [];
    before(() => {
      setLogSink((line) => lines.push(line));
      setLogLevel('debug');
    });
    after(() => {
      setLogLevel('warn');
      setLogSink(null);
    });

    it('has room id and action on every room line, and no hidden card, hand or seed in any line', async () => {
      const table = await openTable(ts, 4);
      await startTable(table);
      const roomId = table.room.roomId;
      const game = table.room.table.match!.game;
      table.spectator.room.send('peek', {}); // refused: SPECTATOR
      await table.spectator.nextMessage('error');

      const dropper = table.players[2];
      const token = dropper.room.reconnectionToken;
      dropper.room.connection.close();
      await table.players[0].until(() => table.players[0].state.players.get(dropper.id)!.connected === false, 'dropped');
      table.players[2] = new Tracked(await ts.client().reconnect<CockroachState>(token, CockroachState), 'back');
      await table.players[0].until(() => table.players[0].state.players.get(dropper.id)!.connected === true, 'back');

      const bot = seedRng('logs');
      let actions = 0;
      while (game.phase === 'playing') {
        const actor = table.byId(activePlayer(game)!);
        const { type, ...payload } = randomLegalAction(game, actor.id, bot)!;
        const step = game.step;
        actor.room.send(type, payload);
        await actor.until(() => table.room.table.match!.game.step > step, `${type} applied`);
        actions++;
      }
      await table.players[0].until(() => table.players[0].messagesOf('result').length === 1, 'result');

      // A room that fails: its error line carries the room and the error, nothing else.
      const doomed = await openTable(ts, 2);
      await startTable(doomed);
      doomed.room.table.move = () => {
        throw new Error('boom');
      };
      const starter = doomed.byId(doomed.room.table.match!.game.order[0]);
      starter.room.send('peek', {});
      await doomed.spectator.nextMessage('error');
      for (const c of [...table.players, table.spectator]) await c.leave();

      assertNoHiddenCards(lines, [SEED]);
      const entries = lines.map((l) => JSON.parse(l));
      const mine = entries.filter((e) => e.roomId === roomId);
      const byEvent = (event: string) => mine.filter((e) => e.event === event);
      assert.equal(byEvent('room.created').length, 1);
      assert.equal(byEvent('game.started').length, 1);
      assert.equal(byEvent('action').length, actions, 'one line per applied action');
      for (const e of byEvent('action')) {
        assert.ok(['offer', 'call', 'peek', 'pass'].includes(e.action), e.action);
        assert.equal(typeof e.player, 'string');
        assert.equal(typeof e.step, 'number');
      }
      assert.deepEqual(
        byEvent('refused').map((e) => [e.action, e.code]),
        [['peek', 'SPECTATOR']],
      );
      assert.equal(byEvent('player.reconnected').length, 1);
      assert.deepEqual(
        byEvent('game.ended').map((e) => e.reason),
        [game.lossReason],
      );
      const failed = entries.find((e) => e.event === 'room.failed');
      assert.ok(failed, 'the failure is logged');
      assert.equal(failed.level, 'error');
      assert.equal(failed.roomId, doomed.room.roomId);
      assert.equal(failed.errMessage, 'boom');
      for (const e of entries) assert.equal(e.processId, ts.server.processId);
    });
  });
});
