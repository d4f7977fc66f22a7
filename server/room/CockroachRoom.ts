import { randomBytes } from 'node:crypto';
import { Dispatcher } from '@colyseus/command';
import { Client, ClientState, ErrorCode as ColyseusErrorCode, Protocol, Room, ServerError } from 'colyseus';
import { GameOptions, isGameEvent, isPartlyHidden, PlayerId, eventFor } from '../rules';
import { CockroachState } from '../schema/CockroachState';
import { FilteredPatchSerializer } from '../colyseus/schema/patchWriter';
import { handlersWithoutPrototype, handOverAsDropped, reconnectionTokenOf, roomClockNow } from '../colyseus/room';
import { Projection } from '../project';
import { COMMANDS } from '../commands';
import type { CommandOutcome, CommandRoom, MessagePayload, RoomCommand } from '../commands/RoomCommand';
import { codeOf, seatEventOnWire, wireCode, type WireRefusal } from '../commands/tableWords';
import {
  BotLevel,
  CLIENT_MESSAGES,
  CLOSE_CODES,
  ClientMessageType,
  ErrorCode,
  EventsMessage,
  GameActionType,
  GAME_ACTIONS,
  isShortName,
  MAX_GAMES_PER_ROOM,
  NICKNAME_MAX,
  SERVER_MESSAGES,
  WireEvent,
} from '../protocol';
import { FinishedGame, Table, TableChange, TableEvent } from '../table/Table';
import type { FinishedGameRecord } from '../fairness';
import type { CockroachResult } from '../rules';
import { Liveness } from '../colyseus/transport/heartbeat';
import { createBot } from '../bots';
import { Admission } from './admission';
import {
  CHAT_BURST,
  CHAT_REFILL_MS,
  DEFAULT_ROOM_SETTINGS,
  LIVENESS,
  SAFETY_PATCH_MS,
  botTickMs,
  MAX_CLIENTS,
  RoomSettings,
  TICK_MS,
} from './constants';
import { errorReply, joinErrorText, replyFromRule } from './errors';
import { JoinRequest, parseJoinOptions } from './joinOptions';
import { listingFor, RoomMetadata } from './listing';
import { RateLimiter } from '../base/RateLimiter';
import { allocateRoomCode, releaseRoomCode } from './roomCode';
import { identityOf, SeatBackAnswer } from './seats';
import { stopConstructorTimers } from '../colyseus/reservations';
import { isDraining } from '../base/draining';
import { log } from '../base/log';
import * as metrics from '../base/metrics';

export type { RoomMetadata } from './listing';

const GAME_ACTION_SET: ReadonlySet<string> = new Set(GAME_ACTIONS);

/**
 * Where finished games go (server/store/). `write` never rejects; it resolves once the record is
 * on this server's disk, or after a bounded wait with the record still in memory (the store's
 * `WriteOutcome` says which). A writer that returns nothing is taken as done at once.
 */
export interface RecordSink {
  write(record: FinishedGameRecord): Promise<unknown> | void;
}

/** The command for each client message type (a Map: a type is a client's string, `__proto__` included). */
const COMMAND_OF: ReadonlyMap<string, new () => RoomCommand> = new Map(CLIENT_MESSAGES.map((type) => [type, COMMANDS[type]]));

/**
 * The Colyseus adapter over the table (server/table/): it turns socket callbacks and messages
 * into the table's inputs, and each applied input into one projection of the table's state onto
 * the synced schema, one patch, and one `events` message. Plus what only a room can do: flood
 * control, listing, reconnections, records, and containment of a failing room. Every decision
 * about the table is the table's.
 */
export class CockroachRoom extends Room<CockroachState, RoomMetadata> implements CommandRoom {
  static settings: RoomSettings = { ...DEFAULT_ROOM_SETTINGS };
  static records: RecordSink | null = null;

