import { Action, activePlayer, CockroachResult, GameOptions, Match, MAX_PLAYERS, MIN_PLAYERS, PlayerId, viewFor } from '../rules';
import { buildRecord, canonicalPlayers, deriveSeed } from '../fairness';
import { newCommitment } from '../fairness/commitment';
import { sha256Hex } from '../fairness/sha256';
import { botNickname } from '../bots/nicknames';
import { decideHost } from './host';
import { joinRefusal, seatOf, watcherOf } from './admission';
import { distinctNickname } from './names';
import { barSignal, barSignalOf, everyHumanAway, isCreatorSeat, Joiner, newTableState, SeatState, TableState, TableView } from './state';
import { Timers } from './timers';
import { TurnClock } from './TurnClock';
import type {
  FinishedGame,
  Outcome,
  Refusal,
  SeatEvent,
  Step,
  TableRefusal,
  TableBot,
  TableEvent,
  TableHooks,
  TableSettings,
} from './types';

export type {
  FinishedGame,
  Outcome,
  Refusal,
  Step,
  TableBot,
  TableChange,
  TableEvent,
  TableHooks,
  TableRefusal,
  TableSettings,
} from './types';

/**
 * After the clock played a player's turn, an action of theirs without `step` arriving this soon
 * was meant for the turn that is gone, not for a new one (a human cannot see and answer a new
 * turn that fast). With `step` the check is exact.
 */
export const LATE_ACTION_WINDOW_MS = 2000;

/** This game's secret and its published commitment (PROTOCOL v2 "Fair play you can check"). */
interface Secret {
  serverSeed: string;
  commitment: string;
}

interface Grace {
  droppedAt: number;
  timer: { clear(): void };
}

const applied: Outcome = { ok: true };
const refused = (code: Refusal): Outcome => ({ ok: false, code });

/**
 * A table as an authority over plain state (`TableState`), the way boardgame.io's `Master` keeps
 * the game apart from transport: seats, presence and the reconnection grace, the host, the
 * lifecycle, fairness, the match, the turn clock, default moves, away players, bots, the result
 * and the running score. It takes inputs and answers each with its outcome and events; every
 * applied input ends in exactly one `hooks.changed`, for the room to project and send. It knows
 * nothing of sockets, Colyseus, the room or metrics.
 */
export class Table {
  private readonly s: TableState;
  readonly timers: Timers;
  private readonly turnClock: TurnClock;
  /** When the clock last played each player's turn (epoch ms). */
  private readonly autoPlayedAt = new Map<PlayerId, number>();
  private readonly bots = new Map<PlayerId, TableBot>();
  private readonly graces = new Map<PlayerId, Grace>();
  private botTimer: { clear(): void } | null = null;
  private secret: Secret;
  private startedAt = 0;
  /** The events of the input being applied; null between inputs. */
  private events: TableEvent[] | null = null;
  private finished: FinishedGame | null = null;

  constructor(
    private readonly settings: TableSettings,
    private readonly hooks: TableHooks,
  ) {
    this.timers = new Timers(settings.now);
    this.turnClock = new TurnClock(this.timers, (step) => this.timeout(step));
    this.secret = this.newSecret();
    this.s = newTableState(settings.options, settings.isPrivate ?? false, this.secret.commitment);
  }

  // ---- reading -------------------------------------------------------------------------

  get state(): TableView {
    return this.s;
  }

  get options(): GameOptions {
    return this.s.options;
  }

  get match(): Match | null {
    return this.s.match;
  }

  /** The finished game's result, for whoever joins or comes back to the results screen. */
  get result(): CockroachResult | null {
    return this.s.lifecycle === 'ended' ? this.s.result : null;
  }

  /** The id of the last finished game (`result.gameId`), '' before the first. */
  get gameId(): string {
    return this.s.result?.gameId ?? '';
  }

  isSeated(id: PlayerId): boolean {
    return this.s.seats.has(id);
  }

