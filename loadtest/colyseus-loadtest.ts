/**
 * A @colyseus/loadtest 0.15 script, for operators who know that tool (manual runs: it draws a
 * full-screen UI, never exits by itself and reports no percentiles; for figures and CI use
 * `npm run loadtest`, loadtest/run.ts).
 *
 *   npx tsx loadtest/colyseus-loadtest.ts --room cockroach-poker --numClients 60 \
 *       [--endpoint ws://localhost:2567] [--delay 20] [--pace human|fast]
 *
 * Clients 0–5, 6–11, ... share a table: the first creates a room, the other five join it by id,
 * and the host starts the game once all six are seated (a last group of fewer than six plays
 * with what it has, two at least). Bots play random legal moves from their own decoded state
 * (after 1–3 s at human pace, the default), check every patch for hidden information (logged as
 * an error), and after the end leave; the host creates a new room and the others follow.
 */
import { cli, Options } from '@colyseus/loadtest';
import { Client, Room } from 'colyseus.js';
import { randInt, RngState, seedRng } from '../server/rules';
import { CockroachState } from '../server/schema/CockroachState';
import { chooseMove } from './clientBot';
import { hiddenInfoViolations } from './lib/leakCheck';
import { parseArgsOrExit } from './lib/args';
import { SERVER_MESSAGES } from '../server/protocol';

const SEATS = 6;
// @colyseus/loadtest reads its own flags (--room, --numClients, ...) from the same argv.
const fast =
  parseArgsOrExit(process.argv.slice(2), { pace: { kind: 'choice', choices: ['human', 'fast'], default: 'human' } }, { allowUnknown: true })
    .pace === 'fast';

function playOneGame(room: Room<CockroachState>, rng: RngState, seats: number): Promise<void> {
  return new Promise((resolve) => {
    let scheduledStep = -1;
    let startSent = false;
    let timer: NodeJS.Timeout | null = null;
    room.onMessage(SERVER_MESSAGES.error, (m: { code: string; message: string }) => {
      console.error(`${room.sessionId}: refused ${m.code} ${m.message}`);
      scheduledStep = -1; // try again on the next patch
    });
    room.onMessage(SERVER_MESSAGES.result, () => {
      if (timer) clearTimeout(timer);
      room
        .leave(true)
        .catch(() => undefined)
        .finally(resolve);
    });
    room.onLeave((code) => {
      if (timer) clearTimeout(timer);
      if (code !== 1000 && code !== 4000) console.error(`${room.sessionId}: connection closed (${code})`);
      resolve();
    });
    room.onStateChange((state) => {
      for (const v of hiddenInfoViolations(state, room.sessionId)) console.error(`${room.sessionId}: LEAK ${v}`);
      if (state.phase === 'lobby') {
        if (!startSent && state.hostId === room.sessionId && state.players.size === seats) {
          startSent = true;
          room.send('start', {});
        }
        return;
      }
      if (state.phase !== 'playing' || scheduledStep === state.step) return;
      const step = state.step;
      const active = state.round.hasCard ? state.round.holder : state.round.starter;
      if (active !== room.sessionId) return;
      scheduledStep = step;
      timer = setTimeout(
        () => {
          timer = null;
          if (room.state.step !== step) return;
          const move = chooseMove(room.state, room.sessionId, rng);
          if (move) room.send(move.type, move.payload);
        },
        fast ? 0 : 1000 + randInt(rng, 2001),
      );
    });
  });
}

/** Clients 6g..6g+5 share a table; its host (6g) opens a new room for each game. */
interface Group {
  size: number;
  rooms: Map<number, { id: Promise<string>; resolve(id: string): void }>;
}
const groups = new Map<number, Group>();

function roomOf(group: Group, game: number) {
  let entry = group.rooms.get(game);
  if (!entry) {
    let resolve!: (id: string) => void;
    const id = new Promise<string>((r) => (resolve = r));
    entry = { id, resolve };
    group.rooms.set(game, entry);
  }
  return entry;
}

export async function main(options: Options) {
  const client = new Client(options.endpoint);
  const rng = seedRng(`colyseus-loadtest-${options.clientId}`);
  const nickname = `bot${options.clientId}`.slice(0, 12);
  const g = Math.floor(options.clientId / SEATS);
  const group = groups.get(g) ?? { size: Math.min(SEATS, options.numClients - g * SEATS), rooms: new Map() };
  groups.set(g, group);
  const isHost = options.clientId % SEATS === 0;
  const join = async (game: number): Promise<Room<CockroachState>> => {
    if (isHost) {
      const room = await client.create<CockroachState>(options.roomName, { nickname }, CockroachState);
      roomOf(group, game).resolve(room.roomId);
      return room;
    }
    const id = await roomOf(group, game).id;
    group.rooms.delete(game - 1);
    return client.joinById<CockroachState>(id, { nickname }, CockroachState);
  };
  // Resolve once joined (the tool connects clients one after another); play on in the background.
  const first = await join(0);
  console.log(`${nickname} joined ${first.roomId}`);
  void (async () => {
    let room = first;
    for (let game = 1; ; game++) {
      await playOneGame(room, rng, group.size);
      room = await join(game);
    }
  })().catch((error) => console.error(`${nickname}:`, error instanceof Error ? error.message : error));
}

cli(main);
