import { randomBytes } from 'node:crypto';
import { Dispatcher } from '@colyseus/command';
import { Client, ErrorCode as ColyseusErrorCode, Protocol, Room, ServerError } from 'colyseus';
import { activePlayer, gameResult, GameOptions, Match, MAX_PLAYERS, PlayerId, RuleError, Action } from '../rules';
import { CockroachState } from '../schema/CockroachState';
import { addSeatedPlayer, projectGame, projectOptions, removeSeatedPlayer, setDeadline, setHost, setPresence } from '../project';
import { COMMANDS } from '../commands';
import { TimeoutCommand } from '../commands/TimeoutCommand';
import { TurnClock } from './TurnClock';
import { errorReply, ErrorCode, joinErrorText, replyFromRule } from './errors';
import { JoinRequest, parseJoinOptions } from './joinOptions';
import { RateLimiter } from './RateLimiter';
import { isDraining } from '../ops/drain';
import { log } from '../ops/log';
import * as metrics from '../ops/metrics';

export const MAX_SPECTATORS = 10;
const CHAT_BURST = 5;
const CHAT_REFILL_MS = 2000;
/**
 * After the clock played a player's turn, an action of theirs without `step` arriving this soon
 * was meant for the turn that is gone, not for a new one (a human cannot see and answer a new
 * turn that fast). With `step` the check is exact.
 */
export const LATE_ACTION_WINDOW_MS = 2000;
/** A tapping child stays far below these; a script flooding does not. */
export const DEFAULT_MESSAGE_BURST = 20;
export const DEFAULT_MESSAGES_PER_SECOND = 10;
/** Messages refused in a row for rate before the connection is closed. */
export const FLOOD_DISCONNECT_AFTER = 50;
/**
 * The room's one timer. It advances the room clock (turn deadlines, reconnection grace: they fire
 * up to this late) and drives the heartbeat; patches do not wait for it.
 */
export const TICK_MS = 1000;
/** Ping this room's sockets every this many ticks; one that missed this many pongs is cut. */
export const HEARTBEAT_TICKS = 3;
export const HEARTBEAT_MISSES = 2;

export interface RoomSettings {
  reconnectGraceSeconds: number;
  /** Every client message: a burst of this many, then `messagesPerSecond`. */
  messageBurst: number;
  messagesPerSecond: number;
  /** Tests only: a fixed seed source. Clients can never choose the seed. */
  seed?: () => string;
}

export interface RoomMetadata {
  phase: CockroachState['phase'];
  seats: number;
  maxSeats: number;
  spectators: number;
  host: string;
  options: GameOptions;
}

/**
 * Lifecycle, seats and the single path every game change takes. Rules live in ../rules, schema
 * writes in ../project, message handling in ../commands.
 */
export class CockroachRoom extends Room<CockroachState, RoomMetadata> {
  static settings: RoomSettings = { reconnectGraceSeconds: 90, messageBurst: DEFAULT_MESSAGE_BURST, messagesPerSecond: DEFAULT_MESSAGES_PER_SECOND };

  maxClients = MAX_PLAYERS + MAX_SPECTATORS;
  readonly dispatcher = new Dispatcher(this);
  readonly spectators = new Set<string>();
  readonly chatLimiter = new RateLimiter(CHAT_BURST, CHAT_REFILL_MS, () => this.turnClock.now());
  private readonly messageLimiter = new RateLimiter(
    CockroachRoom.settings.messageBurst,
    1000 / CockroachRoom.settings.messagesPerSecond,
    () => this.turnClock.now(),
  );
  /** Consecutive messages refused for rate, per client. */
  private readonly floodStreak = new Map<string, number>();
  private failed = false;
  match: Match | null = null;
  private gameOptions!: GameOptions;
  private isPrivate = false;
  private resultSent = false;
  private readonly turnClock = new TurnClock(this.clock, (step) => this.dispatcher.dispatch(new TimeoutCommand(), { step }));
  /** When the clock last played each player's turn (room clock ms). */
  private readonly autoPlayedAt = new Map<PlayerId, number>();
  private ticks = 0;