  isBot(id: PlayerId): boolean {
    return this.bots.has(id);
  }

  everyHumanAway(): boolean {
    return everyHumanAway(this.s);
  }

  nicknames(): Record<PlayerId, string> {
    const names: Record<PlayerId, string> = {};
    for (const seat of this.s.seats.values()) names[seat.id] = seat.nickname;
    return names;
  }

  /**
   * Why this joiner may not sit down now (`spectator`: nor watch), or null (server/table/admission.ts).
   * The room asks before a join; `seat` and `watch` ask again.
   */
  joinRefusal(who?: Joiner | null, spectator = false): TableRefusal | null {
    return joinRefusal(this.s, who, spectator ? 'watch' : 'sit');
  }

  /** The seat that belongs to this identity key, if any. */
  seatOf(key: string): Readonly<SeatState> | undefined {
    return seatOf(this.s, key);
  }

  /** Was this person (an identity, or an anonymous player's address) kicked from this table? */
  isBarred(who: Joiner): boolean {
    return this.s.barred.has(barSignal(who));
  }

  /**
   * The room's first seat reservation names its creator (the matchmaker reserves the creator's seat
   * right after the room is made): until they sit down nobody is host and the room is not listed,
   * so nobody who slips in first takes the creator's role (issue 32).
   */
  expectCreator(sessionId: PlayerId, key: string | null): boolean {
    if (this.s.creator !== null || this.s.seats.size > 0) return false;
    this.s.creator = key !== null ? { key } : { seat: sessionId };
    this.s.awaitingCreator = true;
    return true;
  }

  /** Is this the creator's seat (the host whenever present; only the creator kicks and unlocks)? */
  isCreator(id: PlayerId): boolean {
    const seat = this.s.seats.get(id);
    return seat !== undefined && isCreatorSeat(this.s.creator, seat);
  }

  // ---- inputs: seats and presence ------------------------------------------------------

  /** A player sits down in the lobby; `who`: their identity (a seat belongs to it) and address. */
  seat(player: { id: PlayerId; nickname: string; entropy?: string; who?: Joiner | null }): Step {
    return this.run(() => {
      if (this.s.seats.has(player.id) || this.s.watchers.has(player.id)) return refused('BAD_PAYLOAD');
      const refusal = this.joinRefusal(player.who);
      if (refusal) return refused(refusal);
      this.addSeat({
        id: player.id,
        nickname: distinctNickname(player.nickname, this.namesShown(), this.settings.nicknameMax),
        bot: false,
        identity: player.who?.key ?? null,
        address: player.who?.address ?? null,
        entropy: player.entropy ?? '',
      });
      return applied;
    });
  }

  /**
   * Someone comes to watch (PROTOCOL v1 "Watch"; issue 32: watchers are people at the table, listed
   * for everyone, removed by the host with `kick`). An identity has one watcher place: watching
   * again from another connection takes it over (the old one is told REPLACED by the room).
   */
  watch(watcher: { id: PlayerId; nickname: string | null; who?: Joiner | null }): Step {
    return this.run(() => {
      if (this.s.seats.has(watcher.id) || this.s.watchers.has(watcher.id)) return refused('BAD_PAYLOAD');
      const refusal = this.joinRefusal(watcher.who, true);
      if (refusal) return refused(refusal);
      const key = watcher.who?.key ?? null;
      const earlier = key === null ? undefined : watcherOf(this.s, key);
      if (earlier) this.removeWatcher(earlier.id, 'replaced');
      const nickname = distinctNickname(watcher.nickname ?? this.watcherName(), this.namesShown(), this.settings.nicknameMax);
      this.s.watchers.set(watcher.id, { id: watcher.id, nickname, identity: key, address: watcher.who?.address ?? null });
      this.emit({ type: 'watching', watcher: watcher.id });
      return applied;
    });
  }

  /** A watcher went away (any way: their place is not held). */
  unwatch(id: PlayerId): Step {
    return this.run(() => {
      if (!this.s.watchers.has(id)) return refused('NOBODY_THERE');
      this.removeWatcher(id, 'left');
      return applied;
    });
  }

