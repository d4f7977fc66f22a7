import { Client, Room } from 'colyseus.js';
import type { FinishedGameRecord } from '../server/fairness/record';
import type { GameOptions } from '../server/rules/options';
import { CockroachState } from '../server/schema/CockroachState';
import { errorFor, joinError, localError, matchmakeCode, SdkError } from './errors';
import { EndpointInput, parseEndpoint } from './endpoint';
import { freshEntropy } from './entropy';
import { AppToken, IdentityKeeper } from './identity';
import { reconnectSeat } from './reconnect';
import { roomIdFrom } from './roomCode';
import { firstState } from './firstState';
import { GameSession, SessionOptions } from './session';
import type { Phase } from './snapshot';
import { MemoryTokenStore, TokenStore } from './tokenStore';
import { ROOM_NAME } from '../server/protocol';

export { ROOM_NAME };

/**
 * The game's options, and `private`: a private table is joined by its code or an invite only (not
 * listed, not in quick match). The SDK makes private tables unless `private: false` is given (a
 * family app's safe default; the server's own default, for a client without this SDK, is false).
 */
export type CreateOptions = Partial<GameOptions> & { private?: boolean };

/** The shape of a game id (server/store/gameId.ts): lowercase hex SHA-256. */
const GAME_ID = /^[0-9a-f]{64}$/;

export interface RoomListing {
  roomId: string;
  clients: number;
  phase: Phase;
  seats: number;
  maxSeats: number;
  spectators: number;
  host: string;
  options: Partial<GameOptions>;
}

export interface ClientOptions {
  /** Where the seat and the guest identity are kept for resuming (memory unless the app gives its own). */
  store?: TokenStore;
  /**
   * App mode: the app backend's JWT for this player, or a function that returns a fresh one
   * (called before every matchmaking request, reconnections included).
   */
  appToken?: AppToken;
  /**
   * Without `appToken`: fetch a guest identity from the server once (`POST /api/guest`) and keep
   * it in the store (default true). false: play anonymously.
   */
  guest?: boolean;
  /**
   * Seconds to keep trying after a drop while the server cannot be reached (default 300). An
   * answer that the seat is gone ends the attempt at once (`reconnectFailed`).
   */
  graceSeconds?: number;
  actionTimeoutMs?: number;
  /** Silence before the SDK pings the server (default 2000 ms; 0: never ping). */
  pingIntervalMs?: number;
  /** Silence after which the connection is taken for dead and resumed (default 5000 ms). */
  deadAfterMs?: number;
  /**
   * How long the server may take to notice a dead socket (its heartbeat: about 9 s; default
   * 11000 ms). Until then a refused token means "not yet", not "gone".
   */
  serverNoticeMs?: number;
  /**
   * Seconds to keep trying while the server answers but fails (5xx) before giving up with
   * SERVER_ERROR (default 60; the seat is kept for resume()). Tries are spaced 1 s, 2 s, … 15 s.
   */
  serverErrorSeconds?: number;
}

/** After an app restart or a reload the old socket was closed just now: the server may take a moment to free it. */
const RESUME_NOTICE_MS = 3000;

/**
 * Entry point of the SDK: finds or makes a room and hands back a GameSession. Every failure is an
 * SdkError with the server's code and Korean message.
 */
export class CockroachClient {
  readonly colyseus: Client;
  private readonly sessionOptions: SessionOptions;
  private readonly identity: IdentityKeeper;