  onCreate(raw: unknown) {
    // A plain-object handler table would answer "__proto__" or "constructor" with a prototype
    // member and crash the process; with no prototype those fall through to "*".
    (this as unknown as { onMessageHandlers: object }).onMessageHandlers = Object.create(null);
    const join = this.parseJoin(raw);
    if (join.spectator) throw refusal('SPECTATOR_CANNOT_CREATE');
    if (isDraining()) throw refusal('SERVER_DRAINING');
    this.gameOptions = join.options;
    this.isPrivate = join.private;
    this.setState(new CockroachState());
    projectOptions(this.state, this.gameOptions, this.isPrivate);
    // No 50 ms patch interval (it fired in every room whether anything changed or not): each
    // change sends its own patch. One tick a second keeps the clock and the heartbeat going.
    this.setPatchRate(null);
    this.setSimulationInterval(() => this.tick(), TICK_MS);

    for (const type of Object.keys(COMMANDS)) {
      const CommandClass = COMMANDS[type];
      this.onMessage(type, (client, message) => {
        if (this.admit(client, type)) this.dispatcher.dispatch(new CommandClass(), { client, message });
      });
    }
    // The transport guard closes on unknown types first; this answers if it is ever bypassed.
    this.onMessage('*', (client, type) => {
      if (this.admit(client, '')) this.refuse(client, 'UNKNOWN_MESSAGE', echoType(type));
    });
    this.updateListing();
  }

  onAuth(_client: Client, raw: unknown): JoinRequest {
    const join = this.parseJoin(raw);
    this.assertSeatFor(join);
    return join;
  }

  onJoin(client: Client, _raw: unknown, auth?: JoinRequest) {
    const join = auth!;
    // Re-checked here: two joins may both have passed onAuth before either took a seat.
    this.assertSeatFor(join);
    if (join.spectator) {
      this.spectators.add(client.sessionId);
    } else {
      addSeatedPlayer(this.state, client.sessionId, join.nickname);
      if (!this.state.hostId) setHost(this.state, client.sessionId);
    }
    this.broadcastPatch();
    this.updateListing();
  }

  async onLeave(client: Client, consented: boolean) {
    const id = client.sessionId;
    this.chatLimiter.forget(id);
    this.messageLimiter.forget(id);
    this.floodStreak.delete(id);
    if (this.failed) return;
    if (this.spectators.delete(id)) return this.updateListing();
    if (!this.state.players.has(id)) return;

    if (this.state.phase === 'lobby') {
      removeSeatedPlayer(this.state, id);
      if (this.state.hostId === id) setHost(this.state, this.state.players.keys().next().value ?? null);
      this.broadcastPatch();
      return this.updateListing();
    }
    if (this.state.phase === 'ended' || consented) return this.markAway(id);

    setPresence(this.state, id, { connected: false });
    this.broadcastPatch();
    const reconnection = this.allowReconnection(client, 'manual');
    const grace = this.clock.setTimeout(() => reconnection.reject(new Error('grace period over')), CockroachRoom.settings.reconnectGraceSeconds * 1000);
    try {
      await reconnection;
      grace.clear();
      metrics.reconnection(this.roomId, id, 'reconnected');
      if (!this.state.players.get(id)?.away) setPresence(this.state, id, { connected: true });
      this.broadcastPatch();
    } catch {
      grace.clear();
      metrics.reconnection(this.roomId, id, 'expired');
      this.markAway(id);
    }
  }

  onUncaughtException(error: Error & { cause?: unknown }, methodName: string) {
    // Our own join refusals pass through here on their way to the client: nothing went wrong.
    if (error.cause instanceof ServerError) return;
    // A failed join or leave concerns one client; a failed action or timer may have left the
    // game half-changed, and a half-changed game must not go on.
    if (methodName === 'onMessage' || methodName === 'setTimeout' || methodName === 'setInterval') this.fail(methodName, error.cause ?? error);
    else log.error('room.uncaught', { roomId: this.roomId, method: methodName }, error.cause ?? error);
  }