  isWatcher(id: PlayerId): boolean {
    return this.s.watchers.has(id);
  }

  /**
   * The host locks the table at any time (issue 32): nobody new sits down or watches until the
   * creator unlocks it; whoever is at the table now (by identity) still comes back.
   */
  lock(by: PlayerId): Step {
    return this.run(() => {
      if (!this.s.seats.has(by)) return refused('SPECTATOR');
      if (by !== this.s.hostId) return refused('NOT_HOST');
      if (!this.s.locked) this.lockNow(by, 'lock');
      return applied;
    });
  }

  /**
   * The creator opens a locked table again: only the family's own host, never a stand-in, so a
   * stranger who took the role while the creator was away cannot let friends in.
   */
  unlock(by: PlayerId): Step {
    return this.run(() => {
      if (!this.s.seats.has(by)) return refused('SPECTATOR');
      if (by !== this.s.hostId) return refused('NOT_HOST');
      if (!this.isCreator(by)) return refused('NOT_CREATOR');
      if (this.s.locked) {
        this.s.locked = false;
        this.s.lockAdmitted.clear();
        this.emit({ type: 'unlocked', by });
      }
      return applied;
    });
  }

  /** The host seats a practice bot in a free seat of the lobby; `make` builds it once that is allowed; the table names it. */
  addBot(by: PlayerId, make: () => { id: PlayerId; decider: TableBot }): Step {
    return this.run(() => {
      const refusal = this.hostInLobbyRefusal(by);
      if (refusal) return refusal;
      if (this.s.seats.size >= MAX_PLAYERS) return refused('ROOM_FULL');
      const bot = make();
      if (this.s.seats.has(bot.id)) return refused('BAD_PAYLOAD');
      const taken = new Set(this.namesShown());
      let n = 0;
      while (taken.has(botNickname(n))) n++;
      this.bots.set(bot.id, bot.decider);
      this.addSeat({ id: bot.id, nickname: botNickname(n), bot: true, identity: null, address: null, entropy: '' });
      return applied;
    });
  }

  /** The host frees a bot's seat in the lobby. */
  removeBot(by: PlayerId, id: PlayerId): Step {
    return this.run(() => {
      const refusal = this.hostInLobbyRefusal(by);
      if (refusal) return refusal;
      if (!this.bots.has(id)) return refused('NOT_A_BOT');
      this.unseat(id, 'removed');
      return applied;
    });
  }

  /**
   * The creator, as host, removes a person (PROTOCOL v3; issue 32): a seated player in the lobby or
   * at the results screen, or a watcher at any time. Whoever it was is barred from this room (their
   * identity, or an anonymous player's address for anonymous joins: `barSignal`), every place their
   * identity holds here goes with it, and the table locks so a new identity cannot simply come
   * back. A stand-in host cannot kick, and nobody can kick the creator. A bot goes with `removeBot`.
   */
  kick(by: PlayerId, id: PlayerId): Step {
    return this.run(() => {
      if (!this.s.seats.has(by)) return refused('SPECTATOR');
      if (by !== this.s.hostId) return refused('NOT_HOST');
      if (!this.isCreator(by)) return refused('NOT_CREATOR');
      if (id === by) return refused('ONESELF');
      const seat = this.s.seats.get(id);
      const watcher = this.s.watchers.get(id);
      const target = seat && !seat.bot ? seat : watcher;
      if (!target) return refused('NOBODY_THERE');
      if (target.identity !== null && this.s.seats.get(by)!.identity === target.identity) return refused('ONESELF');
      // An identity goes with all its places (a seat and a watcher's connection); an anonymous
      // player only with the one kicked (a sibling behind the same address keeps theirs).
      const key = target.identity;
      const seats = key === null ? (seat ? [seat] : []) : [...this.s.seats.values()].filter((s) => s.identity === key);
      const watchers = key === null ? (watcher ? [watcher] : []) : [...this.s.watchers.values()].filter((w) => w.identity === key);
      if (this.s.lifecycle === 'playing' && seats.length > 0) return refused('NOT_IN_LOBBY');
      if (target.identity !== null || target.address !== null) this.s.barred.add(barSignalOf(target));
      for (const s of seats) this.unseat(s.id, 'kicked');
      for (const w of watchers) this.removeWatcher(w.id, 'kicked');
      if (!this.s.locked) this.lockNow(by, 'kick');
      return applied;
    });
  }