  /**
   * `endpoint`: `wss://game.example.com` (or ws://, http://, https://, with a port and a path),
   * parsed here, never with the platform's `URL` (React Native's cannot), or colyseus.js's
   * settings object `{ hostname, port, secure, pathname }`. A malformed string throws a TypeError.
   */
  constructor(endpoint: string | EndpointInput = 'ws://127.0.0.1:2567', options: ClientOptions = {}) {
    this.colyseus = new Client(parseEndpoint(endpoint));
    const store = options.store ?? new MemoryTokenStore();
    this.identity = new IdentityKeeper(this.colyseus, { appToken: options.appToken, guest: options.guest ?? true }, store);
    this.sessionOptions = {
      store,
      identity: this.identity,
      graceSeconds: options.graceSeconds ?? 300,
      serverErrorSeconds: options.serverErrorSeconds ?? 60,
      actionTimeoutMs: options.actionTimeoutMs ?? 15000,
      pingIntervalMs: options.pingIntervalMs ?? 2000,
      deadAfterMs: options.deadAfterMs ?? 5000,
      serverNoticeMs: options.serverNoticeMs ?? 11000,
    };
  }

  /** A new room with me as host: private (by code and invite only) unless `options.private` is false. */
  create(nickname: string, options: CreateOptions = {}): Promise<GameSession> {
    const settings = { ...options, private: options.private ?? true };
    return this.enter(
      'create',
      () => this.colyseus.create<CockroachState>(ROOM_NAME, { ...settings, nickname, entropy: freshEntropy() }, CockroachState),
      false,
    );
  }

  /** Any open public lobby with a free seat, or a new one. */
  quickMatch(nickname: string): Promise<GameSession> {
    return this.enter(
      'quickMatch',
      () => this.colyseus.joinOrCreate<CockroachState>(ROOM_NAME, { nickname, entropy: freshEntropy() }, CockroachState),
      false,
    );
  }

  /**
   * A room a friend shared, by its code as a child types it: "123456", "123 456", "123-456",
   * spaces around. A code that cannot be a room (or that the server finds malformed) is
   * ROOM_NOT_FOUND, like a code of no room.
   */
  join(code: string, nickname: string): Promise<GameSession> {
    return this.byCode('join', code, (roomId) =>
      this.colyseus.joinById<CockroachState>(roomId, { nickname, entropy: freshEntropy() }, CockroachState),
    );
  }

  /**
   * Watch a room (session.me is null), by its code as for join(). Everyone at the table sees who
   * is watching (`snapshot.watchers`): by `nickname`, or "구경꾼 1", "구경꾼 2"… without one.
   */
  spectate(code: string, nickname?: string): Promise<GameSession> {
    const options = nickname === undefined ? { spectator: true } : { spectator: true, nickname };
    return this.byCode('spectate', code, (roomId) => this.colyseus.joinById<CockroachState>(roomId, options, CockroachState));
  }

  /** Open public lobbies with a free seat. */
  async listRooms(): Promise<RoomListing[]> {
    try {
      await this.identity.apply();
      const rooms = await this.colyseus.getAvailableRooms(ROOM_NAME);
      return rooms.map((r) => ({ roomId: r.roomId, clients: r.clients, ...(r.metadata as Omit<RoomListing, 'roomId' | 'clients'>) }));
    } catch (error) {
      throw joinError(error, 'listRooms');
    }
  }

  /**
   * A finished game's record (`GET /api/games/:gameId` on this client's server), for `verifyGame`.
   * Rejects with GAME_NOT_FOUND (no such game, or an id of the wrong shape), RECORDS_UNAVAILABLE
   * (the server cannot read its records now: try later), SERVER_ERROR or CONNECTION_FAILED. What
   * comes back is the server's word until `verifyGame` has checked it.
   */
  async fetchRecord(gameId: string): Promise<FinishedGameRecord> {
    if (!GAME_ID.test(gameId)) throw localError('GAME_NOT_FOUND', 'fetchRecord');
    try {
      const response: { data?: unknown } = await this.colyseus.http.get(`api/games/${gameId}`, { headers: { Accept: 'application/json' } });
      if (typeof response.data !== 'object' || response.data === null) throw localError('SERVER_ERROR', 'fetchRecord');
      return response.data as FinishedGameRecord;
    } catch (error) {
      if (error instanceof SdkError) throw error;
      const status = matchmakeCode(error);
      if (status === 404) throw localError('GAME_NOT_FOUND', 'fetchRecord');
      if (status === 503) throw localError('RECORDS_UNAVAILABLE', 'fetchRecord');
      if (status !== undefined && status >= 400) throw localError('SERVER_ERROR', 'fetchRecord');
      throw localError('CONNECTION_FAILED', 'fetchRecord');
    }
  }

