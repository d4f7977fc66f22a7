import type { Client, Room } from 'colyseus.js';
import type { Kind } from '../server/rules/kinds';
import type { CockroachResult } from '../server/rules/result';
import {
  type BotLevel,
  CHAT_PHRASES,
  ChatPhrase,
  ClientMessageType,
  CLOSE_CODES,
  type EventsMessage,
  GAME_ACTIONS,
  ROOM_MESSAGES,
  SERVER_MESSAGES,
} from '../server/protocol';
import type { CockroachState } from '../server/schema/CockroachState';
import { terminateSocket } from '../server/colyseus/client';
import { Emitter } from './emitter';
import { errorFor, localError, SdkError, SdkErrorCode } from './errors';
import { ActionName, offerTargets, passOptions, peekAvailability } from './helpers';
import type { OpenedRoom } from './firstState';
import { Liveness } from './liveness';
import type { IdentityKeeper } from './identity';
import { ReconnectAttempt } from './reconnect';
import { buildSnapshot, GameSnapshot, RevealSnapshot } from './snapshot';
import type { TokenStore } from './tokenStore';

export type { BotLevel } from '../server/protocol';

/** Every event of a session, by name: a closed list (`on('chnage', …)` fails to compile). */
export interface SessionEvents {
  /** The decoded state changed: a fresh snapshot. */
  change: GameSnapshot;
  /**
   * A move of mine became possible (my turn, or the next step of it: the pass after my own peek),
   * or it is still my turn after a reconnect: what I may do, and the time left on the server's
   * clock. It comes after `change` and after the promise of the move that led to it has settled,
   * so a program that awaits one move at a time is free to make the next.
   */
  myTurn: { canDo: readonly ActionName[]; deadline: number; secondsLeft: number };
  /** Someone handed me the card in flight with this claim. */
  cardHandedToMe: { from: string; claim: Kind };
  revealed: RevealSnapshot;
  /** The rules made my move for me: the clock ran out (`clock`), or I was away (`away`). */
  movePlayedForMe: { move: ActionName; reason: 'clock' | 'away' };
  /** The game's result: at the end, or on coming back to (or watching) an ended game. */
  gameOver: CockroachResult;
  chat: { from: string; nickname: string; phrase: ChatPhrase; text: string };
  /** A refusal not tied to a pending call of this SDK (e.g. a late message), and server notices. */
  error: SdkError;
  /** The connection dropped (or went silent); the SDK is taking the seat back. */
  connectionLost: { code: number };
  reconnected: GameSnapshot;
  /** The seat could not be taken back: ROOM_CLOSED, SEAT_GONE, CONNECTION_FAILED, SERVER_ERROR, KICKED or AUTH_*. `left` follows. */
  reconnectFailed: SdkError;
  /**
   * The session is over, and why: I left (LEFT), the room closed (ROOM_CLOSED), the host
   * removed me (KICKED), my identity took the seat on another connection (REPLACED: another
   * device, or a reinstalled app), or the seat could not be taken back (the `reconnectFailed` code).
   */
  left: { code: number; reason: SdkError };
}

