import { Client, Room } from 'colyseus.js';
import { matchMaker } from 'colyseus';
import { startServer, RunningServer, ROOM_NAME } from '../../server/app';
import { CockroachRoom } from '../../server/room/CockroachRoom';
import { DEFAULT_MESSAGE_BURST, DEFAULT_MESSAGES_PER_SECOND } from '../../server/room/constants';
import { CockroachState } from '../../server/schema/CockroachState';
import type { DecodedChange } from './decodedView';
import { tempDir } from './tempDirs';

export { ROOM_NAME };

export interface TestServer {
  server: RunningServer;
  endpoint: string;
  client(): Client;
  serverRoom(roomId: string): CockroachRoom;
}

/** An in-process server on a free port; real sockets, real colyseus.js 0.15 clients. */
export async function bootTestServer(
  settings: Partial<typeof CockroachRoom.settings> = {},
  recordsEnv?: Record<string, string | undefined>,
): Promise<TestServer> {
  // The default rate limits: test bots play as fast as patches arrive, and applied moves are
  // never charged (PROTOCOL v2), so every game in the suite proves that at full speed.
  // Game records in a throwaway SQLite file unless the test names its own store.
  const env = recordsEnv ?? { DATA_DIR: tempDir('cockroach-records-') };
  const server = await startServer({
    port: 0,
    reconnectGraceSeconds: 90,
    messageBurst: DEFAULT_MESSAGE_BURST,
    messagesPerSecond: DEFAULT_MESSAGES_PER_SECOND,
    recordsEnv: env,
  });
  Object.assign(CockroachRoom.settings, settings);
  const endpoint = `ws://127.0.0.1:${server.port}`;
  return {
    server,
    endpoint,
    client: () => new Client(endpoint),
    serverRoom: (roomId) => matchMaker.getRoomById(roomId) as CockroachRoom,
  };
}

/** Boots one server for the enclosing mocha `describe` and closes it after; filled in `before`. */
export function useTestServer(settings: Partial<typeof CockroachRoom.settings> = {}): TestServer {
  const ts = {} as TestServer;
  before(async () => {
    Object.assign(ts, await bootTestServer(settings));
  });
  after(async () => {
    await ts.server.close();
  });
  return ts;
}

/**
 * A joined client that records what it decodes (every change of every patch) and every message
 * it receives, so tests can wait on them instead of sleeping.
 */
export class Tracked {
  readonly changes: DecodedChange[][] = [];
  /** The phase each batch of `changes` was decoded into (what the client might see then depends on it). */
  readonly phaseOf = new WeakMap<DecodedChange[], string>();
  readonly messages: { type: unknown; message: any }[] = [];
  private waiters: { test: () => boolean; resolve: () => void }[] = [];
  /** Called after every decoded patch, with the state as it now is and what the patch changed. */
  readonly onPatch: ((state: CockroachState, changes: DecodedChange[]) => void)[] = [];
  /** The close code once this client's connection has ended. */
  leftWith: number | null = null;

  constructor(
    readonly room: Room<CockroachState>,
    readonly label: string,
  ) {
    const state = room.state;
    const decode = state.decode.bind(state);
    state.decode = ((...args: Parameters<CockroachState['decode']>) => {
      const changes = decode(...args) as unknown as DecodedChange[];
      this.changes.push(changes);
      this.phaseOf.set(changes, state.phase);
      for (const check of this.onPatch) check(state, changes);
      this.wake();
      return changes as never;
    }) as CockroachState['decode'];
    room.onLeave((code) => {
      this.leftWith = code;
      this.wake();
    });
    room.onMessage('*', (type, message) => {
      this.messages.push({ type, message });
      this.wake();
    });
  }

  get id(): string {
    return this.room.sessionId;
  }

  get state(): CockroachState {
    return this.room.state;
  }

  /** Resolves once `test()` holds, re-checked after each decoded patch or message. */
  until(test: () => boolean, what: string, ms = 5000): Promise<void> {
    if (test()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.label}: timed out waiting for ${what}`)), ms);
      this.waiters.push({ test, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }

  /**
   * Leaves and waits until the connection is over. colyseus.js's own `leave()` never settles when
   * the server closed the room first (the last person leaving closes it for a spectator).
   */
  async leave(): Promise<void> {
    if (this.leftWith !== null) return;
    const gone = this.until(() => this.leftWith !== null, 'the connection to end', 10000);
    this.room.leave().catch(() => undefined);
    await gone;
  }

  nextMessage(type: string, ms = 5000): Promise<any> {
    const seen = this.messages.length;
    return this.until(() => this.messages.slice(seen).some((m) => m.type === type), `message ${type}`, ms).then(
      () => this.messages.slice(seen).find((m) => m.type === type)!.message,
    );
  }

  messagesOf(type: string): any[] {
    return this.messages.filter((m) => m.type === type).map((m) => m.message);
  }

  private wake() {
    this.waiters = this.waiters.filter((w) => {
      if (!w.test()) return true;
      w.resolve();
      return false;
    });
  }
}

export async function create(ts: TestServer, options: Record<string, unknown>, label = 'host'): Promise<Tracked> {
  const room = await ts.client().create<CockroachState>(ROOM_NAME, options, CockroachState);
  return new Tracked(room, label);
}

export async function joinById(ts: TestServer, roomId: string, options: Record<string, unknown>, label: string): Promise<Tracked> {
  const room = await ts.client().joinById<CockroachState>(roomId, options, CockroachState);
  return new Tracked(room, label);
}
