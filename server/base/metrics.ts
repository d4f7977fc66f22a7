/**
 * Prometheus metrics (prom-client) and the calls rooms make to count what happens in them.
 * Each call from a room is one line there; it counts the event here and logs it as a JSON line.
 * Labels are from fixed sets (phases, actions, codes): never a room or player id.
 */
import { performance } from 'node:perf_hooks';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { matchMaker } from 'colyseus';
import { socketErrors } from '../colyseus/transport/GuardedTransport';
import { log } from './log';
import { localRooms } from './rooms';

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

const PHASES = ['lobby', 'playing', 'ended'] as const;
const GAME_ACTIONS = new Set(['offer', 'call', 'peek', 'pass']);

new Gauge({
  name: 'cockroach_rooms',
  help: 'Rooms in this process by phase',
  labelNames: ['phase'],
  registers: [registry],
  collect() {
    const counts: Record<string, number> = { lobby: 0, playing: 0, ended: 0 };
    for (const room of localRooms) {
      const phase = room.state?.phase;
      if (phase !== undefined && phase in counts) counts[phase]++;
    }
    for (const phase of PHASES) this.set({ phase }, counts[phase]);
  },
});

new Gauge({
  name: 'cockroach_clients',
  help: 'Connected clients in this process by role',
  labelNames: ['role'],
  registers: [registry],
  collect() {
    let all = 0;
    let spectators = 0;
    for (const room of localRooms) {
      all += room.clients.length;
      spectators += room.spectators.size;
    }
    this.set({ role: 'player' }, Math.max(0, all - spectators));
    this.set({ role: 'spectator' }, spectators);
  },
});

const actions = new Counter({
  name: 'cockroach_actions_total',
  help: 'Game actions applied, by action; source "player" or "timeout" (the turn clock)',
  labelNames: ['action', 'source'],
  registers: [registry],
});

const refusals = new Counter({
  name: 'cockroach_refusals_total',
  help: 'Client messages refused with an error reply, by error code',
  labelNames: ['code'],
  registers: [registry],
});

const actionSeconds = new Histogram({
  name: 'cockroach_action_seconds',
  help: 'Time to apply a player action in the room: rules, projection, patch sent',
  labelNames: ['action'],
  buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
  registers: [registry],
});

const reconnections = new Counter({
  name: 'cockroach_reconnections_total',
  help: 'Dropped players: "reconnected" within the grace, or "expired" (the seat went away)',
  labelNames: ['outcome'],
  registers: [registry],
});

const timeouts = new Counter({
  name: 'cockroach_turn_timeouts_total',
  help: 'Turns the clock played because the player did not act in time',
  registers: [registry],
});

const games = new Counter({
  name: 'cockroach_games_total',
  help: 'Games by event: "started", or "ended" with the loss reason',
  labelNames: ['event', 'reason'],
  registers: [registry],
});

export const gamesCut = new Counter({
  name: 'cockroach_games_cut_total',
  help: 'Games still running when a drain ran out of time: players told SERVER_SHUTDOWN, then closed',
  registers: [registry],
});

const roomFailures = new Counter({
  name: 'cockroach_room_failures_total',
  help: 'Rooms closed because handling failed (clients got SERVER_ERROR)',
  registers: [registry],
});

// Known series start at 0, so rate() and alerts see them before the first event.
for (const action of ['start', ...GAME_ACTIONS]) actions.inc({ action, source: 'player' }, 0);
actions.inc({ action: 'timeout', source: 'timeout' }, 0);
for (const outcome of ['reconnected', 'expired']) reconnections.inc({ outcome }, 0);

export const draining = new Gauge({
  name: 'cockroach_draining',
  help: '1 while this process drains (takes no new rooms), else 0',
  registers: [registry],
});

new Gauge({
  name: 'cockroach_socket_errors',
  help: 'Protocol-level socket errors seen by the transport since start (oversized or malformed frames)',
  registers: [registry],
  collect() {
    this.set(socketErrors.count);
  },
});

new Gauge({
  name: 'cockroach_process_info',
  help: 'Constant 1, labelled with the Colyseus process id of this process',
  labelNames: ['process_id'],
  registers: [registry],
  collect() {
    this.reset();
    if (matchMaker.processId) this.set({ process_id: matchMaker.processId }, 1);
  },
});

export function metricsContentType(): string {
  return registry.contentType;
}

export function metricsText(): Promise<string> {
  return registry.metrics();
}

// ---- called from rooms (server/room/CockroachRoom.ts), one line per event ----

/** A start time for `actionApplied` (monotonic ms). */
export function actionTimer(): number {
  return performance.now();
}

/** A player's action went through the rules and its patch was sent. */
export function actionApplied(roomId: string, action: string, player: string, step: number, startedMs: number): void {
  const label = GAME_ACTIONS.has(action) ? action : 'other';
  actions.inc({ action: label, source: 'player' });
  actionSeconds.observe({ action: label }, (performance.now() - startedMs) / 1000);
  log.debug('action', { roomId, action: label, player, step });
}

/** A message was answered with `error` { code }. */
export function refused(roomId: string, action: string, code: string): void {
  refusals.inc({ code });
  log.debug('refused', { roomId, action: GAME_ACTIONS.has(action) || action === 'start' || action === 'chat' ? action : 'other', code });
}

/** The turn clock played a turn. */
export function turnTimedOut(roomId: string, step: number): void {
  timeouts.inc();
  actions.inc({ action: 'timeout', source: 'timeout' });
  log.debug('action', { roomId, action: 'timeout', step });
}

export function reconnection(roomId: string, player: string, outcome: 'reconnected' | 'expired'): void {
  reconnections.inc({ outcome });
  log.info(outcome === 'reconnected' ? 'player.reconnected' : 'player.away', { roomId, player });
}

export function gameStarted(roomId: string, players: number): void {
  games.inc({ event: 'started', reason: '' });
  actions.inc({ action: 'start', source: 'player' });
  log.info('game.started', { roomId, action: 'start', players });
}

export function gameEnded(roomId: string, reason: string, steps: number): void {
  games.inc({ event: 'ended', reason });
  log.info('game.ended', { roomId, reason, steps });
}

export function roomFailed(roomId: string, where: string, error: unknown): void {
  roomFailures.inc();
  log.error('room.failed', { roomId, where }, error);
}