interface Pending {
  action: ClientMessageType;
  payload: Record<string, unknown>;
  done: (s: GameSnapshot) => boolean;
  /** Whether to send it again after a reconnect if the state shows it was not applied. */
  resend: boolean;
  resolve: () => void;
  reject: (e: SdkError) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

export interface SessionOptions {
  store: TokenStore;
  /** Puts the player's identity on every reconnection request. */
  identity?: IdentityKeeper;
  /** How long to keep trying to reach the server after a drop before giving up. */
  graceSeconds: number;
  /** How long to keep trying while the server answers 5xx before giving up. */
  serverErrorSeconds: number;
  /** How long an action may wait for its patch or refusal. */
  actionTimeoutMs: number;
  /** Silence before the SDK pings the server; 0: no ping. */
  pingIntervalMs: number;
  /** Silence after which the connection is taken for dead and resumed. */
  deadAfterMs: number;
  /** How long the server may take to notice a dead socket (its heartbeat: about 9 s). */
  serverNoticeMs: number;
}

const GAME_ACTION_SET: ReadonlySet<string> = new Set(GAME_ACTIONS);
const PING: ClientMessageType = 'ping';
/** Reported as the close code when the SDK itself gave up on a silent connection. */
const SILENT_DROP = 1006;
const ignore = () => undefined;
/** How long leave() waits for the server to confirm (or, while reconnecting, to be reached) before it gives up. */
const LEAVE_CONFIRM_MS = 3000;
/** The first reconnection try waits this long after a drop, plus up to RECONNECT_SPREAD_MS at random. */
const RECONNECT_DELAY_MS = 250;
/** Phones cut off together (a server stall) come back spread over this much time, not in one burst. */
const RECONNECT_SPREAD_MS = 1500;

/** A promise the app may ignore without an unhandled rejection; awaiting it still throws. */
function quiet<T>(promise: Promise<T>): Promise<T> {
  promise.catch(ignore);
  return promise;
}

/**
 * One seat (or a spectator's place) in one room: actions that settle when the server applied or
 * refused them, a typed snapshot, events for the screens, and automatic resume after a drop or a
 * silently lost network.
 */
export class GameSession extends Emitter<SessionEvents> {
  private room!: Room<CockroachState>;
  private current!: GameSnapshot;
  private result: CockroachResult | null = null;
  private readonly pending = new Map<string, Pending>();
  private leaving = false;
  private reconnecting = false;
  /** Why the session is over, once it is: later calls reject with it, never with "reconnecting". */
  private ended: SdkError | null = null;
  /**
   * The server said this connection is over for good: the host removed me (KICKED), or my identity
   * took the seat on another connection (REPLACED). The coming close is final, no drop to resume.
   */
  private dismissed: SdkError | null = null;
  /** The reconnection under way, if any (leave() hurries it to say goodbye). */
  private attempt: ReconnectAttempt | null = null;
  private resuming: Promise<void> | null = null;
  /** A room given up on for its silence: its late events are ignored. */
  private dropped: Room<CockroachState> | null = null;
  private offsets: number[] = [];
  /** The `myTurn` announcement waiting for the settled moves' continuations to run. */
  private turnTimer: ReturnType<typeof setTimeout> | undefined;
  private pings = 0;
  private readonly liveness: Liveness;

  constructor(
    private readonly client: Client,
    opened: OpenedRoom,
    readonly spectator: boolean,
    private readonly options: SessionOptions,
  ) {
    super();
    this.liveness = new Liveness(
      options,
      () => {
        // A small counter: a time in ms (over 2^32) travels as a 64-bit integer the server refuses.
        if (this.room.connection.isOpen) this.room.send(PING, { t: (this.pings = (this.pings + 1) % 1_000_000) });
      },
      () => this.onSilent(),
    );
    this.bind(opened);
  }

  get roomId(): string {
    return this.room.roomId;
  }

  /** My player id (the server's sessionId), stable across reconnects; null when watching. */
  get me(): string | null {
    return this.spectator ? null : this.room.sessionId;
  }

  get snapshot(): GameSnapshot {
    return this.current;
  }

  /** Whether the SDK is taking the seat back after a drop (show the reconnecting banner). */
  get isReconnecting(): boolean {
    return this.reconnecting;
  }

  /** Server time now, estimated from deadlines (each one is the server's now + turnSeconds). */
  serverNow(): number {
    return Date.now() + (this.offsets.length ? Math.max(...this.offsets) : 0);
  }

  secondsLeft(): number {
    const deadline = this.current.round.deadline;
    return deadline ? Math.max(0, Math.ceil((deadline - this.serverNow()) / 1000)) : 0;
  }

  // ---- actions -------------------------------------------------------------------------
  // Game moves take the `step` of the screen the player tapped on (default: the latest
  // snapshot's), so a late tap is refused as STALE_ACTION instead of landing on a later turn.

  start(): Promise<void> {
    return this.send('start', {}, (s) => s.phase !== 'lobby', true);
  }

  offer(cardId: number, to: string, claim: Kind, step?: number): Promise<void> {
    return this.play('offer', { cardId, to, claim }, step);
  }

  /** `true`: "진짜!" (the claim is true); `false`: "거짓말!". */
  call(claimIsTrue: boolean, step?: number): Promise<void> {
    return this.play('call', { call: claimIsTrue ? 'true' : 'false' }, step);
  }

