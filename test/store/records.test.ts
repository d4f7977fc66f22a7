import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setLogLevel, setLogSink } from '../../server/base/log';
import { startRecords } from '../../server/store/records';
import { verifyRecord } from '../../server/fairness/verify';
import { copy, playGame } from '../fairness/games';

describe('store: startRecords (what the server process runs)', () => {
  let dir: string;
  const lines: string[] = [];
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cockroach-records-'));
    setLogSink((line) => lines.push(line));
    setLogLevel('info'); // a test server earlier in the process may have set the embedded default, warn
  });
  after(() => {
    setLogSink(null);
    setLogLevel('warn');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes a record at the end of a game that is still there after a restart', async () => {
    const env = { DATA_DIR: dir, RECORD_RETENTION_DAYS: '36500' };
    const { record } = playGame(6, { botSeed: 'records-restart' });
    const first = await startRecords(env);
    first.writer.write(record);
    assert.deepEqual(await first.writer.get(record.gameId), record, 'served while queued');
    await first.close();

    const second = await startRecords(env);
    try {
      const back = await second.writer.get(record.gameId);
      assert.deepEqual(back, copy(record));
      assert.deepEqual(verifyRecord(back), { ok: true });
    } finally {
      await second.close();
    }
    const ready = lines.map((l) => JSON.parse(l)).filter((l) => l.event === 'records.ready');
    assert.deepEqual(ready[0], { ...ready[0], store: `sqlite ${path.join(dir, 'games.sqlite')}`, retentionDays: 36500 });
  });

  it('stops at start on a bad setting', async () => {
    await assert.rejects(startRecords({ DATA_DIR: dir, RECORD_RETENTION_DAYS: '0' }), /RECORD_RETENTION_DAYS/);
  });
});
