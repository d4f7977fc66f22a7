/**
 * The load run's tables: six colyseus.js bots per room, from create and joins through the game
 * (each bot plays a random legal move, the `easy` practice bot's, from the rules' view of its
 * decoded state: server/schema/playerView.ts) to leaving and a new room in the same slot. Every decoded patch is timed against the action it shows and checked for hidden
 * information; everything lands in `Figures`.
 *
 * `lean` clients decode until the deal, then only time each patch's arrival and follow the game
 * from the `events` message (loadtest/leanSeat.ts): a load generator that leaves the machine's
 * cores to the server it measures. They check no patch for leaks after the deal.
 */
import { performance } from 'node:perf_hooks';
import { Client, Room } from 'colyseus.js';
import { actorOf, randInt, RngState } from '../../server/rules';
import { EventsMessage, ROOM_NAME, SERVER_MESSAGES } from '../../server/protocol';
import { CockroachState } from '../../server/schema/CockroachState';
import { playerViewOf } from '../../server/schema/playerView';
import { easyMove } from '../../server/bots/easy';
import { Figures } from './figures';
import { joinFailureKind, withinJoinTimeout } from './joins';
import { hiddenInfoViolations, PatchChange } from './leakCheck';
import { Scheduler } from './scheduler';
import { chooseMoveFrom } from '../clientBot';
import { LeanSeat } from '../leanSeat';
import { FRAME_CODES, rawSocketOf, stopDecodingPatches } from '../../server/colyseus/client';

export const SEATS = 6;
const { ROOM_STATE, ROOM_STATE_PATCH } = FRAME_CODES;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Bot {
  table: Table;
  seat: number;
  room: Room<CockroachState>;
  id: string;
  /** Highest step this client has decoded. */
  lastStep: number;
  /** Step of the last counted action patch (bytes attribution). */
  byteStep: number;
  /** Step a move is already scheduled for, so one patch never schedules two. */
  scheduledStep: number;
  joinStateSeen: boolean;
  resultSeen: boolean;
  leaving: boolean;
  changes: PatchChange[];
  /** Set once a lean client stops decoding (at the deal). */
  lean: LeanSeat | null;
  /** When and how big the last patch frame was that a lean client did not decode. */
  patchAt: number;
  patchSize: number;
}

/** An action sent and not yet seen by all six clients. */
interface Pending {
  step: number;
  t0: number;
  actor: Bot;
  actorDone: boolean;
  othersLeft: number;
}

interface Table {
  slot: number;
  bots: Bot[];
  pending: Pending[];
  seated: boolean;
  startSent: boolean;
  ended: boolean;
  closing: boolean;
  stalled: boolean;
  lastProgress: number;
}

export interface FleetOptions {
  pace: 'human' | 'fast';
  /** Seat the bots but never start. */
  idle: boolean;
  /** `decoding`: every client decodes every patch; `lean`: only until the deal (see above). */
  clients: 'decoding' | 'lean';
}

const NO_CHANGES: PatchChange[] = [];

export class Fleet {
  readonly tables = new Set<Table>();
  /** A playing room that shows no progress this long is stalled (human turns take at most 3 s). */
  private readonly stallMs: number;

  constructor(
    private readonly client: Client,
    private readonly options: FleetOptions,
    private readonly figures: Figures,
    private readonly scheduler: Scheduler,
    private readonly rng: RngState,
  ) {
    this.stallMs = options.pace === 'human' ? 15_000 : 10_000;
  }

  liveClients(): number {
    let n = 0;
    for (const t of this.tables) n += t.bots.length;
    return n;
  }

  /** Fills one slot with a new six-player room; false if a join failed (counted as errors). */
  async openTable(slot: number): Promise<boolean> {
    const table: Table = {
      slot,
      bots: [],
      pending: [],
      seated: false,
      startSent: false,
      ended: false,
      closing: false,
      stalled: false,
      lastProgress: performance.now(),
    };
    let host: Room<CockroachState>;
    try {
      host = await withinJoinTimeout(this.client.create<CockroachState>(ROOM_NAME, { nickname: `b${slot}-0` }, CockroachState));
    } catch (error) {
      this.figures.countError(joinFailureKind('create', error), error);
      return false;
    }
    table.bots.push(this.attach(table, host, 0));
    this.tables.add(table);
    const joins = await Promise.allSettled(
      Array.from({ length: SEATS - 1 }, (_, i) =>
        withinJoinTimeout(this.client.joinById<CockroachState>(host.roomId, { nickname: `b${slot}-${i + 1}` }, CockroachState))
          // Seats taken by the others arrive as events before this bot is attached: heard, not counted.
          .then((room) => (room.onMessage(SERVER_MESSAGES.events, () => undefined), room)),
      ),
    );
    for (const [i, j] of joins.entries()) {
      if (j.status === 'fulfilled') table.bots.push(this.attach(table, j.value, i + 1));
      else this.figures.countError(joinFailureKind('join', j.reason), j.reason);
    }
    if (table.bots.length < SEATS || this.figures.stopping) {
      await this.close(table);
      return false;
    }
    table.seated = true;
    table.lastProgress = performance.now();
    this.maybeStart(table);
    return true;
  }