  peek(step?: number): Promise<void> {
    return this.play('peek', {}, step);
  }

  pass(to: string, claim: Kind, step?: number): Promise<void> {
    return this.play('pass', { to, claim }, step);
  }

  /** Host, in the lobby: seats a practice bot (default level `gentle`). Resolves once it sits. */
  addBot(level?: BotLevel): Promise<void> {
    const bots = new Set(this.current.seats.filter((s) => s.bot).map((s) => s.id));
    return this.send('addBot', level ? { level } : {}, (s) => s.seats.some((seat) => seat.bot && !bots.has(seat.id)), true);
  }

  /** Host, in the lobby: takes a bot's seat away. */
  removeBot(id: string): Promise<void> {
    return this.send('removeBot', { id }, (s) => !s.seats.some((seat) => seat.id === id), true);
  }

  /**
   * The creator as host: removes a seated player (in the lobby or on the results screen; a bot:
   * removeBot) or a watcher (any time). Every connection of theirs is closed, they cannot join
   * this room again (KICKED), and the table locks (`snapshot.locked`) so nobody new comes in until
   * `unlock()`. Resolves once they are gone and the table is locked. A stand-in host gets NOT_CREATOR.
   */
  kick(id: string): Promise<void> {
    return this.send(
      'kick',
      { id },
      (s) => s.locked && !s.seats.some((seat) => seat.id === id) && !s.watchers.some((w) => w.id === id),
      true,
    );
  }

  /** The host, any time: nobody new may sit down or watch (`snapshot.locked`). Resolves once locked. */
  lock(): Promise<void> {
    if (this.current.locked) return Promise.resolve();
    return this.send('lock', {}, (s) => s.locked, true);
  }

  /** The creator as host, any time: newcomers are welcome again (the kicked stay out). Resolves once open. */
  unlock(): Promise<void> {
    if (!this.current.locked) return Promise.resolve();
    return this.send('unlock', {}, (s) => !s.locked, true);
  }

  /** Host, after the end ("한 판 더"): back to the lobby with the same options and running scores. */
  rematch(): Promise<void> {
    return this.send('rematch', {}, (s) => s.phase === 'lobby', true);
  }

  /** Resolves when my phrase comes back from the server (everyone got it). */
  chat(phrase: ChatPhrase): Promise<void> {
    let heard = false;
    const off = this.on('chat', (c) => {
      if (c.from === this.me && c.phrase === phrase) heard = true;
    });
    return quiet(this.send('chat', { phrase }, () => heard, false).finally(off));
  }

  /**
   * Leaves on purpose (mid-game this makes me away at once); the saved seat is forgotten. While
   * reconnecting, the seat is taken back just long enough to tell the server (up to 3 s), or the
   * others would wait out my turns until the grace ran out.
   */
  async leave(): Promise<void> {
    if (this.leaving) return;
    this.leaving = true;
    this.liveness.stop();
    clearTimeout(this.turnTimer);
    for (const p of [...this.pending.values()]) this.settle(p, localError('NOT_IN_ROOM', p.action));
    // A replaced seat lives on with the connection that took it (forgetSeat), also when the app
    // leaves between the REPLACED message and the close that follows it.
    const over = this.ended ?? this.dismissed;
    if (over?.code === 'REPLACED') await this.forgetSeat(over);
    else await this.options.store.clear();
    if (this.ended) return; // already over (and announced)
    this.ended = localError('NOT_IN_ROOM', 'leave');
    if (this.reconnecting && this.attempt) {
      // A try already on the wire may outlast this wait: if it gets the seat back later, it still says goodbye.
      this.attempt.hurry(Date.now() + LEAVE_CONFIRM_MS);
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([this.resuming, new Promise((resolve) => (timer = setTimeout(resolve, LEAVE_CONFIRM_MS)))]);
      clearTimeout(timer);
      return this.emit('left', { code: CLOSE_CODES.CONSENTED, reason: localError('LEFT', 'leave') });
    }
    if (!this.room.connection.isOpen) return this.emit('left', { code: CLOSE_CODES.CONSENTED, reason: localError('LEFT', 'leave') });
    // A socket that went silent never confirms: do not wait for it for ever.
    const room = this.room;
    if (!(await leaveRoom(room))) {
      this.dropped = room;
      closeSocket(room);
      this.emit('left', { code: CLOSE_CODES.CONSENTED, reason: localError('LEFT', 'leave') });
    }
  }

