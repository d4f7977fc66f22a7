/** Shared helpers of the SDK tests: wait on events and patches (never on a fixed sleep), and drop or silence a socket. */
import assert from 'node:assert/strict';
import type { Client, Room } from 'colyseus.js';
import { CockroachClient, GameSession, GameSnapshot, SdkError } from '../../client-sdk/index';
import type { SessionEvents } from '../../client-sdk/session';

export async function rejects(promise: Promise<unknown>, code: string): Promise<void> {
  await assert.rejects(promise, (e: unknown) => {
    assert.ok(e instanceof SdkError, `not an SdkError: ${String(e)}`);
    assert.equal(e.code, code);
    assert.match(e.message, /[\uAC00-\uD7A3]/, 'a Korean sentence');
    return true;
  });
}

/** Resolves once `test()` holds, re-checked on every snapshot change. */
export function until(session: GameSession, test: () => boolean, what: string, ms = 5000): Promise<void> {
  if (test()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (off(), reject(new Error(`timed out waiting for ${what}`))), ms);
    const off = session.on('change', () => {
      if (test()) {
        clearTimeout(timer);
        off();
        resolve();
      }
    });
  });
}

/** The next `event` of a session. */
export function next<K extends keyof SessionEvents>(session: GameSession, event: K, ms = 5000): Promise<SessionEvents[K]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (off(), reject(new Error(`timed out waiting for ${String(event)}`))), ms);
    const off = session.once(event, (payload) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });
}

type Internals = { room: Room; client: Client };
const internals = (session: GameSession) => session as unknown as Internals;

/** The colyseus.js room a session currently talks through. */
export const roomOf = (session: GameSession): Room => internals(session).room;

/** A dropped connection, as when a phone changes network: the close reaches the server. */
export function dropSocket(session: GameSession): void {
  roomOf(session).connection.close();
}

/**
 * A silently lost network: nothing the server sends is read any more, and no close event comes
 * (the socket is paused, not closed).
 */
export function silenceSocket(session: GameSession): void {
  const ws = (roomOf(session).connection as unknown as { transport: { ws: { _socket: { pause(): void } } } }).transport.ws;
  ws._socket.pause();
}

/** Holds the session's reconnection tries until the returned function is called. */
export function holdReconnects(session: GameSession): () => void {
  const client = internals(session).client;
  const original = client.reconnect.bind(client);
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  client.reconnect = (async (...args: Parameters<Client['reconnect']>) => {
    await gate;
    return original(...args);
  }) as Client['reconnect'];
  return () => open();
}

/**
 * A network lost for real: nothing is read, and closing the socket on this side never reaches
 * the server, which keeps the old connection until its heartbeat cuts it (about 9 s). Returns
 * the function that finally frees the socket.
 */
export function loseNetwork(session: GameSession): () => void {
  const socket = (roomOf(session).connection as unknown as { transport: { ws: { _socket: { pause(): void; destroy(): unknown } } } })
    .transport.ws._socket;
  socket.pause();
  const destroy = socket.destroy.bind(socket);
  socket.destroy = () => socket;
  return () => void destroy();
}

/**
 * Every session the tests open, so each test can leave them all: a session left behind keeps
 * trying to reconnect once its server is closed, and keeps the test process alive.
 */
const opened = new Set<GameSession>();
for (const name of ['create', 'quickMatch', 'join', 'spectate', 'resume'] as const) {
  const original = CockroachClient.prototype[name] as (...args: unknown[]) => Promise<GameSession>;
  (CockroachClient.prototype as unknown as Record<string, unknown>)[name] = async function (this: CockroachClient, ...args: unknown[]) {
    const session = await original.apply(this, args);
    opened.add(session);
    return session;
  };
}

export async function leaveAll(): Promise<void> {
  const sessions = [...opened];
  opened.clear();
  await Promise.all(sessions.map((s) => s.leave()));
}

/** Registers `afterEach(leaveAll)` for the enclosing describe. */
export function leaveAfterEach(): void {
  afterEach(leaveAll);
}

/**
 * What the snapshot's narrowed types promise, checked on a real snapshot: a player has `me` and
 * `mySeat`; a game in play has someone on turn, an ended one a loser; a card in flight has a
 * holder, a passer and a claim, and its kind exactly when I have seen it.
 */
export function assertNarrowed(snap: GameSnapshot): void {
  const where = `step ${snap.step} (${snap.phase})`;
  if (snap.spectator) {
    assert.deepEqual([snap.me, snap.mySeat, snap.isHost, snap.myHandCount], [null, null, false, 0], where);
  } else {
    assert.equal(typeof snap.me, 'string', where);
    assert.equal(snap.mySeat.id, snap.me, where);
    assert.equal(
      snap.mySeat,
      snap.seats.find((s) => s.isMe),
      where,
    );
  }
  if (snap.phase === 'playing') assert.equal(typeof snap.activePlayer, 'string', where);
  else assert.deepEqual([snap.activePlayer, snap.myTurn, snap.canDo.length], [null, false, 0], where);
  if (snap.phase === 'ended') assert.ok(snap.loser && snap.lossReason, where);
  else assert.deepEqual([snap.loser, snap.lossReason, snap.result], [null, null, null], where);
  const r = snap.round;
  if (r.hasCard) {
    assert.ok(r.holder && r.lastPasser && r.claim, `${where}: a card in flight has a holder, a passer and a claim`);
    assert.equal(r.seenByMe, snap.me !== null && r.seen.includes(snap.me), where);
    assert.equal(r.cardKind !== null, r.seenByMe, `${where}: the kind is known exactly when I have seen the card`);
  } else {
    assert.deepEqual([r.holder, r.lastPasser, r.claim, r.seenByMe, r.cardKind], [null, null, null, false, null], where);
  }
}
