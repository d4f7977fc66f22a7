/**
 * One seeded evening at a table, played through the real table (server/table/Table.ts) and
 * projection into a CockroachState, with every byte a state writer sends to each client recorded:
 * players and a bot sit down, watchers come and go (one joins mid-game), the table locks and
 * opens, a player's phone drops and comes back as a new connection with the same session id, a
 * game is played to its end, a watcher is kicked, a rematch, a newcomer, a second game.
 *
 * The writer is handed in: the room's own (server/colyseus/schema/patchWriter.ts) in the test's
 * process, Colyseus's stock SchemaSerializer in a worker where nothing of ours touches the library
 * (stockWorker.ts). This module imports neither, so the same script drives both.
 */
import { ClientState } from 'colyseus';
import { createBot } from '../../server/bots';
import { Projection } from '../../server/project';
import { MAX_GAMES_PER_ROOM, NICKNAME_MAX } from '../../server/protocol';
import { activePlayer, randomLegalAction, seedRng, validateOptions } from '../../server/rules';
import type { Action } from '../../server/rules';
import { CockroachState } from '../../server/schema/CockroachState';
import { Table } from '../../server/table/Table';

/** What the writers see of a client: Colyseus's Client as far as a serializer reads it. */
export interface WireClient {
  sessionId: string;
  state: ClientState;
  raw(bytes: ArrayLike<number>): void;
}

/** Colyseus's Serializer as the room uses it. */
export interface StateWriter {
  reset(state: CockroachState): void;
  getFullState(client?: WireClient): number[];
  applyPatches(clients: WireClient[]): boolean;
}

export interface ScenarioSpec {
  seed: string;
  players: number;
  options: Record<string, unknown>;
}

const hex = (bytes: ArrayLike<number>) => Buffer.from(Array.from(bytes)).toString('hex');

/** Every message the writer sent, in order: `<n> <patch|full> <sessionId> <hex>`. */
export function playScenario(spec: ScenarioSpec, writer: StateWriter): string[] {
  const parsed = validateOptions({ turnSeconds: 30, ...spec.options });
  if (!parsed.ok) throw new Error('scenario options');
  const sent: string[] = [];
  let n = 0;
  let now = 1_767_000_000_000;
  let secrets = 0;
  const state = new CockroachState();
  writer.reset(state);
  const projection = new Projection(state);
  const clients = new Map<string, WireClient>();
  const rng = seedRng(`${spec.seed}-script`);
  const table: Table = new Table(
    {
      options: parsed.options,
      now: () => now,
      botThinkMs: 800,
      reconnectGraceMs: 90_000,
      lobbyGraceMs: 20_000,
      seed: () => `${spec.seed}-secret-${secrets++}`,
      maxGames: MAX_GAMES_PER_ROOM,
      nicknameMax: NICKNAME_MAX,
    },
    {
      changed: () => {
        projection.project(table.state);
        writer.applyPatches([...clients.values()]);
        n++;
      },
      botMove: (id, type, payload) => {
        const { step, ...fields } = payload;
        table.move(id, { type, ...fields } as Action, step as number);
      },
    },
  );
  projection.project(table.state);

  const client = (sessionId: string): WireClient => ({
    sessionId,
    state: ClientState.JOINING,
    raw: (bytes) => void sent.push(`${n} patch ${sessionId} ${hex(bytes)}`),
  });
  /** As Colyseus joins a client: it is JOINING while the room's onJoin runs, then gets the full state. */
  const connect = (sessionId: string, onJoin: () => void) => {
    const c = client(sessionId);
    clients.set(sessionId, c);
    onJoin();
    sent.push(`${n} full ${sessionId} ${hex(writer.getFullState(c))}`);
    c.state = ClientState.JOINED;
  };
  const disconnect = (sessionId: string) => {
    clients.get(sessionId)!.state = ClientState.LEAVING;
    clients.delete(sessionId);
  };
  const host = 'p0';
  const sit = (id: string, who = `guest:${id}`) =>
    connect(id, () => {
      const step = table.seat({ id, nickname: `n-${id}`, who: { key: who, address: '10.0.0.1' } });
      if (!step.outcome.ok) throw new Error(`seat ${id}: ${JSON.stringify(step.outcome)}`);
    });
  const watch = (id: string, nickname: string | null) =>
    connect(id, () => {
      const step = table.watch({ id, nickname, who: { key: `guest:${id}`, address: '10.0.0.2' } });
      if (!step.outcome.ok) throw new Error(`watch ${id}: ${JSON.stringify(step.outcome)}`);
    });
  const tick = (ms: number) => {
    now += ms;
    table.tick();
  };

  /** Plays until the game ends: a phone drops and comes back, a watcher leaves and another comes. */
  const playOut = (game: number) => {
    const match = table.match!;
    for (let step = 0; match.game.phase === 'playing' && step < 600; step++) {
      const actor = activePlayer(match.game)!;
      if (table.isBot(actor)) tick(1000);
      else {
        const move = randomLegalAction(match.game, actor, rng)!;
        const outcome = table.move(actor, move, match.game.step).outcome;
        if (!outcome.ok) throw new Error(`move: ${JSON.stringify(outcome)}`);
        tick(400);
      }
      if (step === 4) watch(`w${game}b`, null);
      if (step === 7 && clients.has('p1')) {
        disconnect('p1');
        table.drop('p1');
      }
      if (step === 13 && !clients.has('p1')) connect('p1', () => void table.return('p1'));
      if (step === 10 && game === 0) {
        disconnect('w0');
        table.unwatch('w0');
      }
    }
    if (match.game.phase !== 'ended') throw new Error('the game did not end');
  };

  sit(host);
  watch('w0', '할머니');
  for (let i = 1; i < spec.players; i++) sit(`p${i}`);
  if (spec.players < 6) table.addBot(host, () => ({ id: 'bot_1', decider: createBot('gentle', `${spec.seed}-bot`) }));
  table.lock(host);
  table.unlock(host);
  table.start(host);
  playOut(0);
  // The results screen: a watcher removed (the table locks), then a rematch and a newcomer.
  table.kick(host, 'w0b');
  disconnect('w0b');
  table.unlock(host);
  table.rematch(host);
  if (spec.players < 5) sit('p9');
  table.start(host);
  playOut(1);
  return sent;
}
