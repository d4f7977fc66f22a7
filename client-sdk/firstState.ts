import type { Room } from 'colyseus.js';
import { SERVER_MESSAGES } from '../server/protocol';
import type { CockroachState } from '../server/schema/CockroachState';
import { localError } from './errors';

/** A server message that came before the session listened (e.g. the `result` sent to whoever returns at the end). */
export interface EarlyMessage {
  type: string;
  message: unknown;
}

/** A joined room whose first full state has arrived, with what was said meanwhile. */
export interface OpenedRoom {
  room: Room<CockroachState>;
  /** Stops collecting and hands over the messages so far, in order; call it when the session's own handlers are in place. */
  takeEarly(): EarlyMessage[];
}

/**
 * A join resolves before the full state arrives, and messages sent at once (a `result` on coming
 * back to an ended game) would find no handler and be dropped: collect them from the moment the
 * room exists. Kept apart from client.ts and session.ts, which both need it, so neither
 * requires the other at run time (React Native's bundler warns on require cycles).
 */
export function firstState(room: Room<CockroachState>, ms = 10000): Promise<OpenedRoom> {
  const early: EarlyMessage[] = [];
  const offs = Object.values(SERVER_MESSAGES).map((type) => room.onMessage(type, (message: unknown) => early.push({ type, message })));
  const takeEarly = () => {
    offs.forEach((off) => off());
    return early.splice(0);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      takeEarly();
      reject(localError('TIMEOUT', 'join'));
    }, ms);
    room.onStateChange.once(() => {
      clearTimeout(timer);
      resolve({ room, takeEarly });
    });
  });
}
