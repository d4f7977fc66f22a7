import type { Client, Room } from 'colyseus.js';
import type { Kind } from '../server/rules/kinds';
import type { CockroachResult } from '../server/rules/result';
import { CHAT_PHRASES, ChatPhrase, CLOSE_CODES, GAME_ACTIONS, SERVER_MESSAGES } from '../server/protocol';
import { CockroachState } from '../server/schema/CockroachState';
import { Emitter } from './emitter';
import { localError, SdkError } from './errors';
import { ActionName, offerTargets, passOptions, peekAvailability } from './helpers';
import { buildSnapshot, GameSnapshot, RevealSnapshot } from './snapshot';
import { firstState } from './firstState';
import type { TokenStore } from './tokenStore';

export interface SessionEvents extends Record<string, unknown> {
  /** The decoded state changed: a fresh snapshot. */
  change: GameSnapshot;
  /** It is my turn: what I may do, and the time left on the server's clock. */
  myTurn: { canDo: ActionName[]; deadline: number; secondsLeft: number };
  /** Someone handed me the card in flight with this claim. */
  cardHandedToMe: { from: string; claim: Kind };
  revealed: RevealSnapshot;
  gameOver: CockroachResult;
  chat: { from: string; nickname: string; phrase: ChatPhrase; text: string };
  /** A refusal not tied to a pending call of this SDK (e.g. a late message). */
  error: SdkError;
  connectionLost: { code: number };
  reconnected: GameSnapshot;
  reconnectFailed: SdkError;
  /** The session is over: I left, or the room closed. */
  left: { code: number };
}

interface Pending {
  action: string;
  done: (s: GameSnapshot) => boolean;
  resolve: () => void;
  reject: (e: SdkError) => void;
  timer: ReturnType<typeof setTimeout>;
}

export interface SessionOptions {
  store: TokenStore;
  /** How long to keep retrying after a drop: the server's grace (90 s). */
  graceSeconds: number;
  /** How long an action may wait for its patch or refusal. */
  actionTimeoutMs: number;
}

const GAME_ACTION_SET: ReadonlySet<string> = new Set(GAME_ACTIONS);

/**
 * One seat (or a spectator's place) in one room: actions that settle when the server applied or
 * refused them, a typed snapshot, events for the screens, and automatic resume after a drop.
 */
export class GameSession extends Emitter<SessionEvents> {
  private room!: Room<CockroachState>;
  private current!: GameSnapshot;
  private result: CockroachResult | null = null;
  private readonly pending = new Map<string, Pending>();
  private leaving = false;
  private offsets: number[] = [];

