import { randomBytes } from 'node:crypto';
import { Dispatcher } from '@colyseus/command';
import { Client, ErrorCode as ColyseusErrorCode, Protocol, Room, ServerError } from 'colyseus';
import { GameOptions, PlayerId, RuleError } from '../rules';
import { CockroachState } from '../schema/CockroachState';
import { addSeatedPlayer, projectOptions, removeSeatedPlayer, setHost, setPresence } from '../project';
import { COMMANDS } from '../commands';
import type { RoomCommand } from '../commands/RoomCommand';
import { CLIENT_MESSAGES, ClientMessageType, ErrorCode, GameActionType, GAME_ACTIONS, SERVER_MESSAGES } from '../protocol';
import { Table, TableHost } from '../table/Table';
import type { FinishedGameRecord } from '../fairness';
import { heartbeat } from '../transport/heartbeat';
import { createBot, botNickname } from '../bots';
import type { BotLevel } from './payloads';
import { Admission } from './admission';
import {
  CHAT_BURST,
  CHAT_REFILL_MS,
  DEFAULT_ROOM_SETTINGS,
  HEARTBEAT_MISSES,
  HEARTBEAT_MS,
  botTickMs,
  MAX_CLIENTS,
  MAX_SPECTATORS,
  PING_BURST,
  PING_REFILL_MS,
  RoomSettings,
  TICK_MS,
} from './constants';
import { errorReply, joinErrorText, replyFromRule } from './errors';
import { JoinRequest, parseJoinOptions } from './joinOptions';
import { listingFor, RoomMetadata } from './listing';
import { RateLimiter } from './RateLimiter';
import { stopConstructorTimers } from './reservations';
import { isDraining } from '../ops/drain';
import { log } from '../ops/log';
import * as metrics from '../ops/metrics';

export type { RoomMetadata } from './listing';

const GAME_ACTION_SET: ReadonlySet<string> = new Set(GAME_ACTIONS);

/** A dropped player's reconnection, held open by the room (Colyseus's "manual" mode). */
interface HeldSeat {
  reject(): void;
  grace: { clear(): void };
}

/**
 * The Colyseus adapter over the table (server/table/): joins, leaves and reconnections, message
 * dispatch with flood control, patches, listing, and containment of a failing room. Every game
 * decision is the table's.
 */
export class CockroachRoom extends Room<CockroachState, RoomMetadata> {
  static settings: RoomSettings = { ...DEFAULT_ROOM_SETTINGS };
  /** Where finished games go (server/store/: the writer queues, retries and never blocks a room). */
  static records: { write(record: FinishedGameRecord): void } | null = null;

  maxClients = MAX_CLIENTS;
  readonly dispatcher = new Dispatcher(this);
  readonly spectators = new Set<string>();
  readonly chatLimiter = new RateLimiter(CHAT_BURST, CHAT_REFILL_MS, () => this.now());
  readonly pingLimiter = new RateLimiter(PING_BURST, PING_REFILL_MS, () => this.now());
  private readonly admission = new Admission(CockroachRoom.settings.messageBurst, CockroachRoom.settings.messagesPerSecond, () =>
    this.now(),
  );
  /** Set while a message over the rate limit is tried as a move: a refusal then reads RATE_LIMITED. */
  private overLimit = false;
  private failed = false;
  table!: Table;
  private isPrivate = false;
  private readonly held = new Map<PlayerId, HeldSeat>();
  private lastHeartbeat = 0;
  private tickMs = TICK_MS;