  maxClients = MAX_CLIENTS;
  readonly dispatcher = new Dispatcher(this);
  readonly chatLimiter = new RateLimiter(CHAT_BURST, CHAT_REFILL_MS, () => this.now());
  private readonly admission = new Admission(CockroachRoom.settings.messageBurst, CockroachRoom.settings.messagesPerSecond, () =>
    this.now(),
  );
  private failed = false;
  table!: Table;
  private projection!: Projection;
  /**
   * Dropped players' reconnections, held open by the room (Colyseus's "manual" mode) until the
   * table frees the seat, with the token that takes each back.
   */
  private readonly held = new Map<PlayerId, HeldSeat>();
  /** The listing's metadata as last written (updateListing). */
  private listedAs = '';
  /** Reconnection tokens of kicked connections: answered KICKED (PROTOCOL v3). */
  private readonly kickedTokens = new Set<string>();
  /** The result announced for the game on screen (after its record was kept), for latecomers. */
  private announced: CockroachResult | null = null;
  private lastSafetyPatch = 0;
  private readonly liveness = new Liveness(LIVENESS);
  private lookPending = false;
  /** Run from setImmediate: after the loop's poll phase, so bytes and pongs that came during a stall are read first. */
  private readonly lookAtSockets = () => {
    this.lookPending = false;
    this.liveness.look(this.clients, this.now());
  };
  private tickMs = TICK_MS;

  async onCreate(raw: unknown) {
    stopConstructorTimers(this); // a create refused below leaves no patch interval or dispose timer
    // A plain-object handler table would answer "__proto__" or "constructor" with a prototype
    // member and crash the process; with no prototype those fall through to "*".
    handlersWithoutPrototype(this);
    const join = this.parseJoin(raw);
    if (join.spectator) throw refusal('SPECTATOR_CANNOT_CREATE');
    if (isDraining()) throw refusal('SERVER_DRAINING');
    // The room's id is a 6-digit code a child can read out (PROTOCOL v3), unique among live rooms.
    this.roomId = await allocateRoomCode();
    try {
      this.build(join);
    } catch (error) {
      void releaseRoomCode(this.roomId);
      throw error;
    }
  }

  private build(join: JoinRequest): void {
    const settings = CockroachRoom.settings;
    this.setState(new CockroachState());
    // Same bytes as Colyseus's own serializer, each client's patch written once (server/colyseus/schema/patchWriter.ts).
    const serializer = new FilteredPatchSerializer<CockroachState>();
    serializer.reset(this.state);
    this.setSerializer(serializer);
    this.projection = new Projection(this.state);
    this.table = new Table(
      {
        options: join.options,
        isPrivate: join.private,
        now: () => this.now(),
        botThinkMs: settings.botThinkMs,
        reconnectGraceMs: settings.reconnectGraceSeconds * 1000,
        lobbyGraceMs: settings.lobbyGraceSeconds * 1000,
        seed: settings.seed,
        maxGames: settings.maxGames ?? MAX_GAMES_PER_ROOM,
        nicknameMax: NICKNAME_MAX,
      },
      {
        changed: (change) => this.onTableChange(change),
        botMove: (id, type, payload) => this.actAs(id, type, payload),
      },
    );
    this.projection.project(this.table.state);
    // No patch interval (it fired in every room whether anything changed or not): each change
    // sends its own patch. One tick runs the table's timers and the dead-socket check.
    this.setPatchRate(null);
    this.retick();

    // One handler for every type, the command looked up in a table the module holds: one
    // registered handler per type would be one closure (and Colyseus's try/catch wrapper) per type
    // and room.
    this.onMessage('*', (client, type, message) => {
      const CommandClass = typeof type === 'string' ? COMMAND_OF.get(type) : undefined;
      if (CommandClass) return this.receive(client, type as ClientMessageType, CommandClass, message);
      // The transport guard closes on unknown types first; this answers if it is ever bypassed.
      if (!this.admission.hasRoom(client.sessionId))
        return this.admission.refuse(client, () => this.reply(client, 'RATE_LIMITED', echoType(type)));
      this.admission.charge(client.sessionId);
      this.reply(client, 'UNKNOWN_MESSAGE', echoType(type));
    });
    this.updateListing();
  }

