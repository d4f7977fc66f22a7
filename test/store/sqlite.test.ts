import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { storeConfigFromEnv } from '../../server/store/config';
import { openStore } from '../../server/store/open';
import type { DiskStore } from '../../server/store/disk';
import { checkMigrationFromVersion1, storeContract } from './contract';

describe('store: SQLite (embedded default)', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cockroach-sqlite-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  describe('contract', () => {
    storeContract(() => ({
      open: () => openStore({ DATA_DIR: path.join(dir, 'nested', 'data') }),
      appliedVersions: (store) => (store as DiskStore).appliedVersions(),
      addFutureVersion: async () => {
        const db = new Database(path.join(dir, 'nested', 'data', 'games.sqlite'));
        db.prepare('INSERT INTO schema_migrations (version, name, applied_ms) VALUES (999, ?, 0)').run('future');
        db.close();
      },
    }));
  });

  it('migrates a database of the previous version: old rows with their room stay readable, new rows have none', async () => {
    const file = path.join(dir, 'legacy', 'games.sqlite');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const db = new Database(file);
    try {
      await checkMigrationFromVersion1(
        async (sql, params) => void (params ? db.prepare(sql).run(...params) : db.exec(sql)),
        'sqlite',
        () => openStore({ DATABASE_FILE: file }),
      );
    } finally {
      db.close();
    }
  });

  it('creates the data folder and games.sqlite in it, or the file DATABASE_FILE names', async () => {
    const store = await openStore({ DATA_DIR: path.join(dir, 'fresh') });
    await store.close();
    assert.ok(fs.existsSync(path.join(dir, 'fresh', 'games.sqlite')));
    const file = path.join(dir, 'elsewhere', 'records.db');
    const named = await openStore({ DATABASE_FILE: file, DATA_DIR: path.join(dir, 'ignored') });
    assert.equal(named.engine, 'sqlite');
    await named.close();
    assert.ok(fs.existsSync(file));
    assert.equal(fs.existsSync(path.join(dir, 'ignored')), false);
  });
});

describe('store: configuration from the environment', () => {
  const tuning = { retentionDays: 30, retryMinMs: 250, retryMaxMs: 30_000, exitDeliverySeconds: 10, fileCheckMs: 5000 };

  it('defaults to SQLite in ./data with 30 days of retention', () => {
    assert.deepEqual(storeConfigFromEnv({}), {
      engine: 'sqlite',
      file: path.join('data', 'games.sqlite'),
      url: null,
      outboxFile: null,
      ...tuning,
    });
  });

  it('uses PostgreSQL when DATABASE_URL is set, with the outbox in DATA_DIR', () => {
    const c = storeConfigFromEnv({
      DATABASE_URL: 'postgresql://u:p@db:5432/games',
      RECORD_RETENTION_DAYS: '90',
      DATABASE_FILE: '/x',
      DATA_DIR: '/var/lib/cockroach',
    });
    assert.deepEqual(c, {
      engine: 'postgres',
      file: null,
      url: 'postgresql://u:p@db:5432/games',
      outboxFile: '/var/lib/cockroach/outbox.sqlite',
      ...tuning,
      retentionDays: 90,
    });
  });

  it('reads the retry, exit delivery and file check settings', () => {
    const c = storeConfigFromEnv({
      RECORD_RETRY_MIN_MS: '20',
      RECORD_RETRY_MAX_MS: '200',
      RECORD_EXIT_DELIVERY_SECONDS: '0',
      RECORD_FILE_CHECK_MS: '100',
    });
    assert.deepEqual([c.retryMinMs, c.retryMaxMs, c.exitDeliverySeconds, c.fileCheckMs], [20, 200, 0, 100]);
    for (const [name, bad] of [
      ['RECORD_RETRY_MIN_MS', '0'],
      ['RECORD_RETRY_MAX_MS', '100'], // below the default minimum, 250
      ['RECORD_EXIT_DELIVERY_SECONDS', '601'],
      ['RECORD_FILE_CHECK_MS', '1.5'],
    ]) {
      assert.throws(() => storeConfigFromEnv({ [name]: bad }), new RegExp(name));
    }
  });

  it('with several processes (REDIS_URL), refuses per-process SQLite unless ALLOW_PER_PROCESS_RECORDS=1: records need one place', () => {
    assert.throws(
      () => storeConfigFromEnv({}, { multiProcess: true }),
      (e: Error) => /REDIS_URL/.test(e.message) && /DATABASE_URL/.test(e.message) && /ALLOW_PER_PROCESS_RECORDS=1/.test(e.message),
    );
    assert.equal(storeConfigFromEnv({ DATABASE_URL: 'postgresql://db/games' }, { multiProcess: true }).engine, 'postgres');
    assert.equal(storeConfigFromEnv({ ALLOW_PER_PROCESS_RECORDS: '1' }, { multiProcess: true }).engine, 'sqlite');
    assert.throws(() => storeConfigFromEnv({ ALLOW_PER_PROCESS_RECORDS: 'yes' }, { multiProcess: true }), /must be 0 or 1/);
    assert.throws(() => storeConfigFromEnv({ ALLOW_PER_PROCESS_RECORDS: '0' }, { multiProcess: true }), /DATABASE_URL/);
    assert.equal(storeConfigFromEnv({}).engine, 'sqlite', 'one process: the embedded default');
  });

  it('refuses wrong values, naming the variable and never echoing the URL', () => {
    for (const days of ['0', '-1', '1.5', 'x', '40000']) {
      assert.throws(() => storeConfigFromEnv({ RECORD_RETENTION_DAYS: days }), /RECORD_RETENTION_DAYS/);
    }
    assert.throws(
      () => storeConfigFromEnv({ DATABASE_URL: 'mysql://u:secret@db/x' }),
      (e: Error) => /DATABASE_URL must be a postgres/.test(e.message) && !e.message.includes('secret'),
    );
  });
});
