import type { Room } from 'colyseus.js';
import type { CockroachState } from '../server/schema/CockroachState';
import { localError } from './errors';

/**
 * A join resolves before the full state arrives; a session starts from a decoded state. Kept
 * apart from client.ts and session.ts, which both need it, so neither requires the other at run
 * time (React Native's bundler warns on require cycles).
 */
export function firstState(room: Room<CockroachState>, ms = 10000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(localError('TIMEOUT', 'join')), ms);
    room.onStateChange.once(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