  // ---- helpers for the screens ---------------------------------------------------------

  offerTargets() {
    return offerTargets(this.current);
  }

  passOptions() {
    return passOptions(this.current);
  }

  peekAvailability() {
    return peekAvailability(this.current);
  }

  // ---- internals -----------------------------------------------------------------------

  private play(action: ActionName, payload: Record<string, unknown>, shown?: number): Promise<void> {
    const step = shown ?? this.current.step;
    // The snapshot already shows a later turn: the server would refuse it the same way.
    if (step < this.current.step) return quiet(Promise.reject(new SdkError('STALE_ACTION', ROOM_MESSAGES.STALE_ACTION, action)));
    return this.send(action, { ...payload, step }, (s) => s.step > step, true);
  }

  private send(
    action: ClientMessageType,
    payload: Record<string, unknown>,
    done: (s: GameSnapshot) => boolean,
    resend: boolean,
  ): Promise<void> {
    // One game move at a time (the next one depends on the patch of this one).
    const busy = this.pending.has(action) || (GAME_ACTION_SET.has(action) && [...this.pending.keys()].some((k) => GAME_ACTION_SET.has(k)));
    if (busy) return quiet(Promise.reject(localError('ACTION_PENDING', action)));
    // Over: say why (the room closed, the seat is gone, I left), not "reconnecting".
    if (this.ended) return quiet(Promise.reject(errorFor(this.ended, action)));
    if (this.reconnecting || !this.room.connection.isOpen) return quiet(Promise.reject(localError('CONNECTION_LOST', action)));
    return quiet(
      new Promise<void>((resolve, reject) => {
        const p: Pending = { action, payload, done, resend, resolve, reject, timer: undefined };
        this.pending.set(action, p);
        this.transmit(p);
      }),
    );
  }

  private transmit(p: Pending) {
    clearTimeout(p.timer);
    p.timer = setTimeout(() => this.settle(p, localError('TIMEOUT', p.action)), this.options.actionTimeoutMs);
    this.room.send(p.action, p.payload);
  }

  private settle(p: Pending | undefined, error?: SdkError) {
    if (!p || this.pending.get(p.action) !== p) return;
    this.pending.delete(p.action);
    clearTimeout(p.timer);
    if (error) p.reject(error);
    else p.resolve();
  }

  private bind({ room, takeEarly }: OpenedRoom) {
    this.room = room;
    this.current = buildSnapshot(room.state, this.me, room.roomId, this.result, room.sessionId);
    // Handlers of a room this session gave up on (a silent socket) must stay quiet.
    const live = () => this.room === room && this.dropped !== room;
    room.onStateChange(() => {
      if (!live()) return;
      this.liveness.heard();
      this.onState(false);
    });
    const handlers: Record<string, (message: never) => void> = {
      [SERVER_MESSAGES.error]: (e: { code: string; message: string; action: string }) => {
        if (e.action === PING) return; // a server without `pong` still proves it is there
        const error = new SdkError(e.code as SdkErrorCode, e.message, e.action);
        // Removed, or replaced by my own identity elsewhere: the close that follows ends the session.
        if (error.code === 'KICKED' || error.code === 'REPLACED') this.dismissed = error;
        const p = this.pending.get(e.action);
        if (p) this.settle(p, error);
        else this.emit('error', error);
      },
      [SERVER_MESSAGES.chat]: (c: { from: string; phrase: ChatPhrase }) => {
        const nickname = this.current.seats.find((s) => s.id === c.from)?.nickname ?? '';
        this.emit('chat', { ...c, nickname, text: CHAT_PHRASES[c.phrase] ?? '' });
        this.onState(false);
      },
      [SERVER_MESSAGES.result]: (result: CockroachResult) => {
        // Coming back to an ended game sends the result again: announce it only if it is news.
        const known = this.result !== null && JSON.stringify(this.result) === JSON.stringify(result);
        this.result = result;
        this.onState(false);
        if (!known) this.emit('gameOver', result);
      },
      [SERVER_MESSAGES.pong]: () => undefined,
      [SERVER_MESSAGES.events]: (m: EventsMessage) => this.onEvents(m),
    };
    const deliver = (type: string, message: unknown) => {
      if (!live()) return;
      this.liveness.heard();
      handlers[type]?.(message as never);
    };
    for (const type of Object.keys(handlers)) room.onMessage(type, (message: unknown) => deliver(type, message));
    room.onLeave((code) => {
      if (live()) void this.onLeave(code);
    });
    for (const { type, message } of takeEarly()) deliver(type, message);
    if (!this.spectator) {
      void this.options.store.save({ roomId: room.roomId, sessionId: room.sessionId, token: room.reconnectionToken });
      this.liveness.start();
    }
  }

