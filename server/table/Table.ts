import { activePlayer, GameOptions, Match, PlayerId, RuleError, Action, viewFor, PlayerView } from '../rules';
import type { CockroachResult } from '../rules';
import type { CockroachState } from '../schema/CockroachState';
import { projectGame, resetForRematch, setDeadline, setFairness, setGamesPlayed, setHost, setScore } from '../project';
import { buildRecord, canonicalPlayers, deriveSeed, FinishedGameRecord } from '../fairness';
import { newCommitment } from '../fairness/commitment';
import { sha256Hex } from '../fairness/sha256';
import type { ErrorCode, GameActionType } from '../protocol';
import { LATE_ACTION_WINDOW_MS } from '../room/constants';
import * as metrics from '../ops/metrics';
import { Timers } from './timers';
import { TurnClock } from './TurnClock';

/**
 * What the table needs from whoever carries it (the Colyseus room, or a test): it decides, the
 * host transports. Nothing here knows about sockets.
 */
export interface TableHost {
  readonly state: CockroachState;
  /** Epoch ms. */
  now(): number;
  /** Sends the state's pending changes to every client now. */
  patch(): void;
  broadcast(type: string, message: unknown): void;
  /** A bot's move, through the same path as a player's message. */
  actAs(playerId: PlayerId, type: GameActionType, payload: Record<string, unknown>): void;
  /** The game has ended and its result was sent; `everyoneAway`: no human is left to play on. */
  gameEnded(everyoneAway: boolean): void;
  /** The finished game's record, to be stored (never waited for: a slow store holds up nobody). */
  recordFinished(record: FinishedGameRecord): void;
}

/** A practice bot as the table uses it: a function of its seat's view, never of the game. */
export interface TableBot {
  decide(view: PlayerView): Action;
  thinkMs(maxMs: number): number;
}

export interface TableSettings {
  botThinkMs: number;
  /** Tests only: a fixed server seed. Clients can never choose the seed. */
  seed?: () => string;
}

/** This game's secret and its published commitment (PROTOCOL v2 "Fair play you can check"). */
interface Secret {
  serverSeed: string;
  commitment: string;
}

export type PlayOutcome = { ok: true } | { ok: false; code: ErrorCode | RuleError };

/**
 * The game path without sockets, the way boardgame.io keeps its `Master` apart from transport:
 * the match, the turn clock, players' moves, default moves, away players, bots and the result.
 * Every game change goes through `applyGameChange`.
 */
export class Table {
  match: Match | null = null;
  readonly timers: Timers;
  private readonly turnClock: TurnClock;
  /** When the clock last played each player's turn (epoch ms). */
  private readonly autoPlayedAt = new Map<PlayerId, number>();
  private readonly bots = new Map<PlayerId, TableBot>();
  private botTimer: { clear(): void } | null = null;
  private lastResult: CockroachResult | null = null;
  /** The id of the last finished game (`result.gameId`): the hash of its record. */
  gameId = '';
  private secret!: Secret;
  /** Each seated player's `entropy` join option ('' for none, and for bots). */
  private readonly entropy = new Map<PlayerId, string>();
  private startedAt = 0;

  constructor(
    private readonly host: TableHost,
    readonly options: GameOptions,
    private readonly settings: TableSettings,
    private readonly roomId = '',
  ) {
    this.timers = new Timers(() => host.now());
    this.turnClock = new TurnClock(
      this.timers,
      () => host.now(),
      (step) => this.playDefault(step),
    );
    this.commit();
  }

  /** A fresh secret for the next game; only its SHA-256 is public until that game ends. */
  private commit(): void {
    const fixed = this.settings.seed?.();
    this.secret = fixed === undefined ? newCommitment() : { serverSeed: fixed, commitment: sha256Hex(fixed) };
    setFairness(this.state, { commitment: this.secret.commitment, entropy: {}, serverSeed: '' });
  }