  /** A player left on purpose: the lobby frees the seat; in a game the seat stays, away. */
  leave(id: PlayerId): Step {
    return this.run(() => {
      const seat = this.s.seats.get(id);
      if (!seat || seat.bot) return refused('NOBODY_THERE');
      this.endGrace(id);
      if (this.s.lifecycle === 'lobby') this.unseat(id, 'left');
      else this.goAway(seat, 'left');
      return applied;
    });
  }

  /**
   * A player's connection dropped (not on purpose): the seat is held through a grace, the short
   * one in the lobby (then the seat is freed), the game's in a game (then the player is away and
   * the rules play their turns, but the seat stays theirs to take back).
   */
  drop(id: PlayerId): Step {
    return this.run(() => {
      const seat = this.s.seats.get(id);
      if (!seat || seat.bot) return refused('NOBODY_THERE');
      seat.connected = false;
      this.emit({ type: 'dropped', player: id });
      this.endGrace(id);
      const droppedAt = this.settings.now();
      // The creator's lobby seat is held as long as a game seat: it is never freed for someone else.
      const short = this.s.lifecycle === 'lobby' && !isCreatorSeat(this.s.creator, seat);
      const ms = short ? this.settings.lobbyGraceMs : this.settings.reconnectGraceMs;
      this.graces.set(id, { droppedAt, timer: this.timers.after(ms, () => this.graceOver(id)) });
      return applied;
    });
  }

  /** A dropped or away player is back (a reconnection): connected, not away, their whole view again. */
  return(id: PlayerId): Step {
    return this.run(() => {
      const seat = this.s.seats.get(id);
      if (!seat || seat.bot) return refused('NOBODY_THERE');
      this.endGrace(id);
      seat.connected = true;
      seat.away = false;
      this.emit({ type: 'returned', player: id });
      return applied;
    });
  }

  // ---- inputs: the game ----------------------------------------------------------------

  /**
   * The host starts a game with 2–6 seated players. The deal comes from the server's committed
   * secret and every player's entropy together (docs/fairness.md): neither side alone chooses
   * it. The players go to the rules in a fixed order, so the server cannot pick a deal by
   * ordering them either.
   */
  start(by: PlayerId): Step {
    return this.run(() => {
      if (!this.s.seats.has(by)) return refused('SPECTATOR');
      if (this.s.lifecycle !== 'lobby') return refused('ALREADY_STARTED');
      if (by !== this.s.hostId) return refused('NOT_HOST');
      const count = this.s.seats.size;
      if (count < MIN_PLAYERS || count > MAX_PLAYERS) return refused('NOT_ENOUGH_PLAYERS');
      const ids = canonicalPlayers([...this.s.seats.keys()]);
      const entropy: Record<PlayerId, string> = {};
      for (const id of ids) entropy[id] = this.s.seats.get(id)!.entropy;
      const started = Match.start(deriveSeed(this.secret.serverSeed, entropy), ids, this.s.options);
      if (!started.ok) throw new Error(`start refused: ${started.error.code}`);
      this.s.match = started.match;
      this.s.fairness.entropy = entropy;
      this.s.lifecycle = 'playing';
      this.s.result = null;
      this.startedAt = this.settings.now();
      this.autoPlayedAt.clear();
      this.emit({ type: 'started', order: [...started.match.game.order] });
      this.advance();
      return applied;
    });
  }

