import assert from 'node:assert/strict';
import { spawn, ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { ROOM_CODE } from '../../server/room/roomCode';
import { requireTestRedis, TestRedis } from './support';

/** One code-allocating process (test/ops/fixtures/codeWorker.ts), answering one JSON line per command. */
class Worker {
  private readonly answers: ((line: string) => void)[] = [];
  readonly exited: Promise<void>;
  constructor(readonly child: ChildProcess) {
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('{"time"')) return; // a log line
      this.answers.shift()?.(line);
    });
    child.stderr!.on('data', (d) => process.stderr.write(`[worker] ${d}`));
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
  }
  next<T>(): Promise<T> {
    return new Promise((resolve) => this.answers.push((line) => resolve(JSON.parse(line) as T)));
  }
  ask<T>(command: string): Promise<T> {
    const answer = this.next<T>();
    this.child.stdin!.write(command + '\n');
    return answer;
  }
}

function startWorker(url: string, processId: string, space: number): Worker {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'fixtures', 'codeWorker.ts')], {
    cwd: path.resolve(__dirname, '..', '..'),
    env: { ...process.env, REDIS_URL: url, PROCESS_ID: processId, SPACE: String(space), LOG_LEVEL: 'warn' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  return new Worker(child);
}

/**
 * Two processes on one Redis allocate room codes at once from a small space (1,000 codes, so
 * they collide all the time): no code is ever held twice, and codes one process released stay
 * quarantined for the other.
 */
describe('room codes: two processes on one Redis', function () {
  this.timeout(60000);
  let redis: TestRedis | null = null;
  const workers: Worker[] = [];

  before(async function () {
    redis = await requireTestRedis(this);
  });
  after(async () => {
    for (const w of workers) w.child.stdin!.end();
    await Promise.all(workers.map((w) => w.exited));
    await redis?.stop();
  });

  it('never hands out one code twice, and keeps released codes out for the quarantine', async () => {
    const space = 1000;
    const [a, b] = ['procA', 'procB'].map((id) => startWorker(redis!.url, id, space));
    workers.push(a, b);
    await Promise.all([a.next(), b.next()]); // ready

    type Allocated = { codes: string[]; busy: number };
    const [first, second] = await Promise.all([a.ask<Allocated>('allocate 300'), b.ask<Allocated>('allocate 300')]);
    const both = [...first.codes, ...second.codes];
    assert.equal(first.busy + second.busy, 0, 'room for all 600');
    assert.equal(both.length, 600);
    assert.equal(new Set(both).size, 600, 'no code held by both');
    for (const code of both) assert.match(code, ROOM_CODE);

    assert.deepEqual(await a.ask('release'), { released: 300 });
    // 300 live (b's), 300 quarantined (a's), 400 free: both ask for more than is left.
    const [third, fourth] = await Promise.all([a.ask<Allocated>('allocate 250'), b.ask<Allocated>('allocate 250')]);
    const more = [...third.codes, ...fourth.codes];
    assert.equal(new Set(more).size, more.length, 'no code twice');
    const released = new Set(first.codes);
    assert.deepEqual(
      more.filter((c) => released.has(c)),
      [],
      'no quarantined code handed out',
    );
    assert.deepEqual(
      more.filter((c) => second.codes.includes(c)),
      [],
      'no live code handed out',
    );
    assert.ok(more.length >= 360 && more.length <= 400, `most of the 400 free codes: ${more.length}`);
    assert.equal(third.busy + fourth.busy, 500 - more.length, 'the rest refused (SERVER_BUSY)');
  });
});