  private onState(reannounce: boolean) {
    const before = this.current;
    if (before.phase === 'ended' && this.room.state.phase === 'lobby') this.result = null; // a rematch
    const now = buildSnapshot(this.room.state, this.me, this.room.roomId, this.result, this.room.sessionId);
    this.current = now;
    if (now.round.deadline && now.round.deadline !== before.round.deadline) this.sampleOffset(now);
    for (const p of [...this.pending.values()]) if (p.done(now)) this.settle(p);
    this.emit('change', now);
    if (!reannounce && now.step === before.step && now.phase === before.phase) return;
    clearTimeout(this.turnTimer);
    if (now.myTurn) this.turnTimer = setTimeout(() => this.announceTurn(now.step), 0);
  }

  /**
   * `myTurn`, once the moves this patch settled have resumed their callers (a timer runs after
   * every promise continuation): a program that ignores turns while its last move is pending, and
   * moves only on `myTurn`, would otherwise miss the pass that follows its own peek. Said only if
   * the turn is still the one announced.
   */
  private announceTurn(step: number) {
    const now = this.current;
    if (this.ended || this.leaving || this.reconnecting || now.step !== step || !now.myTurn) return;
    this.emit('myTurn', { canDo: now.canDo, deadline: now.round.deadline, secondsLeft: this.secondsLeft() });
  }

  /**
   * What just happened, as the server tells each viewer (the `events` message follows the patch
   * it describes, so the snapshot already shows it): reveals, the card coming to me, and moves
   * the rules made for me.
   */
  private onEvents(message: EventsMessage) {
    for (const event of message.events) {
      if (event.type === 'revealed') {
        const { kind, claim, call, caller, correct, takenBy } = event;
        this.emit('revealed', { kind, claim, call, caller, correct, takenBy });
      } else if ((event.type === 'offered' || event.type === 'passed') && event.to === this.me) {
        this.emit('cardHandedToMe', { from: event.from, claim: event.claim });
      } else if (event.type === 'defaultMove' && event.player === this.me) {
        this.emit('movePlayedForMe', { move: event.move, reason: event.reason });
      }
    }
  }

  private sampleOffset(s: GameSnapshot) {
    // deadline = server now + turnSeconds at the moment the patch left: an offset minus latency.
    this.offsets.push(s.round.deadline - s.options.turnSeconds * 1000 - Date.now());
    if (this.offsets.length > 8) this.offsets.shift();
  }

  /** Nothing heard for `deadAfterMs`: close the dead socket without waiting for its close event, and resume. */
  private onSilent() {
    if (this.leaving || this.reconnecting) return;
    const dead = this.room;
    this.dropped = dead;
    void this.resumeSeat(SILENT_DROP);
    closeSocket(dead);
  }

  private async onLeave(code: number) {
    this.liveness.stop();
    clearTimeout(this.turnTimer);
    if (this.leaving) {
      // leave() announces `left` itself, once the server has confirmed (or could not).
      for (const p of [...this.pending.values()]) this.settle(p, localError('NOT_IN_ROOM', p.action));
      if (this.ended?.action === 'leave' && !this.reconnecting) this.emit('left', { code, reason: localError('LEFT', 'leave') });
      return;
    }
    if (this.dismissed || this.spectator || code === CLOSE_CODES.CONSENTED) {
      // Removed by the host or replaced (told just before the close), or the room itself closed
      // (the server closes with CONSENTED only then): the seat is gone from this connection. A
      // spectator has no seat to take back.
      const ended = this.dismissed ?? localError(this.spectator && code !== CLOSE_CODES.CONSENTED ? 'NOT_IN_ROOM' : 'ROOM_CLOSED', 'room');
      this.ended = ended;
      for (const p of [...this.pending.values()]) this.settle(p, errorFor(ended, p.action));
      if (!this.spectator) await this.forgetSeat(ended);
      this.emit('left', { code, reason: ended });
      return;
    }
    await this.resumeSeat(code);
  }

