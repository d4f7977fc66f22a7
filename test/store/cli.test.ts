import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStore } from '../../server/store/open';
import { copy, playGame } from '../fairness/games';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a CLI the way `npm run verify/replay` does (tsx), with its own environment. */
function cli(script: string, args: string[], env: Record<string, string> = {}, input?: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', path.join('server', 'cli', script), ...args],
      { env: { ...process.env, ...env } },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      },
    );
    if (input !== undefined) child.stdin!.end(input);
  });
}

describe('cli: npm run verify -- FILE, npm run replay -- GAME_ID', function () {
  this.timeout(60000);
  let dir: string;
  const { record } = playGame(4, { botSeed: 'cli' });
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cockroach-cli-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('verify prints ok and exits 0 for a real record, also from standard input', async () => {
    const file = path.join(dir, 'game.json');
    fs.writeFileSync(file, JSON.stringify(record, null, 2));
    assert.deepEqual(await cli('verify.ts', [file]), { code: 0, stdout: 'ok\n', stderr: '' });
    assert.deepEqual(await cli('verify.ts', ['-'], {}, JSON.stringify(record)), { code: 0, stdout: 'ok\n', stderr: '' });
  });

  it('verify exits 1 naming the first mismatch: a changed seed, a changed log entry, not JSON', async () => {
    const seed = copy(record);
    seed.fairness.serverSeed = 'ab'.repeat(32);
    const entry = copy(record);
    entry.log.splice(3, 1);
    const cases: [unknown, RegExp][] = [
      [seed, /^mismatch: commitment: /],
      [entry, /^mismatch: (log|result\.\w+|gameId): /],
      ['{ not json', /^mismatch: record: the file is not JSON/],
    ];
    for (const [content, expected] of cases) {
      const file = path.join(dir, 'bad.json');
      fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
      const run = await cli('verify.ts', [file]);
      assert.equal(run.code, 1);
      assert.match(run.stdout, expected);
    }
  });

  it('verify exits 2 without a readable file', async () => {
    assert.equal((await cli('verify.ts', [])).code, 2);
    assert.equal((await cli('verify.ts', [path.join(dir, 'missing.json')])).code, 2);
  });

  it('replay finds a stored game in the configured database, prints the result and ok; unknown ids exit 1', async () => {
    const env = { DATA_DIR: path.join(dir, 'data') };
    const store = await openStore(env);
    await store.save(record);
    await store.close();
    const run = await cli('replay.ts', [record.gameId], env);
    assert.equal(run.code, 0, run.stderr);
    assert.ok(run.stdout.endsWith('ok\n'));
    const printed = JSON.parse(run.stdout.slice(0, run.stdout.lastIndexOf('}') + 1));
    assert.deepEqual(printed.result, JSON.parse(JSON.stringify(record.result)));
    const unknown = await cli('replay.ts', ['0'.repeat(64)], env);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stdout, /^no game 0{64} in sqlite /);
    assert.equal((await cli('replay.ts', ['not-an-id'], env)).code, 2);
  });
});
