import type { EventEmitter } from 'node:events';
import { log } from './log';

/** What operations read from a room of this process (structural: no import of the room). */
export interface OpsRoom {
  roomId: string;
  state?: { phase: string };
  clients: { length: number };
  spectators: { readonly size: number };
  broadcast(type: string, message: unknown): void;
  disconnect(closeCode?: number): Promise<unknown>;
  /** Colyseus's listing of the room (what the driver keeps in Redis); `roomId` is set once created. */
  listing?: { roomId?: string; processId?: string; save(): Promise<unknown> };
}

/** The rooms living in this process (not the cluster's: the listing in the driver has those). */
export const localRooms = new Set<OpsRoom>();
const byId = new Map<string, OpsRoom>();

/** A room of this process by id (a Map: a client-given `__proto__` is just an unknown id). */
export function localRoomById(roomId: string): OpsRoom | undefined {
  return byId.get(roomId);
}

/** Follows the rooms of one room type through Colyseus's handler events ('create', 'dispose'). */
export function trackRooms(handler: EventEmitter): void {
  localRooms.clear();
  byId.clear();
  handler.on('create', (room: OpsRoom) => {
    localRooms.add(room);
    byId.set(room.roomId, room);
    log.info('room.created', { roomId: room.roomId });
  });
  handler.on('dispose', (room: OpsRoom) => {
    localRooms.delete(room);
    if (byId.get(room.roomId) === room) byId.delete(room.roomId);
    log.info('room.disposed', { roomId: room.roomId });
  });
}

export function roomsInPhase(phase: string): OpsRoom[] {
  return [...localRooms].filter((room) => room.state?.phase === phase);
}
