import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const made: string[] = [];

/**
 * A fresh directory in the system temp folder, removed when the test process exits. At exit
 * rather than when its test ends: a server's worker or a child process may still hold files in it
 * until its own close, and a test that failed half-way never reaches its own cleanup.
 */
export function tempDir(prefix: string): string {
  if (made.length === 0) process.once('exit', removeAll);
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

function removeAll(): void {
  for (const dir of made.splice(0)) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // Exiting anyway: a directory that cannot be removed must not change the exit code.
    }
  }
}