  onCreate(raw: unknown) {
    stopConstructorTimers(this); // a create refused below leaves no patch interval or dispose timer
    // A plain-object handler table would answer "__proto__" or "constructor" with a prototype
    // member and crash the process; with no prototype those fall through to "*".
    (this as unknown as { onMessageHandlers: object }).onMessageHandlers = Object.create(null);
    const join = this.parseJoin(raw);
    if (join.spectator) throw refusal('SPECTATOR_CANNOT_CREATE');
    if (isDraining()) throw refusal('SERVER_DRAINING');
    this.isPrivate = join.private;
    this.setState(new CockroachState());
    this.table = new Table(
      this.tableHost(),
      join.options,
      { botThinkMs: CockroachRoom.settings.botThinkMs, seed: CockroachRoom.settings.seed },
      this.roomId,
    );
    projectOptions(this.state, join.options, this.isPrivate);
    // No patch interval (it fired in every room whether anything changed or not): each change
    // sends its own patch. One tick runs the table's timers and the heartbeat.
    this.setPatchRate(null);
    this.retick();

    for (const type of CLIENT_MESSAGES) {
      const CommandClass = COMMANDS[type];
      this.onMessage(type, (client, message) => this.receive(client, type, CommandClass, message));
    }
    // The transport guard closes on unknown types first; this answers if it is ever bypassed.
    this.onMessage('*', (client, type) => {
      if (!this.admission.hasRoom(client.sessionId))
        return this.admission.refuse(client, () => this.reply(client, 'RATE_LIMITED', echoType(type)));
      this.admission.charge(client.sessionId);
      this.refuse(client, 'UNKNOWN_MESSAGE', echoType(type));
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
      this.table.seated(client.sessionId, join.entropy);
      if (!this.state.hostId) setHost(this.state, client.sessionId);
    }
    this.broadcastPatch();
    this.sendResultTo(client);
    this.updateListing();
  }

  async onLeave(client: Client, consented: boolean) {
    const id = client.sessionId;
    this.chatLimiter.forget(id);
    this.pingLimiter.forget(id);
    this.admission.forget(id);
    if (this.failed) return;
    if (this.spectators.delete(id)) return this.updateListing();
    if (!this.state.players.has(id)) return;
    if (consented) {
      if (this.state.phase === 'lobby') return this.removeSeat(id);
      return this.markAway(id);
    }
    setPresence(this.state, id, { connected: false });
    this.broadcastPatch();
    const back = await this.holdSeat(client);
    if (!back || !this.state.players.has(id)) return;
    setPresence(this.state, id, { connected: true, away: false });
    if (!this.state.players.has(this.state.hostId)) setHost(this.state, id);
    this.broadcastPatch();
    this.sendResultTo(back);
  }

  /**
   * Keeps a dropped player's seat: in the lobby for a short grace, then the seat is freed; in a
   * game for the grace, then the player is away (their turns play at once) but the seat stays
   * theirs to take back until a rematch or the room closes (PROTOCOL v2 "Seats come back").
   * Resolves with the returning client, or null when the seat was given up.
   */
  private async holdSeat(client: Client): Promise<Client | null> {
    const id = client.sessionId;
    const reconnection = this.allowReconnection(client, 'manual');
    const { lobbyGraceSeconds, reconnectGraceSeconds } = CockroachRoom.settings;
    const droppedAt = this.now();
    // A lobby seat waits the short grace; a game seat the full one, counted from the drop even
    // when the game started meanwhile.
    const expire = () => {
      if (this.state.phase === 'lobby') return this.releaseSeat(id);
      const left = droppedAt + reconnectGraceSeconds * 1000 - this.now();
      const held = this.held.get(id);
      if (left > 0 && held) return void (held.grace = this.table.timers.after(left, expire));
      metrics.reconnection(this.roomId, id, 'expired');
      this.markAway(id);
    };
    const seconds = this.state.phase === 'lobby' ? lobbyGraceSeconds : reconnectGraceSeconds;
    const seat: HeldSeat = {
      reject: () => reconnection.reject(new Error('seat released')),
      grace: this.table.timers.after(seconds * 1000, expire),
    };
    this.held.set(id, seat);
    try {
      const back = await reconnection;
      metrics.reconnection(this.roomId, id, 'reconnected');
      return back;
    } catch {
      return null;
    } finally {
      seat.grace.clear();
      if (this.held.get(id) === seat) this.held.delete(id);
    }
  }

  /** Gives up a held seat: the reconnection is refused and the seat is freed. */
  private releaseSeat(id: PlayerId): void {
    this.held.get(id)?.reject();
    this.held.delete(id);
    this.removeSeat(id);
  }

  private removeSeat(id: PlayerId): void {
    removeSeatedPlayer(this.state, id);
    this.table.unseated(id);
    if (this.state.hostId === id) setHost(this.state, this.table.firstPresentHuman());
    this.broadcastPatch();
    this.updateListing();
  }

  private markAway(id: PlayerId): void {
    setPresence(this.state, id, { connected: false, away: true });
    // At the results screen someone present must be able to ask for a rematch.
    if (this.state.phase === 'ended' && this.state.hostId === id) setHost(this.state, this.table.firstPresentHuman());
    this.table.presenceChanged();
    if (this.state.phase === 'ended' && this.table.everyHumanAway()) this.disconnect().catch(() => undefined);
  }

  onUncaughtException(error: Error & { cause?: unknown }, methodName: string) {
    // Our own join refusals pass through here on their way to the client: nothing went wrong.
    if (error.cause instanceof ServerError) return;
    // A failed join or leave concerns one client; a failed action or timer may have left the
    // game half-changed, and a half-changed game must not go on.
    if (
      methodName === 'onMessage' ||
      methodName === 'setSimulationInterval' ||
      methodName === 'setTimeout' ||
      methodName === 'setInterval'
    ) {
      this.fail(methodName, error.cause ?? error);
    } else log.error('room.uncaught', { roomId: this.roomId, method: methodName }, error.cause ?? error);
  }

  /** Encoding runs outside every handler too (a tick, a leave): contain it here. */
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
    this.table?.stop();
    this.dispatcher.stop();
    this.broadcast(SERVER_MESSAGES.error, errorReply('SERVER_ERROR', ''));
    this.disconnect(Protocol.WS_CLOSE_WITH_ERROR).catch(() => undefined);
  }

