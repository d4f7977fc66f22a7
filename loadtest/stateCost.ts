/**
 * What the synced state costs per room, without sockets: N six-player rooms, each projected from
 * a seeded game and encoded exactly as Colyseus's SchemaSerializer does with filters (encode once,
 * then `applyFilters` per client, six clients each with their own filter bookkeeping), played to
 * the middle of the game. Prints one JSON object: live heap per room after a full GC (state,
 * change tracking and per-client filter state; no sockets, no Colyseus room), and CPU per action
 * of the projection, the encode and the six filter passes.
 *
 *   node --expose-gc --import tsx loadtest/stateCost.ts [--rooms 500] [--actions 40] [--seed cost] [--writer room|library]
 *
 * A quick A/B for schema-level changes; the whole server is measured by `npm run loadtest`.
 */
import { performance } from 'node:perf_hooks';
import { activePlayer, Match, randomLegalAction, seedRng, validateOptions } from '../server/rules';
import { Projection } from '../server/project';
import { SeatSketch, tableStateAround } from '../server/table/state';
import type { Client } from 'colyseus';
import { CockroachState } from '../server/schema/CockroachState';
import { assignRefIds, FilteredPatchSerializer, PatchBytes, PatchPlan, writeFilteredPatch } from '../server/schema/filteredPatches';
import { parseArgsOrExit } from './lib/args';

const FLAGS = {
  rooms: { kind: 'int', default: 500, min: 1 },
  actions: { kind: 'int', default: 40, min: 0, help: 'actions played in each room before measuring' },
  seed: { kind: 'string', default: 'cost' },
  writer: {
    kind: 'choice',
    choices: ['room', 'library'],
    default: 'room',
    help: "each client's patch: the room's writer or the library's path",
  },
} as const;

interface Room {
  state: CockroachState;
  projection: Projection;
  /** The room's serializer, for the joins' full states. */
  serializer: FilteredPatchSerializer<CockroachState>;
  match: Match;
  clients: { sessionId: string }[];
  bytes: number;
}

function gcHeapMB(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

const scratch = new PatchBytes();

/**
 * One patch as the room sends it, each client's cut as the Buffer ws sends: `room` is the room's
 * writer (server/schema/filteredPatches.ts: new objects numbered, each field encoded when first
 * needed), `library` what Colyseus's own serializer and ws do (`encode` once, keeping each
 * field's bytes, then `applyFilters`, `[15, ...bytes]`, `Buffer.from`).
 */
function sendPatch(room: Room, writer: 'room' | 'library'): void {
  const { state } = room;
  if (state['$changes'].changes.size === 0) return;
  if (writer === 'library') state.encode(false, [], true);
  else assignRefIds(state, false);
  const plan = new PatchPlan();
  for (const c of room.clients) {
    let sent: Buffer;
    if (writer === 'library') sent = Buffer.from([15, ...state.applyFilters(c)]);
    else {
      scratch.reset();
      writeFilteredPatch(state, c as Client, plan, scratch);
      sent = scratch.toBuffer(15);
    }
    room.bytes += sent.length;
  }
  state.discardAllChanges();
}

function main() {
  const args = parseArgsOrExit(process.argv.slice(2), FLAGS);
  const options = validateOptions({});
  if (!options.ok) throw new Error('options');
  const ids = Array.from({ length: 6 }, (_, i) => `s${i}xxxxxxx`.slice(0, 9));
  const before = gcHeapMB();
  const rooms: Room[] = [];
  const seatsOf = (n: number): SeatSketch[] => ids.slice(0, n).map((id) => ({ id, nickname: `친구${id[1]}` }));
  // The table's state as the room projects it (server/project.ts), with the deadline it keeps.
  const project = (room: Room, seated: number, match: Match | null, deadline = 0) => {
    const table = tableStateAround(seatsOf(seated), match, options.options);
    table.deadline = deadline;
    room.projection.project(table);
  };
  for (let r = 0; r < args.rooms; r++) {
    const state = new CockroachState();
    const serializer = new FilteredPatchSerializer<CockroachState>();
    serializer.reset(state);
    const room: Room = { state, projection: new Projection(state), serializer, match: null as unknown as Match, clients: [], bytes: 0 };
    project(room, 0, null);
    // Joins: each client receives the full state, as Colyseus's getFullState does.
    ids.forEach((id, i) => {
      project(room, i + 1, null);
      sendPatch(room, args.writer);
      const client = { sessionId: id };
      room.clients.push(client);
      if (args.writer === 'library') {
        state.encodeAll(true);
        state.applyFilters(client, true);
      } else room.serializer.getFullState(client as Client);
    });
    const started = Match.start(`${args.seed}-${r}`, ids, options.options);
    if (!started.ok) throw new Error('start');
    room.match = started.match;
    project(room, ids.length, room.match, 1_767_000_000_000);
    sendPatch(room, args.writer);
    rooms.push(room);
  }
  const rng = seedRng(`${args.seed}-bots`);
  let actions = 0;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  for (let a = 0; a < args.actions; a++) {
    for (const room of rooms) {
      const game = room.match.game;
      if (game.phase !== 'playing') continue;
      const player = activePlayer(game)!;
      room.match.act(player, randomLegalAction(game, player, rng)!);
      project(room, ids.length, room.match, 1_767_000_000_000 + game.step * 1000);
      sendPatch(room, args.writer);
      actions++;
    }
  }
  const cpu = process.cpuUsage(cpu0);
  const wall = performance.now() - t0;
  const after = gcHeapMB();
  const playing = rooms.filter((r) => r.match.game.phase === 'playing').length;
  console.log(
    JSON.stringify({
      rooms: args.rooms,
      writer: args.writer,
      stillPlaying: playing,
      actionsPerRoom: +(actions / args.rooms).toFixed(1),
      liveHeapPerRoomKB: +(((after - before) * 1024) / args.rooms).toFixed(1),
      cpuPerActionUs: +((cpu.user + cpu.system) / actions).toFixed(1),
      wallPerActionUs: +((wall * 1000) / actions).toFixed(1),
      bytesPerActionPerClient: +(rooms.reduce((n, r) => n + r.bytes, 0) / (actions + 7 * args.rooms) / 6).toFixed(1),
    }),
  );
  // Keep the rooms alive until measured.
  if (rooms.length < 0) console.log(rooms);
}

main();