  /** Encoding runs on Colyseus's own patch interval too, outside every handler: contain it here. */
  broadcastPatch(): boolean {
    try {
      return super.broadcastPatch();
    } catch (error) {
      this.fail('broadcastPatch', error);
      return false;
    }
  }

  /**
   * This room cannot go on: tell its clients (no internals), stop its timers and commands, and
   * close it. Other rooms and the process are untouched.
   */
  private fail(where: string, error: unknown): void {
    if (this.failed) return;
    this.failed = true;
    metrics.roomFailed(this.roomId, where, error);
    this.turnClock.stop();
    this.dispatcher.stop();
    this.broadcast('error', errorReply('SERVER_ERROR', ''));
    this.disconnect(Protocol.WS_CLOSE_WITH_ERROR).catch(() => undefined);
  }

  /**
   * Per-client token bucket over every message. The first refused message of a streak is
   * answered with RATE_LIMITED, the rest silently; a long streak closes the connection.
   */
  private admit(client: Client, type: string): boolean {
    const id = client.sessionId;
    if (this.messageLimiter.take(id)) {
      this.floodStreak.delete(id);
      return true;
    }
    const streak = (this.floodStreak.get(id) ?? 0) + 1;
    this.floodStreak.set(id, streak);
    if (streak === 1) this.refuse(client, 'RATE_LIMITED', type);
    if (streak === FLOOD_DISCONNECT_AFTER) client.leave(Protocol.WS_CLOSE_WITH_ERROR);
    return false;
  }

  /** Sends `error` { code, message, action } to one client; nothing else changes. */
  refuse(client: Client, code: ErrorCode | RuleError, action: string): void {
    metrics.refused(this.roomId, action, typeof code === 'string' ? code : code.code);
    client.send('error', typeof code === 'string' ? errorReply(code, action) : replyFromRule(code, action));
  }

  startGame(): void {
    const seed = CockroachRoom.settings.seed?.() ?? randomBytes(16).toString('hex');
    const started = Match.start(seed, [...this.state.players.keys()], this.gameOptions);
    if (!started.ok) throw new Error(`start refused: ${started.error.code}`);
    this.match = started.match;
    this.applyGameChange();
    metrics.gameStarted(this.roomId, this.state.players.size);
    this.updateListing();
  }

  /** A player's action through the rules; applied actions are logged by the match. */
  play(client: Client, action: Action, actionName: string, step: number | undefined): void {
    const startedMs = metrics.actionTimer();
    const id = client.sessionId;
    const autoPlayed = this.autoPlayedAt.get(id);
    if (step === undefined && autoPlayed !== undefined && this.turnClock.now() - autoPlayed < LATE_ACTION_WINDOW_MS) {
      return this.refuse(client, 'STALE_ACTION', actionName);
    }
    const result = this.match!.act(id, action);
    if (!result.ok) return this.refuse(client, result.error, actionName);
    this.autoPlayedAt.delete(id);
    this.applyGameChange();
    metrics.actionApplied(this.roomId, actionName, id, this.match!.game.step, startedMs);
  }

  /** The turn clock expired at `step`: play the default action for whoever had to act. */
  playDefault(step: number): void {
    const match = this.match;
    if (!match || match.game.phase !== 'playing' || match.game.step !== step) return;
    const played = match.actByDefault();
    if (played) this.autoPlayedAt.set(played.player, this.turnClock.now());
    if (played) metrics.turnTimedOut(this.roomId, step);
    this.applyGameChange();
  }

  /**
   * The single way a game change reaches clients: away players act at once, the schema follows
   * the game, and the patch leaves now rather than on the next tick.
   */
  private applyGameChange(): void {
    const match = this.match!;
    while (match.game.phase === 'playing' && this.isAway(activePlayer(match.game)!)) match.actByDefault();
    projectGame(this.state, match.game);
    // Every applied action hands the decision to someone new, or (a peek) asks for a new one.
    if (match.game.phase === 'playing') setDeadline(this.state, this.turnClock.restart(match.game.options.turnSeconds * 1000, match.game.step));
    else {
      this.turnClock.stop();
      setDeadline(this.state, 0);
    }
    this.broadcastPatch();
    if (match.game.phase === 'ended' && !this.resultSent) {
      this.resultSent = true;
      metrics.gameEnded(this.roomId, match.game.lossReason ?? '', match.game.step);
      this.broadcast('result', gameResult(match.game, this.nicknames()));
      this.updateListing();
      if (this.everyoneAway()) this.disconnect().catch(() => undefined);
    }
  }