  onDispose() {
    this.table?.stop();
  }

  /**
   * Every message passes flood control, except that a move the rules accept is never refused
   * or charged for rate: over the limit, a game action is still tried, and only a refusal is
   * answered (once per streak) with RATE_LIMITED.
   */
  private receive(client: Client, type: ClientMessageType, CommandClass: new () => RoomCommand, message: unknown): void {
    const id = client.sessionId;
    if (type === 'ping')
      return void (
        this.admission.admitPing(client, () => this.reply(client, 'RATE_LIMITED', type)) &&
        this.dispatcher.dispatch(new CommandClass(), { client, message })
      );
    const within = this.admission.hasRoom(id);
    const isMove = GAME_ACTION_SET.has(type);
    if (!within && !isMove) return this.admission.refuse(client, () => this.reply(client, 'RATE_LIMITED', type));
    const stepBefore = this.table.match?.game.step;
    this.overLimit = !within;
    try {
      this.dispatcher.dispatch(new CommandClass(), { client, message });
    } finally {
      this.overLimit = false;
    }
    if (isMove && this.table.match?.game.step !== stepBefore) return this.admission.moved(id);
    if (within) {
      this.admission.charge(id);
      this.admission.admitted(id);
    }
  }

  /** Sends `error` { code, message, action } to one client; nothing else changes. */
  refuse(client: Client, code: ErrorCode | RuleError, action: string): void {
    if (this.overLimit) return this.admission.refuse(client, () => this.reply(client, 'RATE_LIMITED', action));
    this.reply(client, code, action);
  }

  private reply(client: Client, code: ErrorCode | RuleError, action: string): void {
    metrics.refused(this.roomId, action, typeof code === 'string' ? code : code.code);
    client.send(SERVER_MESSAGES.error, typeof code === 'string' ? errorReply(code, action) : replyFromRule(code, action));
  }

  startGame(): void {
    this.table.start();
    this.updateListing();
  }