  /**
   * The options were checked by the guard before the reservation; they are checked again here,
   * with the seats as they are now. A nickname from the identity (an app token's claim) is the
   * player's, whatever the options say.
   */
  onJoin(client: Client, raw: unknown, auth?: unknown) {
    // Who is joining, as the guard verified it (it travels as the reservation's authData, so
    // Colyseus skips any instance onAuth: the join's checks live here).
    const identity = identityOf(auth);
    const plain = typeof raw === 'object' && raw !== null && !Array.isArray(raw);
    const join = this.parseJoin(identity.nickname !== undefined && plain ? { ...raw, nickname: identity.nickname } : raw);
    const who = { key: identity.key, address: identity.address };
    if (join.spectator) {
      const watching = this.table.watch({ id: client.sessionId, nickname: join.nickname === '' ? null : join.nickname, who });
      if (!watching.outcome.ok) throw refusal(wireCode(watching.outcome.code));
    } else {
      const seated = this.table.seat({ id: client.sessionId, nickname: join.nickname, entropy: join.entropy, who });
      if (!seated.outcome.ok) throw refusal(wireCode(seated.outcome.code));
    }
    this.sendResultTo(client);
  }

  /**
   * An identity asks for its seat back (server/room/seats.ts, called by the matchmaking guard for a
   * joinById, on whichever process holds the room): the seat is handed over as a reconnection to
   * its session id, so the player's id and private view stay; a connection still open on it is
   * closed first. Null: no seat of that identity here (an ordinary join follows).
   */
  takeSeatBack(key: string | null, address: string, spectator: boolean): SeatBackAnswer {
    if (this.failed) return null;
    // Kicked, or a locked table to a newcomer: refused before anything is reserved.
    const barred = this.table.joinRefusal({ key, address }, spectator);
    if (barred === 'KICKED' || barred === 'LOCKED') return { refused: barred };
    if (key === null || spectator) return null;
    const seat = this.table.seatOf(key);
    if (!seat) return null;
    if (!this.held.has(seat.id)) {
      const open = this.clients.find((c) => c.sessionId === seat.id);
      // A connection still joining is not replaced: the new one joins as usual (ALREADY_SEATED).
      if (!open || open.state === ClientState.JOINING) return null;
      this.replace(open);
    }
    const held = this.held.get(seat.id);
    if (!held) return null;
    const sessionId = this.checkReconnectionToken(held.token);
    return sessionId ? { sessionId, reconnectionToken: held.token } : null;
  }

  /**
   * Why this identity may not take a place here now (server/table/admission.ts), for the seat
   * reservation (server/room/reservations.ts): asked before anything is reserved.
   */
  admissionRefusal(identity: { key: string | null; address: string } | null, spectator: boolean): ErrorCode | null {
    if (this.failed) return 'SERVER_ERROR';
    const refused = this.table.joinRefusal(identity, spectator);
    return refused === null ? null : wireCode(refused);
  }

  /**
   * A newcomer's seat was reserved (server/room/reservations.ts). The room's first reservation is
   * its creator's: the table then waits for them, unlisted and without a host, so nobody who slips
   * in first takes the creator's role (issue 32).
   */
  reserved(sessionId: string, identity: { key: string | null } | null): void {
    if (this.failed) return;
    if (this.table.expectCreator(sessionId, identity?.key ?? null)) this.updateListing();
  }

  /** Watchers now (the listing, metrics and the reservation bound read it). */
  get spectators(): { readonly size: number } {
    return this.table.state.watchers;
  }

  /** The session id of the seat that belongs to this identity key, if any (the guard's limits ask it). */
  seatOfIdentity(key: string): string | undefined {
    return typeof key === 'string' ? this.table.seatOf(key)?.id : undefined;
  }

  /** A reconnection by token (server/room/seats.ts): refused for a kicked player, and for anyone but the seat's own identity. */
  reconnectRefusal(token: string, key: string | null, address: string): ErrorCode | 'NOT_YOUR_SEAT' | null {
    if (typeof token !== 'string') return 'NOT_YOUR_SEAT';
    if (this.kickedTokens.has(token)) return 'KICKED';
    // An identity kicked stays out by its key. An anonymous player kicked is barred by address only
    // from joining anew: others behind that address (siblings on one Wi-Fi) come back to their own
    // seats; the kicked connection's token is refused above.
    if (key !== null && this.table.isBarred({ key, address })) return 'KICKED';
    for (const [id, held] of this.held) {
      if (held.token !== token) continue;
      const owner = this.table.state.seats.get(id)?.identity ?? null;
      return owner === null || owner === key ? null : 'NOT_YOUR_SEAT';
    }
    return null;
  }

