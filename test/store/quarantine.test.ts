import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FinishedGameRecord } from '../../server/fairness/record';
import { setLogSink } from '../../server/base/log';
import { registry } from '../../server/base/metrics';
import { DiskStore } from '../../server/store/disk';
import { openStore } from '../../server/store/open';
import { PostgresStore } from '../../server/store/postgres';
import { quarantineDir } from '../../server/store/quarantine';
import { RecordWriter } from '../../server/store/writer';
import { rowOf } from '../../server/store/types';
import { copy, playGame } from '../fairness/games';
import { requireTestPostgres, TestPostgres } from './pgCluster';

async function quarantined(where: string): Promise<number> {
  const m = registry.getSingleMetric('cockroach_records_quarantined_total');
  return (await m!.get()).values.find((v) => v.labels.where === where)?.value ?? 0;
}

/** The quarantine folder's files, parsed. */
function setAside(file: string): { gameId: string; where: string; code: string; row: { json: string } | null; dump: string | null }[] {
  const dir = quarantineDir(file);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .sort()
    .map((name) => JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')));
}

const FAST = { retryMinMs: 1, retryMaxMs: 4, fileCheckMs: 60_000, durableWaitMs: 10_000 };

describe('store: one bad row is set aside (quarantined, counted) and the rest goes on', function () {
  this.timeout(60000);
  const games = Array.from({ length: 4 }, (_, i) => playGame(2, { botSeed: `quarantine-${i}` }).record);
  let dir: string;
  let lines: string[];
  const closing: (() => Promise<unknown>)[] = [];
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cockroach-quarantine-'));
    lines = [];
    setLogSink((line) => lines.push(line));
  });
  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close();
    setLogSink(null);
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const events = (name: string) => lines.map((l) => JSON.parse(l)).filter((l) => l.event === name);

  it('SQLite: a record that cannot be serialized and one whose time is no time go aside; the games ending with them are stored', async () => {
    const file = path.join(dir, 'games.sqlite');
    const store = await DiskStore.open(file, 'games');
    const writer = new RecordWriter(store, null, FAST).start();
    closing.push(() => writer.close({ diskMs: 10 }));
    const before = await quarantined('disk');
    const unserializable = copy(games[1]) as FinishedGameRecord & { big?: bigint };
    unserializable.big = 10n; // JSON.stringify throws on a bigint
    const badTime = { ...copy(games[2]), startedAt: 'not a time' };

    const outcomes = await Promise.all([
      writer.write(games[0]),
      writer.write(unserializable),
      writer.write(badTime),
      writer.write(games[3]),
    ]);
    assert.deepEqual(outcomes, ['stored', 'quarantined', 'quarantined', 'stored']);
    assert.deepEqual(await store.get(games[0].gameId), copy(games[0]));
    assert.deepEqual(await store.get(games[3].gameId), copy(games[3]));
    assert.equal(await store.get(games[1].gameId), null);
    assert.equal((await quarantined('disk')) - before, 2);
    assert.deepEqual(
      events('record.quarantined').map((l) => [l.gameId, l.where, l.code]),
      [
        [games[1].gameId, 'disk', 'UNSERIALIZABLE'],
        [games[2].gameId, 'disk', 'BAD_ROW'],
      ],
    );
    const kept = setAside(file);
    assert.equal(kept.length, 2, 'kept, not lost');
    const dumped = kept.find((k) => k.code === 'UNSERIALIZABLE')!;
    assert.equal(dumped.row, null);
    assert.equal(JSON.parse(dumped.dump!).big, '10n', 'what it held is written down');
    const bad = kept.find((k) => k.code === 'BAD_ROW')!;
    assert.deepEqual(JSON.parse(bad.row!.json), badTime, 'the record itself, to fix and put back');
    assert.equal(writer.pending, 0);
    assert.deepEqual(events('record.write_failed'), [], 'no batch failed: nothing was retried');
  });

  it('SQLite: a row the file itself refuses is found alone and set aside; the rest of its batch lands', async () => {
    const file = path.join(dir, 'games.sqlite');
    const store = await DiskStore.open(file, 'games');
    // A rule the record's columns pass but this file refuses (as a store of another version might).
    const db = new (await import('better-sqlite3')).default(file);
    db.exec(
      `CREATE TRIGGER refuse BEFORE INSERT ON games WHEN NEW.game_id = '${games[1].gameId}' BEGIN SELECT RAISE(ABORT, 'refused'); END`,
    );
    db.close();
    const writer = new RecordWriter(store, null, FAST).start();
    closing.push(() => writer.close({ diskMs: 10 }));
    const outcomes = await Promise.all(games.map((g) => writer.write(g)));
    assert.deepEqual(outcomes, ['stored', 'quarantined', 'stored', 'stored']);
    for (const i of [0, 2, 3]) assert.deepEqual(await store.get(games[i].gameId), copy(games[i]));
    assert.deepEqual(
      setAside(file).map((k) => [k.gameId, k.where, k.code]),
      [[games[1].gameId, 'disk', 'SQLITE_CONSTRAINT_TRIGGER']],
    );
  });

  describe('with PostgreSQL', () => {
    let pg: TestPostgres | null = null;
    before(async function () {
      pg = await requireTestPostgres(this);
    });
    after(async () => {
      await pg?.stop();
    });

    it('a row PostgreSQL refuses leaves the outbox for the quarantine; the rows around it are delivered', async () => {
      const file = path.join(dir, 'outbox.sqlite');
      const outbox = await DiskStore.open(file, 'outbox');
      // PostgreSQL text cannot hold a NUL character (22021); SQLite can: the outbox took it.
      const poisoned = { ...rowOf(games[1]), gameId: `${games[1].gameId}\u0000` };
      await outbox.put([rowOf(games[0]), poisoned, rowOf(games[2])]);
      const remote = (await openStore({ DATABASE_URL: pg!.url })) as PostgresStore;
      const before = await quarantined('postgres');
      const writer = new RecordWriter(outbox, remote, FAST).start();
      closing.push(() => writer.close({ diskMs: 10, deliveryMs: 10 }));
      // settled() may answer before the loop has counted what an earlier run left: ask the file.
      const deadline = Date.now() + 20_000;
      while ((await outbox.count()) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(await outbox.count(), 0, 'the outbox is no longer blocked');
      for (const i of [0, 2]) assert.deepEqual(await remote.get(games[i].gameId), copy(games[i]));
      assert.equal((await quarantined('postgres')) - before, 1);
      const kept = setAside(file);
      assert.deepEqual(
        kept.map((k) => [k.gameId, k.where, k.code]),
        [[poisoned.gameId, 'postgres', '22021']],
      );
      assert.deepEqual(JSON.parse(kept[0].row!.json), copy(games[1]));
      assert.equal(events('record.quarantined').length, 1);
    });
  });
});
