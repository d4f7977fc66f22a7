/**
 * The bystander of test/http/attackFigures.ts, in a process of its own so that the attacker's
 * work cannot delay its clock: a two-player game on the server at argv[2], a `ping` every
 * second (the server answers `pong`) and a GET /health every 100 ms. One JSON line per sample
 * on stdout: {"at": epoch ms, "ping": ms} or {"at", "health": ms}. Stops on stdin EOF.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { Client } from 'colyseus.js';
import { ROOM_NAME } from '../../server/protocol';
import { CockroachState } from '../../server/schema/CockroachState';

const port = Number(process.argv[2]);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let running = true;
process.stdin.on('end', () => (running = false));
process.stdin.resume();

function health(): Promise<number> {
  const t = performance.now();
  return new Promise((resolve) => {
    http
      .get({ host: '127.0.0.1', port, path: '/health', agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(performance.now() - t));
      })
      .on('error', () => resolve(3000));
  });
}

async function main() {
  const endpoint = `ws://127.0.0.1:${port}`;
  const a = await new Client(endpoint).create<CockroachState>(ROOM_NAME, { nickname: '구경꾼A', turnSeconds: 60 }, CockroachState);
  const b = await new Client(endpoint).joinById<CockroachState>(a.roomId, { nickname: '구경꾼B' }, CockroachState);
  b.onMessage('*', () => undefined);
  await sleep(200);
  a.send('start', {});
  let waiter: ((t: number) => void) | null = null;
  a.onMessage('pong', () => waiter?.(performance.now()));
  a.onMessage('*', () => undefined);
  console.log(JSON.stringify({ ready: true }));
  const pinger = (async () => {
    while (running) {
      const sent = performance.now();
      const pong = new Promise<number>((r) => (waiter = r));
      a.send('ping', { t: 1 });
      const at = await Promise.race([pong, sleep(3000).then(() => NaN)]);
      console.log(JSON.stringify({ at: Date.now(), ping: Number.isNaN(at) ? 3000 : +(at - sent).toFixed(2) }));
      await sleep(1000);
    }
  })();
  while (running) {
    console.log(JSON.stringify({ at: Date.now(), health: +(await health()).toFixed(2) }));
    await sleep(100);
  }
  await pinger;
  await Promise.all([a.leave(), b.leave()]);
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