  /** A player's move through the rules; applied moves are logged by the match. */
  move(by: PlayerId, action: Action, step?: number): Step {
    return this.run(() => {
      const match = this.s.match;
      if (!match || this.s.lifecycle !== 'playing') return refused('NOT_PLAYING');
      if (!this.s.seats.has(by)) return refused('SPECTATOR');
      if (step !== undefined && step !== match.game.step) return refused('STALE_ACTION');
      const autoPlayed = this.autoPlayedAt.get(by);
      if (step === undefined && autoPlayed !== undefined && this.settings.now() - autoPlayed < LATE_ACTION_WINDOW_MS)
        return refused('STALE_ACTION');
      const result = match.act(by, action);
      if (!result.ok) return refused(result.error);
      this.autoPlayedAt.delete(by);
      for (const event of result.events) this.emit(event);
      this.advance();
      return applied;
    });
  }

  /** The turn clock ran out at `step`: the rules play the default action for whoever had to act. */
  timeout(step: number): Step {
    return this.run(() => {
      const match = this.s.match;
      if (!match || match.game.phase !== 'playing' || match.game.step !== step) return refused('STALE_ACTION');
      this.playDefault(match, 'clock');
      this.advance();
      return applied;
    });
  }

  /**
   * The host, at the results screen: back to the lobby with the same options (PROTOCOL v2 "Rooms
   * that last"). Away players lose their seats; a dropped one keeps it while its grace runs; bots
   * keep theirs. Scores and `gamesPlayed` stay; the last game goes, and a fresh secret is committed.
   */
  rematch(by: PlayerId): Step {
    return this.run(() => {
      if (!this.s.seats.has(by)) return refused('SPECTATOR');
      if (by !== this.s.hostId) return refused('NOT_HOST');
      if (this.s.lifecycle !== 'ended') return refused('GAME_NOT_OVER');
      if (this.s.gamesPlayed >= this.settings.maxGames) return refused('TOO_MANY_GAMES');
      // The creator's seat is never taken by someone else's rematch: they come back to it (issue 32).
      for (const seat of [...this.s.seats.values()]) if (seat.away && !isCreatorSeat(this.s.creator, seat)) this.unseat(seat.id, 'rematch');
      this.stopGameTimers();
      this.autoPlayedAt.clear();
      this.secret = this.newSecret();
      this.s.lifecycle = 'lobby';
      this.s.match = null;
      this.s.result = null;
      this.s.deadline = 0;
      this.s.fairness = { commitment: this.secret.commitment, entropy: {}, serverSeed: '' };
      this.emit({ type: 'rematch' });
      return applied;
    });
  }

  /** Runs due timers (turn clock, graces, bots' think time); the room calls it on its tick. */
  tick(): void {
    this.timers.run();
  }

  /** Stops every timer: the room is closing or failed. */
  stop(): void {
    this.stopGameTimers();
    for (const id of [...this.graces.keys()]) this.endGrace(id);
    this.timers.clearAll();
  }

  // ---- internals -----------------------------------------------------------------------

  /**
   * Applies one input: `body` either refuses (and changes nothing) or changes the state and
   * records its events. Then the one host rule, then one `changed` for the room.
   */
  private run(body: () => Outcome): Step {
    if (this.events !== null) throw new Error('Table: an input inside another input');
    const events: TableEvent[] = [];
    this.events = events;
    this.finished = null;
    let outcome: Outcome;
    try {
      outcome = body();
      if (outcome.ok) this.settleHost();
    } finally {
      this.events = null;
    }
    if (!outcome.ok) return { outcome, events: [] };
    const finished = this.finished;
    this.finished = null;
    this.hooks.changed({ events, finished });
    return { outcome, events };
  }

  private emit(event: TableEvent): void {
    this.events!.push(event);
  }

  private settleHost(): void {
    const { hostId, hostLeftSeq } = decideHost(this.s);
    this.s.hostLeftSeq = hostLeftSeq;
    if (hostId === this.s.hostId) return;
    this.s.hostId = hostId;
    this.emit({ type: 'hostChanged', host: hostId });
  }