  rematch(): void {
    // PROTOCOL v2: the away and the gone lose their seats; a dropped player within the grace
    // keeps it (the grace timer frees it if they do not come back).
    for (const [id, player] of this.state.players) if (player.away) this.releaseSeat(id);
    this.table.rematch();
    this.updateListing();
  }

  addBot(level: BotLevel): void {
    const id = `bot_${randomBytes(6).toString('hex')}`;
    const taken = new Set([...this.state.players.values()].map((p) => p.nickname));
    let n = 0;
    while (taken.has(botNickname(n))) n++;
    addSeatedPlayer(this.state, id, botNickname(n), true);
    this.table.seatBot(id, createBot(level, randomBytes(16).toString('hex')));
    this.retick();
    this.broadcastPatch();
    this.updateListing();
  }

  removeBot(id: PlayerId): void {
    this.removeSeat(id);
    this.retick();
  }

  private tableHost(): TableHost {
    return {
      state: this.state,
      now: () => this.now(),
      patch: () => void this.broadcastPatch(),
      broadcast: (type, message) => this.broadcast(type, message),
      actAs: (id, type, payload) => this.actAs(id, type, payload),
      recordFinished: (record) => CockroachRoom.records?.write(record),
      gameEnded: (everyHumanAway) => {
        this.updateListing();
        if (everyHumanAway) this.disconnect().catch(() => undefined);
      },
    };
  }

  /** A bot's move takes a player's path: the same command, parse and checks, logged as its own. */
  private actAs(id: PlayerId, type: GameActionType, payload: Record<string, unknown>): void {
    const botClient = {
      sessionId: id,
      send: (kind: string, reply: { code?: string }) =>
        kind === SERVER_MESSAGES.error && log.warn('bot.refused', { roomId: this.roomId, code: reply.code }),
    };
    this.dispatcher.dispatch(new COMMANDS[type](), { client: botClient as unknown as Client, message: payload });
  }

  /** Whoever joins or comes back to the results screen gets the result it missed. */
  private sendResultTo(client: Client): void {
    const result = this.table.result;
    if (result) client.send(SERVER_MESSAGES.result, result);
  }

  private tick(): void {
    this.table.tick();
    const now = this.now();
    if (now - this.lastHeartbeat < HEARTBEAT_MS) return;
    this.lastHeartbeat = now;
    // Every change already sent its own patch: this only catches one that did not.
    this.broadcastPatch();
    heartbeat(this.clients, HEARTBEAT_MISSES);
  }

  /** The tick's pace: faster while a bot is seated (its think time), the cheap one otherwise. */
  private retick(): void {
    const seatedBot = [...this.state.players.values()].some((p) => p.bot);
    const ms = seatedBot ? botTickMs(CockroachRoom.settings.botThinkMs) : TICK_MS;
    if (ms === this.tickMs && this.lastHeartbeat !== 0) return;
    this.tickMs = ms;
    this.lastHeartbeat ||= this.now();
    this.setSimulationInterval(() => this.tick(), ms);
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
      if (this.state.players.size >= MAX_CLIENTS - MAX_SPECTATORS) throw refusal('ROOM_FULL');
    }
  }

  private updateListing(): void {
    const { hidden, metadata } = listingFor({
      state: this.state,
      spectators: this.spectators.size,
      options: this.table.options,
      isPrivate: this.isPrivate,
    });
    void this.setPrivate(hidden).catch(() => undefined);
    void this.setMetadata(metadata).catch(() => undefined);
  }

  /** Epoch ms from the room clock's time source (tests swap it for a fake one). */
  now(): number {
    return (this.clock as unknown as { now(): number }).now();
  }

  get gameOptions(): GameOptions {
    return this.table.options;
  }
}

/** Join and create refusals travel as "CODE: 한국어" (matchmaking carries one string). */
function refusal(code: ErrorCode, field?: string): ServerError {
  return new ServerError(ColyseusErrorCode.APPLICATION_ERROR, joinErrorText(code, field));
}

function echoType(type: unknown): string {
  return typeof type === 'string' && /^[A-Za-z0-9_]{1,32}$/.test(type) ? type : '';
}