  /** Playing rooms with no progress for the stall time are counted once as stalled (an error). */
  checkStalls(): void {
    const now = performance.now();
    for (const t of this.tables) {
      if (t.stalled || t.closing || !t.seated || now - t.lastProgress < this.stallMs) continue;
      const first = t.bots[0];
      const phase = first?.lean?.phase ?? first?.room.state.phase;
      if (phase === 'ended' || (this.options.idle && phase === 'lobby')) continue;
      t.stalled = true;
      this.figures.stalls++;
      this.figures.countError(
        'stalled room',
        `room ${first?.room.roomId} step ${first?.lean?.step ?? first?.room.state.step} phase ${phase}`,
      );
    }
  }

  /** Every table leaves politely (an external server would otherwise hold the reconnection grace). */
  async closeAll(): Promise<void> {
    const all = [...this.tables];
    for (let i = 0; i < all.length; i += 200) await Promise.all(all.slice(i, i + 200).map((t) => this.close(t)));
  }

  private attach(table: Table, room: Room<CockroachState>, seat: number): Bot {
    const bot: Bot = {
      table,
      seat,
      room,
      id: room.sessionId,
      lastStep: 0,
      byteStep: 0,
      scheduledStep: -1,
      joinStateSeen: false,
      resultSeen: false,
      leaving: false,
      changes: NO_CHANGES,
      lean: null,
      patchAt: 0,
      patchSize: 0,
    };
    keepDecodedChanges(bot, room.state);
    // Registered after colyseus.js's own onmessage: runs once the frame is decoded.
    rawSocketOf(room)!.addEventListener('message', (ev) => this.onFrame(bot, ev.data));
    room.onStateChange(() => this.onPatch(bot));
    room.onMessage(SERVER_MESSAGES.error, (m: { code?: string }) => this.onRefused(bot, m));
    room.onMessage(SERVER_MESSAGES.result, () => this.onResult(bot));
    // What happened at the table: decoding bots decide from the state alone, lean ones from this.
    room.onMessage(SERVER_MESSAGES.events, (m: EventsMessage) => this.onEvents(bot, m));
    room.onMessage('*', (type) => this.figures.countError(`unexpected message ${String(type)}`));
    room.onLeave((code) => {
      if (!bot.leaving && !this.figures.stopping) this.figures.countError(`closed ${code}`);
    });
    room.onError((code, message) => this.figures.countError(`room error ${code}`, message));
    return bot;
  }

  private onFrame(bot: Bot, data: ArrayBuffer): void {
    const size = data.byteLength;
    const code = size > 0 ? new Uint8Array(data, 0, 1)[0] : -1;
    if (code === ROOM_STATE && !bot.joinStateSeen) {
      bot.joinStateSeen = true;
      this.figures.joinState.record(size);
    } else if (code === ROOM_STATE_PATCH && bot.lean) {
      // Its step is known from the events that follow it (onEvents).
      bot.patchAt = performance.now();
      bot.patchSize = size;
    } else if (code === ROOM_STATE_PATCH) {
      const step = bot.room.state.step;
      if (step > bot.byteStep) {
        bot.byteStep = step;
        this.figures.actionPatchBytes.record(size);
      } else this.figures.otherPatchBytes += size;
    }
  }

  private onPatch(bot: Bot): void {
    const figures = this.figures;
    const table = bot.table;
    const state = bot.room.state;
    const step = state.step;
    if (step > bot.lastStep) this.reached(bot, step, performance.now());

    const violations = hiddenInfoViolations(state, bot.id, bot.changes);
    bot.changes = NO_CHANGES;
    if (violations.length > 0) figures.countLeaks(bot.id, violations);

    if (figures.stopping || table.closing) return;
    if (state.phase === 'lobby') return this.maybeStart(table);
    if (state.phase !== 'playing') return;
    if (this.options.clients === 'lean') return this.goLean(bot);
    const round = state.round;
    // The rules' own rule on the public facts; the whole view is built only for the bot on turn.
    const active = actorOf(state.phase, round.hasCard, round.starter, round.holder);
    if (active !== bot.id || bot.scheduledStep === step) return;
    bot.scheduledStep = step;
    this.scheduler.after(this.humanDelay(), () => this.act(bot, step));
  }

  /** The actions this bot now sees applied: timed from their sending to `now`, when the patch arrived. */
  private reached(bot: Bot, step: number, now: number): void {
    const figures = this.figures;
    const table = bot.table;
    let settled = false;
    for (const p of table.pending) {
      if (p.step < bot.lastStep || p.step >= step) continue;
      if (p.actor === bot) {
        p.actorDone = true;
        figures.actions++;
        figures.latency.record(now - p.t0);
        figures.recentLatency.record(now - p.t0);
      } else if (--p.othersLeft === 0) figures.fanout.record(now - p.t0);
      if (p.actorDone && p.othersLeft === 0) settled = true;
    }
    if (settled) table.pending = table.pending.filter((p) => !(p.actorDone && p.othersLeft === 0));
    bot.lastStep = step;
    table.lastProgress = now;
  }

