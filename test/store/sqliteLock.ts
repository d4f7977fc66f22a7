// Another process holding a SQLite file's write lock (BEGIN IMMEDIATE), as a backup tool or a
// stuck script would, until release().
import { spawn } from 'node:child_process';

export interface HeldLock {
  release(): Promise<void>;
}

const SCRIPT = `
const db = new (require('better-sqlite3'))(process.argv[1]);
db.exec('BEGIN IMMEDIATE');
process.stdout.write('locked\\n');
process.stdin.once('data', () => { db.exec('COMMIT'); db.close(); process.exit(0); });
`;

export async function holdWriteLock(file: string): Promise<HeldLock> {
  const child = spawn(process.execPath, ['-e', SCRIPT, file], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('locked') && resolve());
    void exited.then((code) => reject(new Error(`the lock holder exited (${code})`)));
  });
  return {
    release: async () => {
      child.stdin!.write('release\n');
      assert(await exited);
    },
  };
}

function assert(code: number | null): void {
  if (code !== 0) throw new Error(`the lock holder failed (${code})`);
}