  /** The names people see at this table now: seats (bots included) and watchers. */
  private *namesShown(): Iterable<string> {
    for (const seat of this.s.seats.values()) yield seat.nickname;
    for (const watcher of this.s.watchers.values()) yield watcher.nickname;
  }

  /** A watcher who gave no name: "구경꾼" and the first free number. */
  private watcherName(): string {
    const taken = new Set(this.namesShown());
    let n = 1;
    while (taken.has(`구경꾼 ${n}`)) n++;
    return `구경꾼 ${n}`;
  }

  private lockNow(by: PlayerId, reason: 'lock' | 'kick'): void {
    this.s.locked = true;
    this.s.lockAdmitted.clear();
    for (const watcher of this.s.watchers.values()) if (watcher.identity !== null) this.s.lockAdmitted.set(watcher.identity, 'watch');
    for (const seat of this.s.seats.values()) if (seat.identity !== null) this.s.lockAdmitted.set(seat.identity, 'sit');
    this.emit({ type: 'locked', by, reason });
  }

  private removeWatcher(id: PlayerId, reason: 'left' | 'kicked' | 'replaced'): void {
    this.s.watchers.delete(id);
    this.emit({ type: 'stoppedWatching', watcher: id, reason });
  }

  private hostInLobbyRefusal(by: PlayerId): Outcome | null {
    if (!this.s.seats.has(by)) return refused('SPECTATOR');
    if (by !== this.s.hostId) return refused('NOT_HOST');
    if (this.s.lifecycle !== 'lobby') return refused('NOT_IN_LOBBY');
    return null;
  }

  private addSeat(seat: Omit<SeatState, 'connected' | 'away' | 'score' | 'seq'>): void {
    this.s.seats.set(seat.id, { ...seat, connected: true, away: false, score: 0, seq: this.s.nextSeq++ });
    // The room's creator was named by its first reservation (expectCreator); without one, the first person to sit.
    if (this.s.creator === null && !seat.bot) this.s.creator = seat.identity !== null ? { key: seat.identity } : { seat: seat.id };
    if (!seat.bot && isCreatorSeat(this.s.creator, seat)) this.s.awaitingCreator = false;
    this.emit({ type: 'seated', player: seat.id, bot: seat.bot });
  }

  /**
   * Frees a seat. The creator's role stays with the room's creator for the room's life, whoever
   * sits where: it never passes to the next person, who might be a stranger (issue 32). A
   * creator who left comes back as host; an anonymous creator, whom nothing can recognise again,
   * leaves the table without anyone who may kick or unlock.
   */
  private unseat(id: PlayerId, reason: Extract<SeatEvent, { type: 'left' }>['reason']): void {
    this.endGrace(id);
    this.s.seats.delete(id);
    this.bots.delete(id);
    this.emit({ type: 'left', player: id, reason });
  }

  private goAway(seat: SeatState, reason: 'grace' | 'left'): void {
    seat.connected = false;
    seat.away = true;
    this.emit({ type: 'away', player: seat.id, reason });
    if (this.s.lifecycle === 'playing') this.advance();
  }

  /** A held seat's grace ran out: the lobby frees it; a game seat counts from the drop, then goes away. */
  private graceOver(id: PlayerId): void {
    this.run(() => {
      const grace = this.graces.get(id);
      const seat = this.s.seats.get(id);
      if (!grace || !seat) return refused('NOBODY_THERE');
      if (this.s.lifecycle === 'lobby' && !isCreatorSeat(this.s.creator, seat)) {
        this.unseat(id, 'grace');
        return applied;
      }
      // Dropped in the lobby and the game started meanwhile: the game's grace, counted from the drop.
      const left = grace.droppedAt + this.settings.reconnectGraceMs - this.settings.now();
      if (left > 0) {
        grace.timer = this.timers.after(left, () => this.graceOver(id));
        return refused('STALE_ACTION');
      }
      this.graces.delete(id);
      this.goAway(seat, 'grace');
      return applied;
    });
  }

