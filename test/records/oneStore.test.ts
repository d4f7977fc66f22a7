import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Issue 23: behind one address, round robin sent `GET /api/games/:id` to processes that each had
 * their own SQLite file (5×200, 5×404). Several processes now need one store: `npm start` with
 * REDIS_URL and no DATABASE_URL stops at start, saying what to set.
 */
describe('records: one place for records when there are several processes', function () {
  this.timeout(30000);

  it('`npm start` with REDIS_URL and no DATABASE_URL exits 1 before listening, naming DATABASE_URL', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'records-one-'));
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
      // Redis is never reached: the refusal comes first.
      env: {
        ...process.env,
        REDIS_URL: 'redis://127.0.0.1:1',
        PUBLIC_ADDRESS: '127.0.0.1:2567',
        DATABASE_URL: '',
        DATA_DIR: dir,
        PORT: '0',
        ALLOW_PER_PROCESS_RECORDS: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
    fs.rmSync(dir, { recursive: true, force: true });
    assert.equal(code, 1, out);
    const failed = out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l))
      .find((l) => l.event === 'start.failed');
    assert.ok(failed, out);
    assert.match(failed.errMessage ?? failed.msg ?? '', /DATABASE_URL/);
    assert.ok(!out.includes('"event":"listening"'), 'it never listened');
  });
});