  /**
   * Takes the saved seat back (after an app restart or a reload): for the whole game and its
   * results screen, until a rematch or the room closes. Rejects with NO_SAVED_SEAT when nothing
   * is saved, ROOM_CLOSED or SEAT_GONE when the server no longer holds the seat (it is then
   * forgotten), CONNECTION_FAILED or SERVER_ERROR when the server cannot be reached or keeps
   * failing (the seat is kept: try again).
   *
   * After a reinstall nothing is saved: with `room` (its code, and the nickname unless the app's
   * token carries one) and the same identity (the app's token, or a guest token the app kept
   * elsewhere) the server gives the seat back to the person (PROTOCOL v3: a seat belongs to its
   * identity). A room that is gone is ROOM_CLOSED there too.
   */
  async resume(room?: { code: string; nickname?: string }): Promise<GameSession> {
    const seat = await this.sessionOptions.store.load();
    if (!seat && room) {
      return this.byCode('resume', room.code, (roomId) =>
        this.colyseus.joinById<CockroachState>(roomId, { nickname: room.nickname, entropy: freshEntropy() }, CockroachState),
      ).catch((error: SdkError) => {
        throw error.code === 'ROOM_NOT_FOUND' ? localError('ROOM_CLOSED', 'resume') : error;
      });
    }
    if (!seat) throw localError('NO_SAVED_SEAT', 'resume');
    const now = Date.now();
    const outcome = await reconnectSeat(this.colyseus, seat.token, {
      firstDelayMs: 0,
      spreadMs: 0,
      giveUpAt: now,
      serverErrorUntil: now,
      goneAfter: now + RESUME_NOTICE_MS,
      beforeTry: () => this.identity.apply(),
      renewIdentity: (code) => this.identity.renew(code),
    });
    if ('error' in outcome) {
      const keep = outcome.error.code === 'CONNECTION_FAILED' || outcome.error.code === 'SERVER_ERROR';
      if (!keep) await this.sessionOptions.store.clear();
      throw errorFor(outcome.error, 'resume');
    }
    return new GameSession(this.colyseus, outcome.opened, false, this.sessionOptions);
  }

  private async byCode(action: string, code: string, connect: (roomId: string) => Promise<Room<CockroachState>>): Promise<GameSession> {
    const roomId = roomIdFrom(code);
    if (roomId === null) throw localError('ROOM_NOT_FOUND', action);
    try {
      return await this.enter(action, () => connect(roomId), action === 'spectate');
    } catch (error) {
      // The route refuses what is not a room id at all: for the person, that is no such room.
      if (error instanceof SdkError && (error.code === 'BAD_REQUEST' || error.code === 'NOT_FOUND'))
        throw localError('ROOM_NOT_FOUND', action);
      throw error;
    }
  }

  private async enter(action: string, connect: () => Promise<Room<CockroachState>>, spectator: boolean): Promise<GameSession> {
    let room: Room<CockroachState>;
    try {
      await this.identity.apply();
      room = await connect();
    } catch (error) {
      const refused = joinError(error, action);
      // A guest identity the server no longer accepts is exchanged once; an app token function is asked again.
      if ((refused.code !== 'AUTH_INVALID' && refused.code !== 'AUTH_REQUIRED') || !(await this.identity.renew(refused.code)))
        throw refused;
      try {
        room = await connect();
      } catch (again) {
        throw joinError(again, action);
      }
    }
    return new GameSession(this.colyseus, await firstState(room), spectator, this.sessionOptions);
  }
}