  /**
   * The same identity came in on another connection: the open one is told REPLACED and closed,
   * and its seat is held as after a drop, under a fresh token only the new connection is given.
   */
  private replace(client: Client): void {
    client.send(SERVER_MESSAGES.error, errorReply('REPLACED', ''));
    // Not consented: onLeave holds the seat for a reconnection (synchronously, under the new token).
    handOverAsDropped(this, client);
    client.leave(CLOSE_CODES.CONSENTED);
  }

  async onLeave(client: Client, consented: boolean) {
    const id = client.sessionId;
    this.chatLimiter.forget(id);
    this.admission.forget(id);
    if (this.failed) return;
    if (this.table.isWatcher(id)) return void this.table.unwatch(id);
    if (!this.table.isSeated(id) || this.table.isBot(id)) return;
    if (consented) return void this.table.leave(id);
    // Held synchronously, before anything awaits: Colyseus requires it.
    const reconnection = this.allowReconnection(client, 'manual');
    const seat: HeldSeat = {
      token: reconnectionTokenOf(client),
      reject: () => reconnection.reject(new Error('seat released')),
    };
    this.held.set(id, seat);
    this.table.drop(id);
    let back: Client;
    try {
      back = await reconnection;
    } catch {
      return;
    } finally {
      if (this.held.get(id) === seat) this.held.delete(id);
    }
    metrics.reconnection(this.roomId, id, 'reconnected');
    if (!this.table.isSeated(id)) return;
    this.table.return(id);
    this.sendResultTo(back);
  }

  /**
   * One applied table input: the schema follows the table's state, one patch leaves now, then
   * what happened, cut down for each viewer. Seats the table freed drop their held
   * reconnections; a finished game's record is kept before its result is announced.
   */
  private onTableChange({ events, finished }: TableChange): void {
    this.projection.project(this.table.state);
    this.broadcastPatch();
    this.sendEvents(events);
    for (const event of events) this.count(event);
    if (finished) void this.announce(finished);
    this.retick();
    if (mayChangeListing(events)) this.updateListing();
    this.closeIfNobodyIsLeft();
  }

  /**
   * Each viewer gets the events in one message; only those who may see a hidden kind get their own
   * copy. A client still joining gets none: the full state it is about to receive already shows
   * what happened (and its app has not registered its handlers yet).
   */
  private sendEvents(events: TableEvent[]): void {
    if (events.length === 0) return;
    const step = this.table.state.match?.game.step ?? 0;
    const forViewer = (viewer: PlayerId | null): EventsMessage => ({ step, events: events.map((e) => toWire(e, viewer)) });
    const seers = new Set<PlayerId>();
    for (const event of events) if (isGameEvent(event) && isPartlyHidden(event)) for (const id of event.seen) seers.add(id);
    const joining = this.clients.filter((client) => client.state === ClientState.JOINING);
    const own = this.clients.filter((client) => client.state !== ClientState.JOINING && seers.has(client.sessionId));
    const except = [...joining, ...own];
    this.broadcast(SERVER_MESSAGES.events, forViewer(null), except.length > 0 ? { except } : {});
    for (const client of own) client.send(SERVER_MESSAGES.events, forViewer(client.sessionId));
  }

  /**
   * A kicked player or watcher: told KICKED and closed at once, and its reconnection tokens
   * answered KICKED from now on. The table removed every place of a kicked identity, each with its
   * own event, so each of its connections comes through here.
   */
  private dismiss(id: PlayerId): void {
    const held = this.held.get(id);
    if (held) this.kickedTokens.add(held.token);
    const client = this.clients.find((c) => c.sessionId === id);
    if (!client) return;
    this.kickedTokens.add(reconnectionTokenOf(client));
    client.send(SERVER_MESSAGES.error, errorReply('KICKED', 'kick'));
    client.leave(CLOSE_CODES.CONSENTED);
  }

  /** A watcher's place taken over by the same identity's new connection: the old one is told and closed. */
  private retire(id: PlayerId): void {
    const client = this.clients.find((c) => c.sessionId === id);
    if (!client) return;
    client.send(SERVER_MESSAGES.error, errorReply('REPLACED', ''));
    client.leave(CLOSE_CODES.CONSENTED);
  }