  /**
   * Forgets the saved seat once it is no longer this connection's. A replaced seat lives on with
   * the connection that took it: when that one shares this store (another tab of one browser),
   * its newer token is what the store now holds, and it stays.
   */
  private async forgetSeat(ended: SdkError): Promise<void> {
    if (ended.code === 'REPLACED') {
      const saved = await this.options.store.load();
      if (saved && saved.token !== this.room.reconnectionToken) return;
    }
    await this.options.store.clear();
  }

  private resumeSeat(code: number): Promise<void> {
    this.resuming = this.takeSeatBack(code).finally(() => {
      this.resuming = null;
      this.attempt = null;
    });
    return this.resuming;
  }

  private async takeSeatBack(code: number) {
    this.reconnecting = true;
    this.liveness.stop();
    const heardAt = this.liveness.heardAt;
    // Moves in flight wait for the reconnect: the fresh state says whether they were applied.
    for (const p of this.pending.values()) clearTimeout(p.timer);
    const now = Date.now();
    const identity = this.options.identity;
    this.attempt = new ReconnectAttempt(this.client, this.room.reconnectionToken, {
      firstDelayMs: RECONNECT_DELAY_MS,
      spreadMs: RECONNECT_SPREAD_MS,
      giveUpAt: now + this.options.graceSeconds * 1000,
      serverErrorUntil: now + this.options.serverErrorSeconds * 1000,
      goneAfter: Math.max(now, heardAt + this.options.serverNoticeMs),
      beforeTry: identity && (() => identity.apply()),
      renewIdentity: identity && ((refused) => identity.renew(refused)),
    });
    const running = this.attempt.run();
    this.emit('connectionLost', { code });
    const outcome = await running;
    this.reconnecting = false;
    if ('opened' in outcome) {
      // Back only to say goodbye: the server marks the seat left (away at once mid-game).
      if (this.leaving) {
        if (!(await leaveRoom(outcome.opened.room))) closeSocket(outcome.opened.room);
        return;
      }
      this.bind(outcome.opened);
      this.settleAfterReconnect();
      this.emit('reconnected', this.current);
      this.onState(true); // the fresh picture, and whose turn it is
      return;
    }
    if (this.leaving) return;
    const failed = outcome.error;
    this.ended = failed;
    for (const p of [...this.pending.values()]) this.settle(p, errorFor(failed, p.action));
    // A seat the server no longer holds is forgotten; one it could not be asked about (or that it failed to answer for) is kept for resume().
    if (failed.code !== 'CONNECTION_FAILED' && failed.code !== 'SERVER_ERROR') await this.options.store.clear();
    this.emit('reconnectFailed', failed);
    this.emit('left', { code, reason: failed });
  }

  /** A move sent just before the drop: applied → resolved; not applied → sent again (its step still guards it). */
  private settleAfterReconnect() {
    for (const p of [...this.pending.values()]) {
      if (p.done(this.current)) this.settle(p);
      else if (p.resend) this.transmit(p);
      else this.settle(p, localError('CONNECTION_LOST', p.action));
    }
  }
}

/** Leaves a room consented; false when the server did not confirm within LEAVE_CONFIRM_MS. */
async function leaveRoom(room: Room<CockroachState>): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const confirmed = await Promise.race([
    room.leave(true).then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), LEAVE_CONFIRM_MS))),
  ]);
  clearTimeout(timer);
  return confirmed;
}

/** Ends a socket that went silent. Node's `ws` can terminate at once; a browser closes as it can. */
function closeSocket(room: Room<CockroachState>) {
  try {
    if (!terminateSocket(room)) room.connection.close();
  } catch {
    // Already closed.
  }
}
