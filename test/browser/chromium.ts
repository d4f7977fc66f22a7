import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/**
 * Debian's `chromium` package, found on PATH (nothing here downloads a browser). Null when it
 * is not installed; the caller fails under CI and skips elsewhere.
 */
export function findChromium(): string | null {
  try {
    const found = execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim();
    return found && fs.existsSync(found) ? found : null;
  } catch {
    return null;
  }
}