  /** A player took a seat with this `entropy` ('' for none). */
  seated(id: PlayerId, entropy: string): void {
    this.entropy.set(id, entropy);
  }

  unseated(id: PlayerId): void {
    this.entropy.delete(id);
    this.bots.delete(id);
  }

  get state(): CockroachState {
    return this.host.state;
  }

  get phase(): CockroachState['phase'] {
    return this.state.phase;
  }

  /** The finished game's result, for whoever joins or comes back to the results screen. */
  get result(): CockroachResult | null {
    return this.phase === 'ended' ? this.lastResult : null;
  }

  /** Runs due timers; the host calls it on its tick. */
  tick(): void {
    this.timers.run();
  }

  seatBot(id: PlayerId, bot: TableBot): void {
    this.bots.set(id, bot);
    this.entropy.set(id, '');
  }

  isBot(id: PlayerId): boolean {
    return this.bots.has(id);
  }

  /**
   * The deal comes from the server's committed secret and every player's entropy together
   * (docs/fairness.md): neither side alone chooses it. The players go to the rules in a fixed
   * order, so the server cannot pick a deal by ordering them either.
   */
  start(): void {
    const ids = canonicalPlayers([...this.state.players.keys()]);
    const entropy: Record<PlayerId, string> = {};
    for (const id of ids) entropy[id] = this.entropy.get(id) ?? '';
    const started = Match.start(deriveSeed(this.secret.serverSeed, entropy), ids, this.options);
    if (!started.ok) throw new Error(`start refused: ${started.error.code}`);
    setFairness(this.state, { entropy });
    this.match = started.match;
    this.startedAt = this.host.now();
    this.gameId = '';
    this.lastResult = null;
    this.autoPlayedAt.clear();
    this.applyGameChange();
    metrics.gameStarted(this.roomId, this.state.players.size);
  }

  /**
   * Back to the lobby with the same options (PROTOCOL v2 "Rooms that last"): the host has removed
   * whoever loses a seat; scores and `gamesPlayed` stay, the last game's state goes.
   */
  rematch(): void {
    this.stopGameTimers();
    this.match = null;
    this.lastResult = null;
    this.autoPlayedAt.clear();
    resetForRematch(this.state, () => this.host.patch());
    this.commit();
    this.host.patch();
  }

  /** A player's move through the rules; applied moves are logged by the match. */
  play(id: PlayerId, action: Action, actionName: string, step: number | undefined): PlayOutcome {
    const match = this.match;
    if (!match || this.phase !== 'playing') return { ok: false, code: 'NOT_PLAYING' };
    if (step !== undefined && step !== match.game.step) return { ok: false, code: 'STALE_ACTION' };
    const startedMs = metrics.actionTimer();
    const autoPlayed = this.autoPlayedAt.get(id);
    if (step === undefined && autoPlayed !== undefined && this.host.now() - autoPlayed < LATE_ACTION_WINDOW_MS) {
      return { ok: false, code: 'STALE_ACTION' };
    }
    const result = match.act(id, action);
    if (!result.ok) return { ok: false, code: result.error };
    this.autoPlayedAt.delete(id);
    this.applyGameChange();
    metrics.actionApplied(this.roomId, actionName, id, match.game.step, startedMs);
    return { ok: true };
  }

  /** The turn clock expired at `step`: play the default action for whoever had to act. */
  playDefault(step: number): void {
    const match = this.match;
    if (!match || match.game.phase !== 'playing' || match.game.step !== step) return;
    const played = match.actByDefault();
    if (played) {
      this.autoPlayedAt.set(played.player, this.host.now());
      metrics.turnTimedOut(this.roomId, step);
    }
    this.applyGameChange();
  }

  /** A seated player is away (grace over, or left on purpose): their turns play at once. */
  presenceChanged(): void {
    if (this.match && this.phase === 'playing') this.applyGameChange();
    else this.host.patch();
  }

