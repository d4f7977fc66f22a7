import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** 256 bits: HS256's own strength. */
const KEY_BYTES = 32;

/**
 * The server's own key for guest tokens, kept with its data so guest identities survive a
 * restart. Created on first start: 32 random bytes, base64 in a file of mode 0600 in a directory
 * of mode 0700 when the server creates it. Two processes starting at once on one DATA_DIR agree
 * on one key (the file is created exclusively; the loser reads the winner's). Processes on
 * separate disks share their keys through Redis (./guestFleet.ts); without Redis each process
 * accepts only its own tokens. Returns the key, whether this start created it, and, when the
 * file is readable by others, a warning.
 */
export function loadOrCreateGuestKey(file: string): { key: Uint8Array; created: boolean; warning?: string } {
  const existing = read(file);
  if (existing) return { ...existing, created: false };
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const fresh = randomBytes(KEY_BYTES);
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(temp, fresh.toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
  try {
    // link() fails when the file exists: whoever linked first wins, everyone reads the same key.
    fs.linkSync(temp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    fs.rmSync(temp, { force: true });
  }
  const created = read(file);
  if (!created) throw new Error(`the guest key file ${file} could not be read back`);
  return { ...created, created: true };
}

function read(file: string): { key: Uint8Array; warning?: string } | null {
  let text: string;
  let mode: number;
  try {
    text = fs.readFileSync(file, 'utf8');
    mode = fs.statSync(file).mode;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`the guest key file ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length < KEY_BYTES || !/^[A-Za-z0-9+/]+=*$/.test(text.trim()))
    throw new Error(`the guest key file ${file} is not a key this server wrote: move it away to start with a new one`);
  const warning = (mode & 0o077) !== 0 ? `the guest key file ${file} is readable by others: chmod 600 it` : undefined;
  return { key: new Uint8Array(key), warning };
}
