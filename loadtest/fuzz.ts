/**
 * Sends random and mutated frames at a live server (its own child process unless --endpoint)
 * while a bystander room plays a real game, and reports crashes, rooms lost and the
 * bystander's action→patch latency.
 *
 *   npm run fuzz -- --messages 1000000 [--attackers 8] [--seed fuzz] [--endpoint ws://...]
 */
import { performance } from 'node:perf_hooks';
import { Client, Room } from 'colyseus.js';
import { seedRng, RngState } from '../server/rules';
import { CockroachState } from '../server/schema/CockroachState';
import { chooseMove } from './clientBot';
import { fuzzFrame, FuzzKind } from './lib/fuzzFrames';
import { LatencyHistogram } from './lib/latency';
import { startServerProcess, ServerProcess } from './lib/serverProcess';
import { parseArgsOrExit } from './lib/args';
import { ROOM_NAME, SERVER_MESSAGES } from '../server/protocol';
import { rawSocketOf } from '../server/colyseus/client';

const BURST = 64;
const BYSTANDER_PACE_MS = 100;

const FLAGS = {
  messages: { kind: 'int', default: 1_000_000, min: 1, help: 'frames to send' },
  attackers: { kind: 'int', default: 8, min: 1 },
  seed: { kind: 'string', default: 'fuzz' },
  endpoint: { kind: 'optional', help: 'an external server' },
} as const;

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const rawWs = (room: Room) => rawSocketOf(room)!;

/** A three-player room of paced bots playing legal moves; the fuzz must not disturb it. */
class Bystanders {
  readonly latency = new LatencyHistogram();
  rooms: Room<CockroachState>[] = [];
  errors = 0;
  lost = 0;
  games = 0;
  private running = true;

  constructor(
    private readonly endpoint: string,
    private readonly rng: RngState,
  ) {}

  async start(): Promise<string> {
    // What happened at the table is not what the bystanders check: heard as soon as each joins.
    const heard = (room: Room<CockroachState>) => (room.onMessage(SERVER_MESSAGES.events, () => undefined), room);
    const host = heard(await new Client(this.endpoint).create<CockroachState>(ROOM_NAME, { nickname: 'by0' }, CockroachState));
    this.rooms = [host];
    for (let i = 1; i < 3; i++)
      this.rooms.push(heard(await new Client(this.endpoint).joinById<CockroachState>(host.roomId, { nickname: `by${i}` }, CockroachState)));
    for (const r of this.rooms) {
      r.onMessage(SERVER_MESSAGES.error, () => this.errors++);
      r.onMessage(SERVER_MESSAGES.result, () => this.games++);
      r.onMessage(SERVER_MESSAGES.chat, () => undefined);
      r.onLeave((code) => {
        if (this.running) this.lost++;
        void code;
      });
    }
    void this.loop();
    return host.roomId;
  }

  private async loop() {
    const host = this.rooms[0];
    while (this.running && this.lost === 0) {
      if (host.state.phase !== 'playing') {
        if (host.state.phase === 'lobby') host.send('start', {});
        else return; // one long game per run is enough; games count finished ones
        await wait(BYSTANDER_PACE_MS);
        continue;
      }
      const actor = this.rooms.find((r) => chooseMove(r.state, r.sessionId, this.rng) !== null);
      if (!actor) {
        await wait(5);
        continue;
      }
      const move = chooseMove(actor.state, actor.sessionId, this.rng)!;
      const step = actor.state.step;
      const t0 = performance.now();
      actor.send(move.type, move.payload);
      await new Promise<void>((resolve) => {
        const off = actor.onStateChange(() => {
          if (actor.state.step > step) {
            off.clear();
            resolve();
          }
        });
      });
      this.latency.record(performance.now() - t0);
      await wait(BYSTANDER_PACE_MS);
    }
  }

  stop() {
    this.running = false;
  }
}

async function attacker(
  endpoint: string,
  bystanderRoom: string,
  asSpectator: boolean,
  rng: RngState,
  budget: { left: number },
  counts: Record<string, number>,
) {
  const client = new Client(endpoint);
  while (budget.left > 0) {
    let room: Room;
    try {
      room = asSpectator ? await client.joinById(bystanderRoom, { spectator: true }) : await client.create(ROOM_NAME, { nickname: 'fuzz' });
    } catch {
      counts.refusedJoins++;
      await wait(10);
      continue;
    }
    counts.connections++;
    room.onMessage('*', () => counts.replies++);
    const ws = rawWs(room);
    while (ws.readyState === 1 && budget.left > 0) {
      for (let k = 0; k < BURST && ws.readyState === 1 && budget.left > 0; k++) {
        const { kind, data } = fuzzFrame(rng);
        ws.send(data);
        counts[kind as FuzzKind]++;
        budget.left--;
      }
      await tick();
      while (ws.bufferedAmount > 1 << 20) await tick();
    }
    if (ws.readyState === 1) room.leave(true).catch(() => undefined);
  }
}

async function main() {
  const args = parseArgsOrExit(process.argv.slice(2), FLAGS);
  const { messages: total, attackers, seed, endpoint } = args;
  const server: ServerProcess | null = endpoint ? null : await startServerProcess({ RATE_LIMITS: 'off' }); // it re-creates rooms from loopback far past the per-address limits
  const target = endpoint ?? server!.endpoint;
  const bystanders = new Bystanders(target, seedRng(`${seed}-bystanders`));
  const bystanderRoom = await bystanders.start();
  const counts: Record<string, number> = {
    connections: 0,
    refusedJoins: 0,
    replies: 0,
    payload: 0,
    garbage: 0,
    text: 0,
    bitflip: 0,
    truncated: 0,
    header: 0,
    foreignType: 0,
  };
  const budget = { left: total };
  const t0 = performance.now();
  const progress = setInterval(() => {
    const sent = total - budget.left;
    console.error(
      `fuzz: ${sent} frames, ${counts.connections} connections, bystander p99 ${bystanders.latency.summary().p99} ms, server rss ${server?.rssMB().toFixed(0) ?? '?'} MB`,
    );
  }, 5000);
  await Promise.all(
    Array.from({ length: attackers }, (_, i) => attacker(target, bystanderRoom, i < 2, seedRng(`${seed}-${i}`), budget, counts)),
  );
  clearInterval(progress);
  const seconds = (performance.now() - t0) / 1000;
  bystanders.stop();
  const health = await fetch(target.replace('ws', 'http') + '/health')
    .then((r) => r.ok)
    .catch(() => false);
  const report = {
    frames: total - budget.left,
    seconds: +seconds.toFixed(1),
    framesPerSec: Math.round((total - budget.left) / seconds),
    byKind: Object.fromEntries(['payload', 'garbage', 'text', 'bitflip', 'truncated', 'header', 'foreignType'].map((k) => [k, counts[k]])),
    connections: counts.connections,
    refusedJoins: counts.refusedJoins,
    crashes: server?.crashed() ? 1 : 0,
    serverAlive: health,
    serverRssMB: server ? +server.rssMB().toFixed(1) : null,
    roomsLost: bystanders.lost,
    bystander: { actions: bystanders.latency.count, errors: bystanders.errors, latencyMs: bystanders.latency.summary() },
  };
  for (const r of bystanders.rooms) await r.leave(true).catch(() => undefined);
  await server?.stop();
  console.log(JSON.stringify(report));
  process.exit(report.crashes === 0 && report.serverAlive && report.roomsLost === 0 ? 0 : 1);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
