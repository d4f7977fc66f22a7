import assert from 'node:assert/strict';
import { Client } from 'pg';
import { openStore } from '../../server/store/open';
import { PostgresStore } from '../../server/store/postgres';
import { checkMigrationFromVersion1, storeContract } from './contract';
import { playGame } from '../fairness/games';
import { requireTestPostgres, TestPostgres } from './pgCluster';

/** Against a throwaway cluster; skipped without PostgreSQL, except under CI, where it fails. */
describe('store: PostgreSQL (DATABASE_URL)', function () {
  this.timeout(60000);
  let pg: TestPostgres | null = null;
  before(async function () {
    pg = await requireTestPostgres(this);
  });
  after(async () => {
    await pg?.stop();
  });

  describe('contract', () => {
    storeContract(() => ({
      open: () => openStore({ DATABASE_URL: pg!.url }),
      appliedVersions: (store) => (store as PostgresStore).appliedVersions(),
      addFutureVersion: async () => {
        const client = new Client({ connectionString: pg!.url });
        await client.connect();
        await client.query("INSERT INTO schema_migrations (version, name, applied_ms) VALUES (999, 'future', 0)");
        await client.end();
      },
    }));
  });

  it('migrates a database of the previous version: old rows with their room stay readable, new rows have none', async () => {
    const admin = new Client({ connectionString: pg!.url });
    await admin.connect();
    await admin.query('CREATE DATABASE legacy');
    await admin.end();
    const url = pg!.url.replace(/\/postgres$/, '/legacy');
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      await checkMigrationFromVersion1(
        async (sql, params) => void (await client.query(sql, params)),
        'postgres',
        () => openStore({ DATABASE_URL: url }),
      );
    } finally {
      await client.end();
    }
  });

  it('migrates once when several processes open the database at the same moment', async () => {
    const client = new Client({ connectionString: pg!.url });
    await client.connect();
    await client.query('DROP TABLE IF EXISTS games; DROP TABLE IF EXISTS schema_migrations');
    const stores = await Promise.all(Array.from({ length: 4 }, () => openStore({ DATABASE_URL: pg!.url })));
    const { rows } = await client.query('SELECT version FROM schema_migrations ORDER BY version');
    assert.deepEqual(rows, [{ version: 1 }, { version: 2 }]);
    const { record } = playGame(3, { botSeed: 'pg-concurrent' });
    await Promise.all(stores.map((s) => s.save(record)));
    assert.equal((await client.query('SELECT count(*)::int AS n FROM games')).rows[0].n, 1);
    await Promise.all(stores.map((s) => s.close()));
    await client.end();
  });

  it('a database that comes back without our schema (restored, recreated) is migrated again: the failed write is retried into it', async () => {
    const client = new Client({ connectionString: pg!.url });
    await client.connect();
    const store = await openStore({ DATABASE_URL: pg!.url });
    try {
      const first = playGame(2, { botSeed: 'pg-schema-1' }).record;
      await store.save(first);
      await client.query('DROP TABLE games; DROP TABLE schema_migrations');
      const second = playGame(2, { botSeed: 'pg-schema-2' }).record;
      await assert.rejects(store.save(second), (error: { code?: string }) => error.code === '42P01');
      await store.save(second); // the writer's retry
      assert.equal((await store.get(second.gameId))?.gameId, second.gameId);
      const { rows } = await client.query('SELECT version FROM schema_migrations ORDER BY version');
      assert.deepEqual(rows, [{ version: 1 }, { version: 2 }]);
    } finally {
      await store.close();
      await client.end();
    }
  });

  it('rejects (for the writer to retry) instead of hanging: an unreachable server, a closed pool', async () => {
    await assert.rejects(openStore({ DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/postgres' }), /ECONNREFUSED/);
    const store = await openStore({ DATABASE_URL: pg!.url });
    await store.close();
    await assert.rejects(store.save(playGame(2, { botSeed: 'pg-closed' }).record));
  });
});
