/**
 * The disk worker: a thread of its own that owns the local SQLite file (better-sqlite3 is
 * synchronous; here its waits — fsync, a lock held by another process — hold up no game).
 * It answers one request at a time from disk.ts. Before and after every write it checks that
 * the path still names the file it has open; a file deleted or replaced under it is reopened
 * (created and migrated if need be) and every row the old connection can still read is copied
 * in, so nothing written before the loss is lost with it. Events go back with each answer.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { QuarantineEntry, quarantineDir, writeQuarantine } from './quarantine';
import { FileKind, FileLoss, SqliteFile } from './sqliteFile';
import type { RecordRow } from './types';

export interface DiskWorkerData {
  file: string;
  kind: FileKind;
  busyTimeoutMs: number;
}

export type FileEvent =
  | { type: 'lost'; why: FileLoss }
  | { type: 'recovered'; why: FileLoss; salvaged: number; salvageError?: string }
  | { type: 'recovery_failed'; why: FileLoss; message: string };

export type DiskRequest =
  | { id: number; op: 'open' | 'count' | 'check' | 'versions' | 'close' }
  | { id: number; op: 'put'; rows: RecordRow[]; addedMs: number }
  | { id: number; op: 'get'; gameId: string }
  | { id: number; op: 'list'; limit: number }
  | { id: number; op: 'remove'; gameIds: string[] }
  | { id: number; op: 'quarantine'; entries: QuarantineEntry[] }
  | { id: number; op: 'expire'; cutoffMs: number };

export type DiskReply =
  | { id: number; ok: true; value: unknown; events: FileEvent[] }
  | { id: number; ok: false; message: string; code: string | null; events: FileEvent[] };

const { file, kind, busyTimeoutMs } = workerData as DiskWorkerData;
let current: SqliteFile | null = null;
/** Set from the moment a loss is noticed until the file at the path is ours again. */
let lostWhy: FileLoss | null = null;

class FileLost extends Error {
  readonly code = 'FILE_LOST';
}

/** Makes `current` the file at the path, recovering a lost one; throws while it cannot. */
function ensure(events: FileEvent[]): SqliteFile {
  if (!current) return (current = new SqliteFile(file, kind, busyTimeoutMs));
  const why = current.lost();
  if (why === null) {
    if (lostWhy !== null) events.push({ type: 'recovered', why: lostWhy, salvaged: 0 }); // put back as it was
    lostWhy = null;
    return current;
  }
  if (lostWhy === null) {
    lostWhy = why;
    events.push({ type: 'lost', why });
  }
  let fresh: SqliteFile;
  try {
    fresh = new SqliteFile(file, kind, busyTimeoutMs);
  } catch (error) {
    events.push({ type: 'recovery_failed', why: lostWhy, message: (error as Error).message });
    throw new FileLost(`the database file ${file} is gone and cannot be made again: ${(error as Error).message}`);
  }
  const event: FileEvent = { type: 'recovered', why: lostWhy, salvaged: 0 };
  try {
    event.salvaged = current.salvageInto(fresh);
  } catch (error) {
    event.salvageError = (error as Error).message;
  }
  current.close();
  current = fresh;
  lostWhy = null;
  events.push(event);
  return current;
}

/** For reads and the outbox's own bookkeeping: the old connection still serves while recovery fails. */
function usable(events: FileEvent[]): SqliteFile {
  try {
    return ensure(events);
  } catch (error) {
    if (current) return current;
    throw error;
  }
}

function handle(request: DiskRequest, events: FileEvent[]): unknown {
  switch (request.op) {
    case 'open':
      ensure(events);
      return null;
    case 'put': {
      const added = ensure(events).put(request.rows, request.addedMs);
      // Deleted between the check and the commit: the recovery copies these rows too.
      if (current!.lost() !== null) ensure(events);
      return added;
    }
    case 'get':
      return usable(events).get(request.gameId);
    case 'list':
      return usable(events).list(request.limit);
    case 'remove':
      return usable(events).remove(request.gameIds);
    case 'expire':
      return ensure(events).expire(request.cutoffMs);
    case 'count':
      return usable(events).count();
    case 'quarantine':
      writeQuarantine(quarantineDir(file), kind, request.entries);
      return null;
    case 'versions':
      return usable(events).appliedVersions();
    case 'check':
      ensure(events);
      return null;
    case 'close':
      current?.close();
      current = null;
      return null;
  }
}

parentPort!.on('message', (request: DiskRequest) => {
  const events: FileEvent[] = [];
  let reply: DiskReply;
  try {
    reply = { id: request.id, ok: true, value: handle(request, events), events };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    reply = { id: request.id, ok: false, message: (error as Error).message, code: typeof code === 'string' ? code : null, events };
  }
  parentPort!.postMessage(reply);
});