  constructor(
    private readonly client: Client,
    room: Room<CockroachState>,
    readonly spectator: boolean,
    private readonly options: SessionOptions,
  ) {
    super();
    this.bind(room);
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

  /** Server time now, estimated from deadlines (each one is the server's now + turnSeconds). */
  serverNow(): number {
    return Date.now() + (this.offsets.length ? Math.max(...this.offsets) : 0);
  }

  secondsLeft(): number {
    const deadline = this.current.round.deadline;
    return deadline ? Math.max(0, Math.ceil((deadline - this.serverNow()) / 1000)) : 0;
  }

  // ---- actions -------------------------------------------------------------------------

  start(): Promise<void> {
    return this.send('start', {}, (s) => s.phase !== 'lobby');
  }

  offer(cardId: number, to: string, claim: Kind): Promise<void> {
    return this.play('offer', { cardId, to, claim });
  }

  /** `true`: "진짜!" (the claim is true); `false`: "거짓말!". */
  call(claimIsTrue: boolean): Promise<void> {
    return this.play('call', { call: claimIsTrue ? 'true' : 'false' });
  }

  peek(): Promise<void> {
    return this.play('peek', {});
  }

  pass(to: string, claim: Kind): Promise<void> {
    return this.play('pass', { to, claim });
  }

  /** Resolves when my phrase comes back from the server (everyone got it). */
  chat(phrase: ChatPhrase): Promise<void> {
    let heard = false;
    const off = this.on('chat', (c) => {
      if (c.from === this.me && c.phrase === phrase) heard = true;
    });
    return this.send('chat', { phrase }, () => heard).finally(off);
  }

  /** Leaves on purpose (mid-game this makes me away at once); the saved seat is forgotten. */
  async leave(): Promise<void> {
    this.leaving = true;
    for (const p of [...this.pending.values()]) this.settle(p, localError('NOT_IN_ROOM', p.action));
    await this.options.store.clear();
    await this.room.leave(true).catch(() => undefined);
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

  private play(action: ActionName, payload: Record<string, unknown>): Promise<void> {
    const step = this.current.step;
    return this.send(action, { ...payload, step }, (s) => s.step > step);
  }

  private send(action: string, payload: Record<string, unknown>, done: (s: GameSnapshot) => boolean): Promise<void> {
    // One game move at a time (the next one depends on the patch of this one).
    const busy = this.pending.has(action) || (GAME_ACTION_SET.has(action) && [...this.pending.keys()].some((k) => GAME_ACTION_SET.has(k)));
    if (busy) return Promise.reject(localError('ACTION_PENDING', action));
    if (!this.room.connection.isOpen) return Promise.reject(localError('CONNECTION_LOST', action));
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => this.settle(this.pending.get(action)!, localError('TIMEOUT', action)), this.options.actionTimeoutMs);
      this.pending.set(action, { action, done, resolve, reject, timer });
      this.room.send(action, payload);
    });
  }

  private settle(p: Pending | undefined, error?: SdkError) {
    if (!p || this.pending.get(p.action) !== p) return;
    this.pending.delete(p.action);
    clearTimeout(p.timer);
    if (error) p.reject(error);
    else p.resolve();
  }

  private bind(room: Room<CockroachState>) {
    this.room = room;
    this.current = buildSnapshot(room.state, this.me, room.roomId, this.result);
    room.onStateChange(() => this.onState());
    room.onMessage(SERVER_MESSAGES.error, (e: { code: string; message: string; action: string }) => {
      const error = new SdkError(e.code, e.message, e.action);
      const p = this.pending.get(e.action);
      if (p) this.settle(p, error);
      else this.emit('error', error);
    });
    room.onMessage(SERVER_MESSAGES.chat, (c: { from: string; phrase: ChatPhrase }) => {
      const nickname = this.current.seats.find((s) => s.id === c.from)?.nickname ?? '';
      this.emit('chat', { ...c, nickname, text: CHAT_PHRASES[c.phrase] ?? '' });
      this.onState();
    });
    room.onMessage(SERVER_MESSAGES.result, (result: CockroachResult) => {
      this.result = result;
      this.onState();
      this.emit('gameOver', result);
    });
    room.onLeave((code) => this.onLeave(code));
    if (!this.spectator) void this.options.store.save({ roomId: room.roomId, sessionId: room.sessionId, token: room.reconnectionToken });
  }

  private onState() {
    const before = this.current;
    const now = buildSnapshot(this.room.state, this.me, this.room.roomId, this.result);
    this.current = now;
    if (now.round.deadline && now.round.deadline !== before.round.deadline) this.sampleOffset(now);
    for (const p of [...this.pending.values()]) if (p.done(now)) this.settle(p);
    this.emit('change', now);
    if (now.step === before.step && now.phase === before.phase) return;
    if (now.lastReveal && now.round.no !== before.round.no) this.emit('revealed', now.lastReveal);
    const cameToMe = before.round.holder !== this.me || before.round.no !== now.round.no || !before.round.hasCard;
    if (now.round.hasCard && now.round.holder === this.me && cameToMe) {
      this.emit('cardHandedToMe', { from: now.round.lastPasser!, claim: now.round.claim! });
    }
    if (now.myTurn) this.emit('myTurn', { canDo: now.canDo, deadline: now.round.deadline, secondsLeft: this.secondsLeft() });
  }

  private sampleOffset(s: GameSnapshot) {
    // deadline = server now + turnSeconds at the moment the patch left: an offset minus latency.
    this.offsets.push(s.round.deadline - s.options.turnSeconds * 1000 - Date.now());
    if (this.offsets.length > 8) this.offsets.shift();
  }

  private async onLeave(code: number) {
    for (const p of [...this.pending.values()]) this.settle(p, localError('CONNECTION_LOST', p.action));
    if (this.leaving || code === CLOSE_CODES.CONSENTED || this.spectator) {
      this.emit('left', { code });
      return;
    }
    this.emit('connectionLost', { code });
    const token = this.room.reconnectionToken;
    const giveUpAt = Date.now() + this.options.graceSeconds * 1000;
    for (let delay = 250; !this.leaving && Date.now() < giveUpAt; delay = Math.min(delay * 2, 8000)) {
      await new Promise((resolve) => setTimeout(resolve, delay));
      try {
        const room = await this.client.reconnect<CockroachState>(token, CockroachState);
        await firstState(room);
        this.bind(room);
        this.onState();
        this.emit('reconnected', this.current);
        return;
      } catch {
        // The server may not have noticed the drop yet, or the network is still down: retry.
      }
    }
    await this.options.store.clear();
    const failed = localError('CONNECTION_LOST', 'reconnect');
    this.emit('reconnectFailed', failed);
    this.emit('left', { code });
  }
}