  private markAway(id: PlayerId): void {
    setPresence(this.state, id, { connected: false, away: true });
    if (this.match && this.state.phase === 'playing') this.applyGameChange();
    else this.broadcastPatch();
  }

  /** Once a second (TICK_MS); Colyseus has advanced the room clock just before. */
  private tick(): void {
    // Every change already sent its own patch: this only catches one that did not.
    this.broadcastPatch();
    if (++this.ticks % HEARTBEAT_TICKS === 0) heartbeat(this.clients);
  }

  private isAway(id: PlayerId): boolean {
    return this.state.players.get(id)?.away === true;
  }

  private everyoneAway(): boolean {
    return [...this.state.players.values()].every((p) => p.away);
  }

  nicknames(): Record<PlayerId, string> {
    const names: Record<PlayerId, string> = {};
    this.state.players.forEach((p, id) => (names[id] = p.nickname));
    return names;
  }

  private parseJoin(raw: unknown): JoinRequest {
    const parsed = parseJoinOptions(raw);
    if (!parsed.ok) throw refusal(parsed.code, parsed.field);
    return parsed.join;
  }

  private assertSeatFor(join: JoinRequest): void {
    if (join.spectator) {
      if (this.spectators.size >= MAX_SPECTATORS) throw refusal('SPECTATORS_FULL');
    } else {
      if (this.state.phase !== 'lobby') throw refusal('LATE_JOIN');
      if (this.state.players.size >= MAX_PLAYERS) throw refusal('ROOM_FULL');
    }
  }

  /** Listed for quick match only while an open lobby has a free seat. */
  private updateListing(): void {
    const hidden = this.isPrivate || this.state.phase !== 'lobby' || this.state.players.size >= MAX_PLAYERS;
    const host = this.state.players.get(this.state.hostId)?.nickname ?? '';
    void this.setPrivate(hidden).catch(() => undefined);
    void this.setMetadata({
      phase: this.state.phase,
      seats: this.state.players.size,
      maxSeats: MAX_PLAYERS,
      spectators: this.spectators.size,
      host,
      options: { ...this.gameOptions, ...(this.match ? { loseCount: this.match.game.options.loseCount } : {}) },
    }).catch(() => undefined);
  }
}

/** Join and create refusals travel as "CODE: 한국어" (matchmaking carries one string). */
function refusal(code: ErrorCode, field?: string): ServerError {
  return new ServerError(ColyseusErrorCode.APPLICATION_ERROR, joinErrorText(code, field));
}

type PingableSocket = { readyState: number; pingCount?: number; ping(cb: () => void): void; terminate(): void };
const noop = () => undefined;

/**
 * The transport's dead-socket check (server/app.ts turns its own off), room by room: the stock
 * one pings every socket of the process in one synchronous loop, a stall of tens of ms per
 * thousand sockets; rooms tick at different moments, so this spreads the same work out. Pongs
 * reset `pingCount` (the transport's own pong handler).
 */
export function heartbeat(clients: Iterable<Client>): void {
  for (const client of clients) {
    const ws = (client as unknown as { ref?: PingableSocket }).ref;
    if (!ws || typeof ws.ping !== 'function' || ws.readyState !== 1) continue;
    if ((ws.pingCount ?? 0) >= HEARTBEAT_MISSES) {
      ws.terminate();
      continue;
    }
    ws.pingCount = (ws.pingCount ?? 0) + 1;
    ws.ping(noop);
  }
}

function echoType(type: unknown): string {
  return typeof type === 'string' && /^[A-Za-z0-9_]{1,32}$/.test(type) ? type : '';
}
