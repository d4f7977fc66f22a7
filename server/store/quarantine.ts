/**
 * Rows set aside: a record that cannot be serialized, whose columns are not what a store takes,
 * or that a database refuses on its own (a constraint, a value out of range) would otherwise fail
 * its whole batch at every retry and hold up every record behind it. It goes to a file of its own
 * in the quarantine folder beside the local database file (written by the disk worker, fsynced),
 * is counted and logged, and the rest goes on. Nothing in a quarantined file is served; an
 * operator reads it, fixes what is wrong, and puts it back (docs/operations.md "Game records").
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { inspect } from 'node:util';
import type { FinishedGameRecord } from '../fairness/record';
import type { QuarantineEntry, RecordRow } from './types';
import { rowOf } from './types';

export type { QuarantineEntry };

/** The quarantine folder of a local database file. */
export function quarantineDir(file: string): string {
  return path.join(path.dirname(file), 'quarantine');
}

/** A record's row, or the reason it cannot be one (code UNSERIALIZABLE or BAD_ROW). */
export function rowOrProblem(record: FinishedGameRecord): { row: RecordRow } | { problem: Omit<QuarantineEntry, 'where'> } {
  let row: RecordRow;
  try {
    row = rowOf(record);
  } catch (error) {
    return {
      problem: { gameId: String(record?.gameId), code: 'UNSERIALIZABLE', message: (error as Error).message, row: null, dump: dump(record) },
    };
  }
  const bad = badColumn(row);
  return bad === null ? { row } : { problem: { gameId: String(row.gameId), code: 'BAD_ROW', message: bad, row, dump: null } };
}

/** What no store takes: caught here, before it can fail a batch. */
function badColumn(row: RecordRow): string | null {
  if (typeof row.gameId !== 'string' || row.gameId === '') return 'gameId is not a non-empty string';
  if (!Number.isSafeInteger(row.startedMs)) return `startedAt is not a time (${row.startedMs})`;
  if (!Number.isSafeInteger(row.endedMs)) return `endedAt is not a time (${row.endedMs})`;
  if (typeof row.json !== 'string') return 'the record did not serialize to a string';
  return null;
}

/**
 * A database error that belongs to the row, not to the disk or the link: the row is tried alone
 * and set aside if it fails alone. SQLite: a constraint, a type, a size; PostgreSQL: SQLSTATE
 * classes 22 (data exception) and 23 (integrity constraint), and 54000 (a value too large).
 */
export function isRowError(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  if (typeof code !== 'string') return false;
  if (code.startsWith('SQLITE_CONSTRAINT') || code === 'SQLITE_TOOBIG' || code === 'SQLITE_MISMATCH') return true;
  return /^(2[23][0-9A-Z]{3}|54000)$/.test(code);
}

/** The record written down as JSON when it can be (bigints as text, cycles marked), else inspected. */
function dump(record: unknown): string {
  const seen = new WeakSet<object>();
  try {
    return JSON.stringify(record, (_, value: unknown) => {
      if (typeof value === 'bigint') return `${value}n`;
      if (value !== null && typeof value === 'object') {
        if (seen.has(value)) return '[Circular]';
        seen.add(value);
      }
      return value;
    });
  } catch {
    return inspect(record, { depth: 20, breakLength: Infinity });
  }
}

/** Writes each entry to a file of its own (the disk worker's side; synchronous, fsynced). */
export function writeQuarantine(dir: string, kind: string, entries: readonly QuarantineEntry[], nowMs = Date.now()): void {
  fs.mkdirSync(dir, { recursive: true });
  for (const entry of entries) {
    const id = createHash('sha256').update(String(entry.gameId)).digest('hex').slice(0, 16);
    const name = path.join(dir, `${kind}-${nowMs}-${id}.json`);
    const text = JSON.stringify({ quarantinedAt: new Date(nowMs).toISOString(), ...entry }, null, 2) + '\n';
    const fd = fs.openSync(`${name}.tmp`, 'w');
    try {
      fs.writeSync(fd, text);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(`${name}.tmp`, name);
  }
  const dirFd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(dirFd);
  } finally {
    fs.closeSync(dirFd);
  }
}
