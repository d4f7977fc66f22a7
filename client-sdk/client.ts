import { Client, Room } from 'colyseus.js';
import type { GameOptions } from '../server/rules/options';
import { CockroachState } from '../server/schema/CockroachState';
import { joinError, localError, SdkError } from './errors';
import { firstState } from './firstState';
import { GameSession, SessionOptions } from './session';
import { MemoryTokenStore, TokenStore } from './tokenStore';
import { ROOM_NAME } from '../server/protocol';

export { ROOM_NAME };

export type CreateOptions = Partial<GameOptions> & { private?: boolean };

export interface RoomListing {
  roomId: string;
  clients: number;
  phase: string;
  seats: number;
  maxSeats: number;
  spectators: number;
  host: string;
  options: Partial<GameOptions>;
}

export interface ClientOptions {
  /** Where the seat is kept for resuming (memory unless the app gives its own). */
  store?: TokenStore;
  /** Seconds to keep retrying after a drop; match the server's grace (90). */
  graceSeconds?: number;
  actionTimeoutMs?: number;
}

/**
 * Entry point of the SDK: finds or makes a room and hands back a GameSession. Every failure is an
 * SdkError with the server's code and Korean message.
 */
export class CockroachClient {
  readonly colyseus: Client;
  private readonly sessionOptions: SessionOptions;

  constructor(endpoint = 'ws://127.0.0.1:2567', options: ClientOptions = {}) {
    this.colyseus = new Client(endpoint);
    this.sessionOptions = {
      store: options.store ?? new MemoryTokenStore(),
      graceSeconds: options.graceSeconds ?? 90,
      actionTimeoutMs: options.actionTimeoutMs ?? 15000,
    };
  }

  /** A new room with me as host. */
  create(nickname: string, options: CreateOptions = {}): Promise<GameSession> {
    return this.enter('create', () => this.colyseus.create<CockroachState>(ROOM_NAME, { nickname, ...options }, CockroachState), false);
  }

  /** Any open public lobby with a free seat, or a new one. */
  quickMatch(nickname: string): Promise<GameSession> {
    return this.enter('quickMatch', () => this.colyseus.joinOrCreate<CockroachState>(ROOM_NAME, { nickname }, CockroachState), false);
  }

  join(roomId: string, nickname: string): Promise<GameSession> {
    return this.enter('join', () => this.colyseus.joinById<CockroachState>(roomId, { nickname }, CockroachState), false);
  }

  spectate(roomId: string): Promise<GameSession> {
    return this.enter('spectate', () => this.colyseus.joinById<CockroachState>(roomId, { spectator: true }, CockroachState), true);
  }

  /** Open public lobbies with a free seat. */
  async listRooms(): Promise<RoomListing[]> {
    try {
      const rooms = await this.colyseus.getAvailableRooms(ROOM_NAME);
      return rooms.map((r) => ({ roomId: r.roomId, clients: r.clients, ...(r.metadata as Omit<RoomListing, 'roomId' | 'clients'>) }));
    } catch (error) {
      throw joinError(error, 'listRooms');
    }
  }

  /**
   * After an app restart: takes the saved seat back if its grace has not run out. Rejects with
   * NO_SAVED_SEAT when nothing is saved; a stale seat is forgotten.
   */
  async resume(): Promise<GameSession> {
    const seat = await this.sessionOptions.store.load();
    if (!seat) throw localError('NO_SAVED_SEAT', 'resume');
    try {
      return await this.enter('resume', () => this.colyseus.reconnect<CockroachState>(seat.token, CockroachState), false);
    } catch (error) {
      await this.sessionOptions.store.clear();
      throw error instanceof SdkError && error.code !== 'CONNECTION_FAILED' ? error : localError('NO_SAVED_SEAT', 'resume');
    }
  }

  private async enter(action: string, connect: () => Promise<Room<CockroachState>>, spectator: boolean): Promise<GameSession> {
    let room: Room<CockroachState>;
    try {
      room = await connect();
    } catch (error) {
      throw joinError(error, action);
    }
    await firstState(room);
    return new GameSession(this.colyseus, room, spectator, this.sessionOptions);
  }
}