  /** Operations count from what the table says happened. */
  private count(event: TableEvent): void {
    switch (event.type) {
      case 'started':
        return metrics.gameStarted(this.roomId, event.order.length);
      case 'defaultMove':
        if (event.reason === 'clock') metrics.turnTimedOut(this.roomId, this.table.state.match?.game.step ?? 0);
        return;
      case 'ended':
        return metrics.gameEnded(this.roomId, event.reason, this.table.state.match?.game.step ?? 0);
      case 'away':
        if (event.reason === 'grace') metrics.reconnection(this.roomId, event.player, 'expired');
        return;
      case 'left':
        if (event.reason === 'kicked') this.dismiss(event.player);
        this.held.get(event.player)?.reject();
        this.held.delete(event.player);
        return;
      case 'stoppedWatching':
        if (event.reason === 'kicked') this.dismiss(event.watcher);
        else if (event.reason === 'replaced') this.retire(event.watcher);
        return;
    }
  }

  /**
   * The ended patch went out at once; `result` (which names the record by its gameId) waits for
   * the writer: until the record is on this server's disk, or, while that disk fails, its bound
   * (about 2 s; the record then waits in memory, is served from there and written once the disk
   * takes it, logged `record.not_durable`). A results screen never waits on a broken disk.
   */
  private async announce({ record, result }: FinishedGame): Promise<void> {
    try {
      await CockroachRoom.records?.write(record);
    } catch (error) {
      log.error('record.write_threw', { roomId: this.roomId, gameId: record.gameId }, error);
    }
    // A rematch (or the room's end) came first: that game is no longer on screen.
    if (this.failed || this.table.state.result !== result) return;
    this.announced = result;
    this.broadcast(SERVER_MESSAGES.result, result);
    this.closeIfNobodyIsLeft();
  }

  /** At the results screen with every human away, nobody can ask for a rematch: the room closes. */
  private closeIfNobodyIsLeft(): void {
    const table = this.table.state;
    if (table.lifecycle !== 'ended' || !this.table.everyHumanAway() || this.announced !== table.result) return;
    this.disconnect().catch(() => undefined);
  }

  /** Whoever joins or comes back to the results screen gets the result it missed (once it was announced). */
  private sendResultTo(client: Client): void {
    const result = this.table.result;
    if (result && result === this.announced) client.send(SERVER_MESSAGES.result, result);
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
    void releaseRoomCode(this.roomId);
  }

  /**
   * Every message passes flood control, except that a move the rules accept is never refused
   * or charged for rate: over the limit, a game action is still tried, and only a refusal is
   * answered (once per streak) with RATE_LIMITED. Whether it applied is the table's outcome.
   */
  private receive(client: Client, type: ClientMessageType, CommandClass: new () => RoomCommand, message: unknown): void {
    const id = client.sessionId;
    if (type === 'ping') {
      // Priced like every other message (issue 20): admitted first, within its own small bucket.
      if (!this.admission.admitPing(client, () => this.reply(client, 'RATE_LIMITED', type))) return;
      const outcome = this.dispatch(client, type, CommandClass, message);
      if (outcome && !outcome.ok) this.reply(client, outcome.code, type);
      return;
    }
    const within = this.admission.hasRoom(id);
    const isMove = GAME_ACTION_SET.has(type);
    if (!within && !isMove) return this.admission.refuse(client, () => this.reply(client, 'RATE_LIMITED', type));
    const outcome = this.dispatch(client, type, CommandClass, message);
    if (isMove && outcome?.ok) return this.admission.moved(id);
    if (!within) return this.admission.refuse(client, () => this.reply(client, 'RATE_LIMITED', type));
    if (outcome && !outcome.ok) this.reply(client, outcome.code, type);
    this.admission.charge(id);
    this.admission.admitted(id);
  }

  /** Runs one message's command; its outcome says whether what it asked of the table applied. */
  private dispatch(
    client: Client,
    type: ClientMessageType,
    CommandClass: new () => RoomCommand,
    message: unknown,
  ): CommandOutcome | undefined {
    const startedMs = metrics.actionTimer();
    const payload: MessagePayload = { client, message };
    this.dispatcher.dispatch(new CommandClass(), payload);
    if (payload.outcome?.ok && GAME_ACTION_SET.has(type))
      metrics.actionApplied(this.roomId, type, client.sessionId, this.table.state.match?.game.step ?? 0, startedMs);
    return payload.outcome;
  }