  /**
   * The single way a game change reaches clients: away players act at once, the schema follows
   * the game, the deadline is set afresh, a bot on turn starts thinking, and the patch leaves now.
   */
  private applyGameChange(): void {
    const match = this.match!;
    const playOut = this.everyHumanAway();
    while (match.game.phase === 'playing') {
      const active = activePlayer(match.game)!;
      if (!this.isAway(active) && !(playOut && this.isBot(active))) break;
      match.actByDefault();
    }
    projectGame(this.state, match.game);
    // Every applied action hands the decision to someone new, or (a peek) asks for a new one;
    // a change of someone else's presence leaves the running deadline alone.
    if (match.game.phase === 'playing') {
      if (this.turnClock.step !== match.game.step)
        setDeadline(this.state, this.turnClock.restart(match.game.options.turnSeconds * 1000, match.game.step));
    } else {
      this.turnClock.stop();
      setDeadline(this.state, 0);
    }
    this.scheduleBot();
    this.host.patch();
    if (match.game.phase === 'ended' && !this.lastResult) this.finish(match);
  }

  private finish(match: Match): void {
    const fairness = {
      commitment: this.secret.commitment,
      entropy: Object.fromEntries(this.state.fairness.entropy.entries()),
      serverSeed: this.secret.serverSeed,
    };
    const record = buildRecord({
      startedAt: this.startedAt,
      endedAt: this.host.now(),
      match,
      nicknames: this.nicknames(),
      bots: [...this.bots.keys()],
      fairness,
    })!;
    const result = record.result;
    this.gameId = record.gameId;
    this.lastResult = result;
    setFairness(this.state, { serverSeed: this.secret.serverSeed });
    for (const [id, points] of Object.entries(result.scores)) setScore(this.state, id, (this.state.players.get(id)?.score ?? 0) + points);
    setGamesPlayed(this.state, this.state.gamesPlayed + 1);
    metrics.gameEnded(this.roomId, match.game.lossReason ?? '', match.game.step);
    if (this.isAway(this.state.hostId) || !this.state.players.has(this.state.hostId)) setHost(this.state, this.firstPresentHuman());
    this.host.patch();
    this.host.broadcast('result', result);
    this.host.recordFinished(record);
    this.host.gameEnded(this.everyHumanAway());
  }

  /** A bot on turn acts after its think time, deciding from its seat's view at that moment. */
  private scheduleBot(): void {
    this.botTimer?.clear();
    this.botTimer = null;
    const game = this.match?.game;
    if (!game || game.phase !== 'playing') return;
    const id = activePlayer(game)!;
    const bot = this.bots.get(id);
    if (!bot) return;
    const step = game.step;
    this.botTimer = this.timers.after(bot.thinkMs(this.settings.botThinkMs), () => {
      this.botTimer = null;
      if (!this.match || this.match.game.step !== step || this.match.game.phase !== 'playing') return;
      const action = bot.decide(viewFor(this.match.game, id));
      const { type, ...fields } = action;
      this.host.actAs(id, type, { ...fields, step });
    });
  }

  private isAway(id: PlayerId): boolean {
    return this.state.players.get(id)?.away === true;
  }

  /** Bots are never away; with no human present the game has nobody to wait for. */
  everyHumanAway(): boolean {
    for (const [id, p] of this.state.players) if (!this.isBot(id) && !p.away) return false;
    return true;
  }

  /** The first seated, connected human in join order, or null. */
  firstPresentHuman(): PlayerId | null {
    for (const [id, p] of this.state.players) if (!this.isBot(id) && !p.away && p.connected) return id;
    return null;
  }

  nicknames(): Record<PlayerId, string> {
    const names: Record<PlayerId, string> = {};
    this.state.players.forEach((p, id) => (names[id] = p.nickname));
    return names;
  }

  /** Stops every timer: the room is closing or failed. */
  stop(): void {
    this.stopGameTimers();
    this.timers.clearAll();
  }

  private stopGameTimers(): void {
    this.turnClock.stop();
    this.botTimer?.clear();
    this.botTimer = null;
  }
}
