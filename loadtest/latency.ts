/**
 * Action→patch latency and patch size on loopback: one six-player room, bots acting one at a
 * time, each action timed from send to the acting client decoding the patch that shows it.
 * Server and bots share this process (in-process server on a free port).
 *
 *   npm run bench:latency -- [--actions 400] [--players 6]
 */
import { performance } from 'node:perf_hooks';
import { activePlayer, randomLegalAction, seedRng } from '../server/rules';
import { bootTestServer, create, joinById, Tracked } from '../test/support/server';
import { parseArgsOrExit } from './lib/args';
import { FRAME_CODES, rawSocketOf } from '../server/colyseus/client';

const { ROOM_STATE_PATCH: PATCH, ROOM_STATE: STATE } = FRAME_CODES;

const FLAGS = {
  actions: { kind: 'int', default: 400, min: 1 },
  players: { kind: 'int', default: 6, min: 2, max: 6 },
} as const;

function frameCounter(t: Tracked) {
  const counts = { patchBytes: 0, stateBytes: 0 };
  rawSocketOf(t.room)!.addEventListener('message', (ev) => {
    const bytes = new Uint8Array(ev.data);
    if (bytes[0] === PATCH) counts.patchBytes += bytes.byteLength;
    if (bytes[0] === STATE) counts.stateBytes += bytes.byteLength;
  });
  return counts;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function main() {
  const { actions: wanted, players: count } = parseArgsOrExit(process.argv.slice(2), FLAGS);
  const ts = await bootTestServer();
  const latencies: number[] = [];
  const bytesPerClient: number[] = [];
  const joinBytes: number[] = [];
  const bot = seedRng('latency-bench');
  let games = 0;
  while (latencies.length < wanted) {
    const players = [await create(ts, { nickname: 'p0' }, 'p0')];
    const counters = [frameCounter(players[0])];
    for (let i = 1; i < count; i++) {
      const p = await joinById(ts, players[0].room.roomId, { nickname: `p${i}` }, `p${i}`);
      players.push(p);
      counters.push(frameCounter(p));
    }
    const room = ts.serverRoom(players[0].room.roomId);
    players[0].room.send('start', {});
    await Promise.all(players.map((p) => p.until(() => p.state.phase === 'playing', 'start')));
    joinBytes.push(...counters.map((c) => c.stateBytes));
    const game = room.table.match!.game;
    while (game.phase === 'playing' && latencies.length < wanted) {
      const actor = players.find((p) => p.id === activePlayer(game))!;
      const { type, ...payload } = randomLegalAction(game, actor.id, bot)!;
      const step = game.step;
      const before = counters.map((c) => c.patchBytes);
      const t0 = performance.now();
      actor.room.send(type, payload);
      await actor.until(() => actor.state.step > step, 'patch');
      latencies.push(performance.now() - t0);
      await Promise.all(players.map((p) => p.until(() => p.state.step === game.step, 'fan-out')));
      counters.forEach((c, i) => bytesPerClient.push(c.patchBytes - before[i]));
    }
    games++;
    await Promise.all(players.map((p) => p.room.leave()));
  }
  await ts.server.close();
  latencies.sort((a, b) => a - b);
  bytesPerClient.sort((a, b) => a - b);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  console.log(
    JSON.stringify({
      players: count,
      games,
      actions: latencies.length,
      latencyMs: {
        p50: +pct(latencies, 50).toFixed(2),
        p90: +pct(latencies, 90).toFixed(2),
        p99: +pct(latencies, 99).toFixed(2),
        max: +latencies[latencies.length - 1].toFixed(2),
      },
      patchBytesPerClient: { mean: +mean(bytesPerClient).toFixed(1), p50: pct(bytesPerClient, 50), p99: pct(bytesPerClient, 99) },
      joinStateBytes: { max: Math.max(...joinBytes) },
    }),
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
