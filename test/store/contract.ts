// The behaviour every GameStore must have, run against SQLite and PostgreSQL alike.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { verifyRecord } from '../../server/fairness/verify';
import type { FinishedGameRecord } from '../../server/fairness/record';
import { setLogLevel, setLogSink } from '../../server/base/log';
import { DAY_MS, startRetention } from '../../server/store/retention';
import { MIGRATIONS } from '../../server/store/migrations';
import { GameStore, rowOf } from '../../server/store/types';
import { copy, playGame } from '../fairness/games';

export interface StoreUnderTest {
  /** Opens the same database each time. */
  open(): Promise<GameStore>;
  appliedVersions(store: GameStore): Promise<number[]>;
  /** Marks the database as migrated by a newer server. */
  addFutureVersion(store: GameStore): Promise<void>;
}

/** A real played game whose end time is `endedAt` (so it has its own id). */
export function recordEndedAt(endedAt: number, players = 3): FinishedGameRecord {
  const { record } = playGame(players, { botSeed: `store-${endedAt}` });
  return { ...record, endedAt: new Date(endedAt).toISOString() } as FinishedGameRecord;
}

/** A record made before PROTOCOL v3: it names its room, and its gameId hashes that. */
export function recordWithRoomId(): FinishedGameRecord {
  return JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'fairness', 'fixtures', 'record-with-roomId.json'), 'utf8'));
}

/**
 * A database left by the previous version (schema 1, `room_id NOT NULL`) with one old row,
 * opened by this one: the row stays readable, new records go in without a room.
 */
export async function checkMigrationFromVersion1(
  exec: (sql: string, params?: unknown[]) => Promise<void>,
  sql: 'sqlite' | 'postgres',
  open: () => Promise<GameStore>,
): Promise<void> {
  const old = recordWithRoomId();
  await exec(MIGRATIONS[0][sql]);
  await exec(
    sql === 'sqlite'
      ? 'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_ms INTEGER NOT NULL)'
      : 'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_ms BIGINT NOT NULL)',
  );
  await exec("INSERT INTO schema_migrations (version, name, applied_ms) VALUES (1, 'games', 0)");
  const row = rowOf(old);
  await exec(
    sql === 'sqlite'
      ? 'INSERT INTO games (game_id, room_id, started_ms, ended_ms, record) VALUES (?, ?, ?, ?, ?)'
      : 'INSERT INTO games (game_id, room_id, started_ms, ended_ms, record) VALUES ($1, $2, $3, $4, $5)',
    [row.gameId, old.roomId, row.startedMs, row.endedMs, row.json],
  );
  const store = await open();
  try {
    const back = await store.get(old.gameId);
    assert.deepEqual(back, old);
    assert.equal(back?.roomId, 'room1234');
    assert.deepEqual(verifyRecord(back), { ok: true }, 'an old record still verifies: its id hashes its room');
    const { record } = playGame(3, { botSeed: 'after-migration' });
    assert.equal('roomId' in record, false);
    await store.save(record);
    assert.deepEqual(await store.get(record.gameId), copy(record));
  } finally {
    await store.close();
  }
  // The previous version, still running during a deploy, can go on writing rows with a room.
  await exec(
    sql === 'sqlite'
      ? 'INSERT INTO games (game_id, room_id, started_ms, ended_ms, record) VALUES (?, ?, ?, ?, ?)'
      : 'INSERT INTO games (game_id, room_id, started_ms, ended_ms, record) VALUES ($1, $2, $3, $4, $5)',
    ['f'.repeat(64), 'room5678', row.startedMs, row.endedMs, row.json],
  );
}

export function storeContract(subject: () => StoreUnderTest): void {
  let store: GameStore;
  before(async () => {
    store = await subject().open();
  });
  after(async () => {
    await store?.close();
  });

  it('saves a record and gets back the same record, which still verifies', async () => {
    const { record } = playGame(4, { botSeed: 'contract-save' });
    await store.save(record);
    const back = await store.get(record.gameId);
    assert.deepEqual(back, copy(record));
    assert.deepEqual(verifyRecord(back), { ok: true });
  });

  it('gets null for an unknown id', async () => {
    assert.equal(await store.get('0'.repeat(64)), null);
  });

  it('keeps the first record when the same id is saved again (a retry is harmless)', async () => {
    const { record } = playGame(2, { botSeed: 'contract-twice' });
    await store.save(record);
    const changed = copy(record);
    changed.players[0].nickname = 'other';
    await store.save(changed);
    assert.equal((await store.get(record.gameId))?.players[0].nickname, record.players[0].nickname);
  });

  it('deletes only records whose game ended longer ago than the age, and retention sweeps with the configured days', async () => {
    // An hour after the other tests' games ended (playGame ends them at 2026-01-01 12:09:30Z).
    const now = Date.UTC(2026, 0, 1, 13, 10);
    const old = recordEndedAt(now - 31 * DAY_MS);
    const edge = recordEndedAt(now - 29 * DAY_MS);
    const fresh = recordEndedAt(now - 1000);
    for (const r of [old, edge, fresh]) await store.save(r);
    assert.equal(await store.deleteOlderThan(30 * DAY_MS, now), 1);
    assert.equal(await store.get(old.gameId), null);
    assert.ok(await store.get(edge.gameId));

    const lines: string[] = [];
    setLogSink((line) => lines.push(line));
    setLogLevel('info'); // records.expired is an info line; an earlier test server may have set warn
    const retention = startRetention(store, 7, { now: () => now, intervalMs: 3_600_000 });
    try {
      // The sweep at start and this one never overlap: this waits for it or runs after it.
      await retention.sweep();
      assert.equal(await store.get(edge.gameId), null);
      assert.ok(await store.get(fresh.gameId));
    } finally {
      retention.stop();
      setLogSink(null);
      setLogLevel('warn');
    }
    const expired = lines.map((l) => JSON.parse(l)).filter((l) => l.event === 'records.expired');
    assert.deepEqual(
      expired.map((l) => [l.deleted, l.retentionDays]),
      [[1, 7]],
    );
  });

  it('keeps records and applies each migration once across a restart', async () => {
    const { record } = playGame(5, { botSeed: 'contract-restart' });
    await store.save(record);
    const before = await subject().appliedVersions(store);
    assert.deepEqual(before, [1, 2]);
    await store.close();
    store = await subject().open();
    assert.deepEqual(await store.get(record.gameId), copy(record));
    assert.deepEqual(await subject().appliedVersions(store), before);
  });

  it('refuses to open a database migrated by a newer server', async () => {
    await subject().addFutureVersion(store);
    await store.close();
    await assert.rejects(subject().open(), /schema version 999, newer than this server knows/);
    store = null as unknown as GameStore;
  });
}