  /** At the deal a lean client keeps what it knows and stops decoding patches (colyseus.js still handles every other frame). */
  private goLean(bot: Bot): void {
    if (bot.lean) return;
    bot.lean = new LeanSeat(bot.room.state, bot.id);
    // Nothing reads the decoded state again: let it go with everything the decoder holds.
    bot.changes = NO_CHANGES;
    stopDecodingPatches(bot.room);
    this.leanSchedule(bot);
  }

  private onEvents(bot: Bot, message: EventsMessage): void {
    const seat = bot.lean;
    if (!seat) return;
    if (seat.apply(message)) {
      this.figures.actionPatchBytes.record(bot.patchSize);
      this.reached(bot, seat.step, bot.patchAt);
    } else this.figures.otherPatchBytes += bot.patchSize;
    bot.patchSize = 0;
    if (!this.figures.stopping && !bot.table.closing) this.leanSchedule(bot);
  }

  private leanSchedule(bot: Bot): void {
    const seat = bot.lean!;
    const step = seat.step;
    if (seat.actor() !== bot.id || bot.scheduledStep === step) return;
    bot.scheduledStep = step;
    this.scheduler.after(this.humanDelay(), () => this.leanAct(bot, step));
  }

  private leanAct(bot: Bot, step: number): void {
    const seat = bot.lean!;
    if (this.figures.stopping || bot.table.closing || seat.phase !== 'playing' || seat.step !== step) return;
    const move = chooseMoveFrom(seat, bot.id, this.rng);
    if (!move) return;
    if (move.type === 'offer') seat.offered(move.payload.cardId);
    this.send(bot, step, move.type, move.payload);
  }

  /** An action sent, timed until each of the room's clients sees its step applied (`reached`). */
  private send(bot: Bot, step: number, type: string, payload: object): void {
    const table = bot.table;
    table.pending.push({ step, t0: performance.now(), actor: bot, actorDone: false, othersLeft: table.bots.length - 1 });
    bot.room.send(type, payload);
  }

  private humanDelay(): number {
    return this.options.pace === 'human' ? 1000 + randInt(this.rng, 2001) : 0;
  }

  private act(bot: Bot, step: number): void {
    const table = bot.table;
    const state = bot.room.state;
    if (this.figures.stopping || table.closing || state.phase !== 'playing' || state.step !== step) return;
    const { type, ...fields } = easyMove(playerViewOf(state, bot.id), bot.id, this.rng);
    this.send(bot, step, type, { ...fields, step });
  }

  /** A refused action: counted, and the bot tries again so its room does not stall. */
  private onRefused(bot: Bot, message: { code?: string }): void {
    this.figures.countError(`refused ${message?.code ?? '?'}`);
    const table = bot.table;
    table.pending = table.pending.filter((p) => p.actor !== bot || p.actorDone);
    bot.scheduledStep = -1;
    this.scheduler.after(this.options.pace === 'human' ? 1000 : 10, () => (bot.lean ? this.leanSchedule(bot) : this.onPatch(bot)));
  }

  private maybeStart(table: Table): void {
    const host = table.bots[0];
    if (this.options.idle || !table.seated || table.startSent || !host || host.room.state.players.size < SEATS) return;
    table.startSent = true;
    host.room.send('start', {});
  }

  private onResult(bot: Bot): void {
    const table = bot.table;
    bot.resultSeen = true;
    if (!table.ended) {
      table.ended = true;
      this.figures.games++;
    }
    if (table.bots.every((b) => b.resultSeen)) void this.replace(table);
  }

  private async close(table: Table): Promise<void> {
    table.closing = true;
    this.tables.delete(table);
    await leaveAll(table.bots);
  }

  /** A finished (or failed) game leaves; a new room takes its slot. */
  private async replace(table: Table): Promise<void> {
    if (table.closing) return;
    await this.close(table);
    while (!this.figures.stopping && !(await this.openTable(table.slot))) await sleep(1000);
  }
}

async function leaveAll(bots: Bot[]): Promise<void> {
  for (const b of bots) b.leaving = true;
  // One timer for the whole table, not one per bot: a leave the server never confirms gives up.
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all(bots.map((b) => b.room.leave(true).catch(() => undefined))),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, 5000))),
  ]);
  clearTimeout(timer);
}

/**
 * Each decode's changes, for the leak check. A function of its own: a closure made in addBot
 * would share its context with the socket's listeners there and keep the decoded state alive
 * after a lean client lets it go.
 */
function keepDecodedChanges(bot: Bot, state: CockroachState): void {
  const decode = state.decode.bind(state);
  state.decode = ((...args: Parameters<CockroachState['decode']>) => {
    const changes = decode(...args);
    bot.changes = changes as unknown as PatchChange[];
    return changes;
  }) as CockroachState['decode'];
}
