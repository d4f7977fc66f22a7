/**
 * Colyseus's process load figures, for server/ops/ (cluster.ts's beat, scale.ts's placement):
 * `matchMaker.stats` of @colyseus/core 0.15.57 (Stats.js; exported, undocumented). `local` counts
 * this process's rooms and connections; `fetchAll` reads every process's `roomcount` entry (this
 * process's own from `local`). Breaks if Stats.js renames them (a TypeError at each beat and each
 * placement: test/ops/multiprocess.test.ts, which places rooms on the least loaded process,
 * fails); the version check (versions.ts) refuses to start on any other version.
 */
import { matchMaker } from 'colyseus';
import { roomCountEntry } from './redisKeys';

export interface ProcessLoad {
  processId: string;
  roomCount: number;
  ccu: number;
}

/** This process's rooms and connections now. */
export function localLoad(): { rooms: number; clients: number } {
  return { rooms: matchMaker.stats.local.roomCount, clients: matchMaker.stats.local.ccu };
}

/** This process's `roomcount` entry, as Colyseus writes it. */
export function localRoomCountEntry(): string {
  const { rooms, clients } = localLoad();
  return roomCountEntry(rooms, clients);
}

/** Every process Colyseus counts rooms for, with its load (one HGETALL in Redis mode). */
export function processLoads(): Promise<ProcessLoad[]> {
  return matchMaker.stats.fetchAll();
}