  private endGrace(id: PlayerId): void {
    this.graces.get(id)?.timer.clear();
    this.graces.delete(id);
  }

  private playDefault(match: Match, reason: 'clock' | 'away'): void {
    const played = match.actByDefault();
    if (!played) return;
    if (reason === 'clock') this.autoPlayedAt.set(played.player, this.settings.now());
    this.emit({ type: 'defaultMove', player: played.player, move: played.action.type, reason });
    if (played.ok) for (const event of played.events) this.emit(event);
  }

  private isAway(id: PlayerId): boolean {
    return this.s.seats.get(id)?.away === true;
  }

  /**
   * After any change to a game: away players act at once (bots too when no human is left), the
   * deadline is set afresh for whoever must decide anew, a bot on turn starts thinking, and an
   * ended game is finished.
   */
  private advance(): void {
    const match = this.s.match!;
    const playOut = everyHumanAway(this.s);
    while (match.game.phase === 'playing') {
      const active = activePlayer(match.game)!;
      if (!this.isAway(active) && !(playOut && this.isBot(active))) break;
      this.playDefault(match, 'away');
    }
    if (match.game.phase === 'playing') {
      // Every applied action hands the decision to someone new, or (a peek) asks for a new one;
      // a change of someone else's presence leaves the running deadline alone.
      if (this.turnClock.step !== match.game.step) {
        this.s.deadline = this.settings.now() + match.game.options.turnSeconds * 1000;
        this.turnClock.restart(this.s.deadline, match.game.step);
      }
    } else {
      this.turnClock.stop();
      this.s.deadline = 0;
    }
    this.scheduleBot();
    if (match.game.phase === 'ended' && this.s.lifecycle === 'playing') this.finish(match);
  }

  /** The end, all at once: the lifecycle, the revealed secret, the scores and the record. */
  private finish(match: Match): void {
    const fairness = { commitment: this.secret.commitment, entropy: { ...this.s.fairness.entropy }, serverSeed: this.secret.serverSeed };
    const record = buildRecord({
      startedAt: this.startedAt,
      endedAt: this.settings.now(),
      match,
      nicknames: this.nicknames(),
      bots: [...this.bots.keys()],
      fairness,
    })!;
    const result = record.result;
    this.s.lifecycle = 'ended';
    this.s.result = result;
    this.s.fairness.serverSeed = this.secret.serverSeed;
    for (const [id, points] of Object.entries(result.scores)) {
      const seat = this.s.seats.get(id);
      if (seat) seat.score += points;
    }
    this.s.gamesPlayed++;
    this.finished = { record, result };
  }

  /** A bot on turn acts after its think time, deciding from its seat's view at that moment. */
  private scheduleBot(): void {
    this.botTimer?.clear();
    this.botTimer = null;
    const game = this.s.match?.game;
    if (!game || game.phase !== 'playing') return;
    const id = activePlayer(game)!;
    const bot = this.bots.get(id);
    if (!bot) return;
    const step = game.step;
    this.botTimer = this.timers.after(bot.thinkMs(this.settings.botThinkMs), () => {
      this.botTimer = null;
      const now = this.s.match?.game;
      if (!now || now.step !== step || now.phase !== 'playing') return;
      const { type, ...fields } = bot.decide(viewFor(now, id));
      this.hooks.botMove(id, type, { ...fields, step });
    });
  }

  /** A fresh secret for the next game; only its SHA-256 is public until that game ends. */
  private newSecret(): Secret {
    const fixed = this.settings.seed?.();
    return fixed === undefined ? newCommitment() : { serverSeed: fixed, commitment: sha256Hex(fixed) };
  }

  private stopGameTimers(): void {
    this.turnClock.stop();
    this.botTimer?.clear();
    this.botTimer = null;
  }
}
