import assert from 'node:assert/strict';
import { matchMaker } from 'colyseus';
import { LOG_BURST, LOG_LINES_PER_SECOND, log, setLogClock, setLogLevel, setLogSink } from '../../server/base/log';
import { post, ROOM_NAME, useEdge } from './support';

describe('http: a flood does not become a flood of log lines', function () {
  this.timeout(30000);
  const lines: string[] = [];
  afterEach(() => {
    setLogSink(null);
    setLogClock(null);
    setLogLevel('warn');
    lines.length = 0;
  });

  it('writes at most a burst of lines per event, then its rate, and says how many it left out', () => {
    let now = 0;
    setLogClock(() => now);
    setLogSink((l) => lines.push(l));
    setLogLevel('info');
    for (let i = 0; i < 1000; i++) log.info('room.created', { roomId: `r${i}` });
    log.info('other.event');
    assert.equal(lines.filter((l) => l.includes('"room.created"')).length, LOG_BURST);
    assert.equal(lines.filter((l) => l.includes('"other.event"')).length, 1, 'each event has its own budget');
    now += 1000;
    lines.length = 0;
    for (let i = 0; i < 1000; i++) log.info('room.created', { roomId: `s${i}` });
    assert.equal(lines.length, LOG_LINES_PER_SECOND);
    assert.equal(JSON.parse(lines[0]).suppressed, 1000 - LOG_BURST, 'the first line after a gap counts what was dropped');
  });

  describe('against a server', () => {
    const ts = useEdge();
    it('logs a bounded number of lines for 300 creates and 300 bad creates', async () => {
      // The log's clock stands still: however long the flood takes on a loaded machine, the
      // throttle may only let its burst through (the refill is shown above with a moving clock).
      setLogClock(() => 0);
      setLogSink((l) => lines.push(l));
      setLogLevel('info');
      for (let i = 0; i < 300; i++) {
        await post(ts.server.port, `/matchmake/create/${ROOM_NAME}`, { nickname: `n${i}` });
        await post(ts.server.port, `/matchmake/create/${ROOM_NAME}`, { hasOwnProperty: 1 });
      }
      await Promise.all(matchMaker.disconnectAll());
      const created = lines.filter((l) => l.includes('"room.created"')).length;
      assert.equal(created, LOG_BURST, `${created} room.created lines for 300 rooms`);
      assert.equal(lines.filter((l) => /errStack|"level":"error"/.test(l)).length, 0, 'no stack for a bad create');
    });
  });
});