  private reply(client: Client, code: WireRefusal, action: string): void {
    metrics.refused(this.roomId, action, codeOf(code));
    client.send(SERVER_MESSAGES.error, typeof code === 'string' ? errorReply(code, action) : replyFromRule(code, action));
  }

  /** A new practice bot: a random id and its own seeded randomness (server/bots). */
  newBot(level: BotLevel) {
    return { id: `bot_${randomBytes(6).toString('hex')}`, decider: createBot(level, randomBytes(16).toString('hex')) };
  }

  /** A bot's move takes a player's path: the same command, parse and checks, logged as its own. */
  private actAs(id: PlayerId, type: GameActionType, payload: Record<string, unknown>): void {
    const botClient = { sessionId: id, send: () => undefined } as unknown as Client;
    const outcome = this.dispatch(botClient, type, COMMANDS[type], payload);
    if (outcome && !outcome.ok) log.warn('bot.refused', { roomId: this.roomId, code: codeOf(outcome.code) });
  }

  private tick(): void {
    this.table.tick();
    if (!this.lookPending) {
      this.lookPending = true;
      setImmediate(this.lookAtSockets);
    }
    const now = this.now();
    if (now - this.lastSafetyPatch < SAFETY_PATCH_MS) return;
    this.lastSafetyPatch = now;
    // Every change already sent its own patch: this only catches one that did not.
    this.broadcastPatch();
  }

  /** The tick's pace: faster while a bot is seated (its think time), the cheap one otherwise. */
  private retick(): void {
    let seatedBot = false;
    for (const seat of this.table.state.seats.values()) if (seat.bot) seatedBot = true;
    const ms = seatedBot ? botTickMs(CockroachRoom.settings.botThinkMs) : TICK_MS;
    if (ms === this.tickMs && this.lastSafetyPatch !== 0) return;
    this.tickMs = ms;
    this.lastSafetyPatch ||= this.now();
    this.setSimulationInterval(() => this.tick(), ms);
  }

  private parseJoin(raw: unknown): JoinRequest {
    const parsed = parseJoinOptions(raw);
    if (!parsed.ok) throw refusal(parsed.code, parsed.field);
    return parsed.join;
  }

  /**
   * The listing follows the table, written only when what it shows changed: during a game nothing
   * it shows does, and each write is a save to the driver (an HSET with Redis) that every move
   * paid for. A failed save is tried again at the next change.
   */
  private updateListing(): void {
    const { hidden, metadata } = listingFor({ table: this.table.state });
    void this.setPrivate(hidden).catch(() => undefined);
    const shown = JSON.stringify(metadata);
    if (shown === this.listedAs) return;
    this.listedAs = shown;
    void this.setMetadata(metadata).catch(() => {
      if (this.listedAs === shown) this.listedAs = '';
    });
  }

  /** Epoch ms from the room clock's time source (tests swap it for a fake one). */
  now(): number {
    return roomClockNow(this);
  }

  get gameOptions(): GameOptions {
    return this.table.options;
  }
}

/**
 * A move's own events (a card offered, peeked at, passed on or turned up) change nothing the
 * listing shows: the listing is not even computed for them, which every move paid for. A game's
 * end, a seat or host change, or a change without events (options) may.
 */
function mayChangeListing(events: readonly TableEvent[]): boolean {
  return events.length === 0 || events.some((event) => !isGameEvent(event) || event.type === 'ended');
}

/** A held reconnection: how to give it up, and the token that takes it. */
interface HeldSeat {
  token: string;
  reject(): void;
}

/** A table event as one viewer receives it (server/rules/visibility.ts decides what is hidden). */
function toWire(event: TableEvent, viewer: PlayerId | null): WireEvent {
  return isGameEvent(event) ? eventFor(event, viewer) : seatEventOnWire(event);
}

/** Join and create refusals travel as "CODE: 한국어" (matchmaking carries one string). */
function refusal(code: ErrorCode, field?: string): ServerError {
  return new ServerError(ColyseusErrorCode.APPLICATION_ERROR, joinErrorText(code, field));
}

function echoType(type: unknown): string {
  return isShortName(type) ? type : '';
}
