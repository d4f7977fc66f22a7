import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { activePlayer, randomLegalAction, seedRng } from '../../server/rules';
import { sha256Hex, verifyRecord } from '../../server/fairness';
import { bootTestServer, TestServer } from '../support/server';
import { tempDir } from '../support/tempDirs';
import { openTable, startTable, syncAndCheck } from '../support/table';
import { requireTestPostgres, TestPostgres } from '../store/pgCluster';

function verifyCli(file: string): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', path.join('server', 'cli', 'verify.ts'), file], (error, stdout) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout });
    });
  });
}

async function fetchRecord(ts: TestServer, gameId: string) {
  const res = await fetch(`http://127.0.0.1:${ts.server.port}/api/games/${gameId}`);
  // The record is untyped JSON from the wire; the checks below read it field by field.
  return { status: res.status, body: (await res.json()) as any };
}

/**
 * Issue 15's acceptance, end to end over real sockets: the game's record fetched over HTTP
 * checks out (commitment, derivation, replay) with `npm run verify`, a tampered copy does not,
 * and the record outlives a restart. Once on the embedded SQLite file, once on PostgreSQL.
 */
function recordsSuite(engine: string, envFor: () => Record<string, string | undefined>) {
  it(`${engine}: a finished game's record is served, verifiable, tamper-evident and kept over a restart`, async () => {
    const env = envFor();
    let ts = await bootTestServer({}, env);
    try {
      const table = await openTable(ts, 3);
      const commitment = table.players[1].state.fairness.commitment;
      assert.match(commitment, /^[0-9a-f]{64}$/);
      await startTable(table);
      assert.equal(table.spectator.state.fairness.serverSeed, '', 'no secret while playing');
      const game = table.room.table.match!.game;
      const rng = seedRng(`records-${engine}`);
      while (game.phase === 'playing') {
        const id = activePlayer(game)!;
        const { type, ...payload } = randomLegalAction(game, id, rng)!;
        const step = game.step;
        table.byId(id).room.send(type, { ...payload, step });
        await table.players[0].until(() => game.step > step, 'applied');
      }
      await syncAndCheck(table);
      const result = await table.spectator
        .until(() => table.spectator.messagesOf('result').length === 1, 'result')
        .then(() => table.spectator.messagesOf('result')[0]);
      assert.equal(
        sha256Hex(table.spectator.state.fairness.serverSeed),
        commitment,
        'the revealed secret matches the commitment shown before the game',
      );

      const { status, body: record } = await fetchRecord(ts, result.gameId);
      assert.equal(status, 200);
      assert.deepEqual(record.result, result, 'the record holds the result everyone got');
      assert.equal(record.fairness.commitment, commitment);
      assert.deepEqual(verifyRecord(record), { ok: true });
      assert.equal(Object.hasOwn(record, 'roomId'), false, 'a record admits nobody: no room id');
      assert.ok(!JSON.stringify(record).includes(table.room.roomId), 'nor the room id anywhere else');
      assert.ok(record.log.length === game.step && record.players.length === 3);

      const dir = tempDir('cockroach-verify-');
      const good = path.join(dir, 'game.json');
      writeFileSync(good, JSON.stringify(record));
      const ok = await verifyCli(good);
      assert.deepEqual({ code: ok.code, out: ok.stdout.trim() }, { code: 0, out: 'ok' });
      const changedLog = structuredClone(record);
      const entry = changedLog.log.find((e: { action: { type: string } }) => e.action.type === 'call') ?? changedLog.log[0];
      if (entry.action.type === 'call') entry.action.call = entry.action.call === 'true' ? 'false' : 'true';
      else entry.auto = !entry.auto;
      writeFileSync(path.join(dir, 'log.json'), JSON.stringify(changedLog));
      assert.equal((await verifyCli(path.join(dir, 'log.json'))).code, 1, 'one changed log entry is refused');
      const changedSeed = structuredClone(record);
      changedSeed.fairness.serverSeed = changedSeed.fairness.serverSeed.replace(/^./, (c: string) => (c === '0' ? '1' : '0'));
      writeFileSync(path.join(dir, 'seed.json'), JSON.stringify(changedSeed));
      const refused = await verifyCli(path.join(dir, 'seed.json'));
      assert.equal(refused.code, 1, 'a changed seed is refused');
      assert.match(refused.stdout + '', /commitment/);

      assert.equal((await fetchRecord(ts, 'f'.repeat(64))).status, 404, 'an unknown id');
      assert.equal((await fetchRecord(ts, 'nope')).status, 404, 'a malformed id');
      for (const c of [...table.players, table.spectator]) await c.leave();

      await ts.server.close();
      ts = await bootTestServer({}, env);
      const again = await fetchRecord(ts, result.gameId);
      assert.equal(again.status, 200, 'the record survives a restart');
      assert.deepEqual(again.body, record);
    } finally {
      await ts.server.close();
    }
  });
}

describe('records: every finished game on record, checkable by anyone', function () {
  this.timeout(90000);
  recordsSuite('SQLite (embedded default)', () => ({ DATA_DIR: tempDir('cockroach-records-e2e-') }));

  describe('with DATABASE_URL', function () {
    let pg: TestPostgres | null = null;
    before(async function () {
      pg = await requireTestPostgres(this);
    });
    after(async () => {
      await pg?.stop();
    });
    recordsSuite('PostgreSQL', () => ({ DATABASE_URL: pg!.url }));
  });
});
