/**
 * The eight attacks of issue 12, repeated against `npm start`'s server as a child process on
 * loopback, each bounded in time and count, with a bystander game playing throughout. Prints one
 * JSON line per attack and a Markdown table for docs/security.md.
 *
 *   npx tsx test/http/attackFigures.ts
 *
 * Attackers send from 127.0.0.2… (a loopback address of their own each, like separate clients);
 * the bystander and the friends use 127.0.0.1. Default limits, as an operator would run it.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { Client } from 'colyseus.js';
import WebSocket from 'ws';
import { freePort, startServerProcess, ServerProcess } from '../../loadtest/lib/serverProcess';
import { DEFAULT_EDGE } from '../../server/base/config';
import { ROOM_NAME } from '../../server/protocol';
import { CockroachState } from '../../server/schema/CockroachState';
import { parseMetrics } from '../ops/support';

interface Reply {
  status: number;
  body: string;
  json: any;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function send(
  port: number,
  method: string,
  path: string,
  body: string | Buffer | (() => Iterable<Buffer>) | null,
  from = '127.0.0.1',
  headers: Record<string, string> = {},
): Promise<Reply> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        localAddress: from,
        agent: false,
        headers: { 'content-type': 'application/json', ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, body: text, json });
        });
        res.on('error', () => resolve({ status: -1, body: '', json: undefined }));
      },
    );
    req.on('error', () => resolve({ status: -1, body: '', json: undefined }));
    if (typeof body === 'function') {
      void (async () => {
        for (const chunk of body()) {
          if (req.destroyed) return;
          if (!req.write(chunk)) await new Promise((r) => req.once('drain', r).once('close', r));
        }
        req.end();
      })();
    } else req.end(body ?? undefined);
  });
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return +sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(1);
}

async function main() {
  const opsPort = await freePort();
  const server: ServerProcess = await startServerProcess(
    // Production limits whatever the harness defaults to ('' is unset).
    {
      OPS_PORT: String(opsPort),
      LOG_LEVEL: 'info',
      MONITOR_USER: 'ops',
      MONITOR_PASSWORD: 'attack figures secret',
      RATE_LIMITS: '',
      OPS_ON_PUBLIC_PORT: '0',
    },
    { stats: true },
  );
  const port = server.port;
  let logLines = 0;
  let stacks = 0;
  server.child.stdout!.on('data', (d: Buffer) => {
    const text = d.toString();
    for (const line of text.split('\n')) {
      if (line === '' || line.startsWith('{"loadtestStats"')) continue;
      logLines++;
      if (line.includes('errStack') || /\n\s+at /.test(line) || line.includes('    at ')) stacks++;
    }
  });
  const metrics = async () => parseMetrics((await send(opsPort, 'GET', '/metrics', null)).body);
  const timers = async () => (await metrics()).get('nodejs_active_resources{type="Timeout"}') ?? 0;
  const listingBytes = async () => (await send(port, 'GET', `/matchmake/${ROOM_NAME}`, null)).body.length;
  // Rooms of every phase, from /metrics (asking the stats agent would also reset its event-loop figures).
  const rooms = async () =>
    [...(await metrics()).entries()].filter(([key]) => key.startsWith('cockroach_rooms{')).reduce((sum, [, n]) => sum + n, 0);

  // The bystander: a two-player game in progress in a process of its own (test/http/bystander.ts).
  const endpoint = `ws://127.0.0.1:${port}`;
  const bystander = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'bystander.ts'), String(port)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const samples: { at: number; ping?: number; health?: number }[] = [];
  let tail = '';
  await new Promise<void>((resolve) => {
    bystander.stdout!.on('data', (d: Buffer) => {
      const lines = (tail + d.toString()).split('\n');
      tail = lines.pop()!;
      for (const line of lines) {
        const sample = JSON.parse(line);
        if (sample.ready) resolve();
        else samples.push(sample);
      }
    });
  });

  const results: Record<string, unknown>[] = [];
  let addressNo = 2;

  async function phase(name: string, attack: (from: string) => Promise<Record<string, unknown>>) {
    const from = `127.0.0.${addressNo++}`;
    await server.stats(); // resets the event-loop figures
    const before = { rss: server.rssMB(), timers: await timers(), rooms: await rooms(), logLines, stacks };
    const started = performance.now();
    const startedAt = Date.now();
    const outcome = await attack(from);
    const seconds = +((performance.now() - started) / 1000).toFixed(1);
    await sleep(1100); // the last ping of the phase has come back
    const during = samples.filter((x) => x.at >= startedAt && x.at <= startedAt + seconds * 1000 + 1100);
    const pings = during.flatMap((x) => (x.ping === undefined ? [] : [x.ping]));
    const health = during.flatMap((x) => (x.health === undefined ? [] : [x.health]));
    const loop = await server.stats();
    const after = { rss: server.rssMB(), timers: await timers(), rooms: await rooms(), listingBytes: await listingBytes() };
    const row = {
      attack: name,
      seconds,
      ...outcome,
      bystanderPingMs: { p50: percentile(pings, 50), max: percentile(pings, 100), samples: pings.length },
      healthMs: { p50: percentile(health, 50), max: percentile(health, 100) },
      eventLoopMaxMs: loop?.eventLoopDelayMs.max,
      rssMB: { before: +before.rss.toFixed(0), after: +after.rss.toFixed(0) },
      timers: { before: before.timers, after: after.timers },
      rooms: { before: before.rooms, after: after.rooms },
      listingBytes: after.listingBytes,
      logLines: logLines - before.logLines,
      stackTraces: stacks - before.stacks,
    };
    results.push(row);
    console.log(JSON.stringify(row));
  }

  const codes = (replies: Reply[]) => {
    const out: Record<string, number> = {};
    for (const r of replies) {
      const key = `${r.status}${r.json?.code !== undefined ? ` ${r.json.code}` : r.json?.sessionId ? ' reserved' : ''}`;
      out[key] = (out[key] ?? 0) + 1;
    }
    return out;
  };
  const CREATE = `/matchmake/create/${ROOM_NAME}`;

  // Built before the clock starts: building them stalls this process, not the server.
  const keys = Buffer.from(`{${Array.from({ length: 1_000_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`);
  const blob = Buffer.from(JSON.stringify({ nickname: 'x', pad: 'x'.repeat(30 * 2 ** 20) }));
  await phase('1. huge bodies (12 MB of 1,000,000 keys; 100 MB)', async (from) => {
    const replies: Reply[] = [];
    for (let i = 0; i < 3; i++) {
      replies.push(await send(port, 'POST', CREATE, keys, from)); // with Content-Length
      replies.push(await send(port, 'POST', CREATE, () => chunks(keys, 64 * 1024), from)); // streamed, no length
    }
    replies.push(await send(port, 'POST', CREATE, () => repeat(Buffer.alloc(1024 * 1024, 0x20), 100), from));
    return { bodyMB: +(keys.length / 2 ** 20).toFixed(1), replies: codes(replies) };
  });

  await phase('2. lobby lock (15 empty joinById, 3×30 MB, 7 valid reservations/s for 10 s; 10 friend joins)', async (from) => {
    const host = await new Client(endpoint).create<CockroachState>(ROOM_NAME, { nickname: '친구방' }, CockroachState);
    await sleep(100);
    const id = host.roomId;
    const replies: Reply[] = [];
    for (let i = 0; i < 15; i++) replies.push(await send(port, 'POST', `/matchmake/joinById/${id}`, '{}', from));
    for (let i = 0; i < 3; i++) replies.push(await send(port, 'POST', `/matchmake/joinById/${id}`, blob, from));
    let topping = true;
    const topUp = (async () => {
      let n = 0;
      while (topping && n < 70) {
        replies.push(
          await send(port, 'POST', `/matchmake/joinById/${id}`, JSON.stringify({ nickname: `점유${n++}` }), `127.0.0.${100 + (n % 4)}`),
        );
        await sleep(1000 / 7);
      }
    })();
    let friendsIn = 0;
    let listedEvery = true;
    for (let i = 0; i < 10; i++) {
      await sleep(900);
      try {
        const friend = await new Client(endpoint).joinById(id, { nickname: `친구${i}` });
        friendsIn++;
        await friend.leave();
      } catch {
        /* counted as not in */
      }
      const listed = JSON.parse((await send(port, 'GET', `/matchmake/${ROOM_NAME}`, null)).body) as { roomId: string }[];
      if (!listed.some((r) => r.roomId === id)) listedEvery = false;
    }
    topping = false;
    await topUp;
    await host.leave();
    return { friendsIn: `${friendsIn}/10`, lobbyListedAtEveryCheck: listedEvery, replies: codes(replies) };
  });

  await phase('3. refused creates (4 s flood, 8 at a time)', async (from) => {
    const replies: Reply[] = [];
    const until = performance.now() + 4000;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (performance.now() < until) replies.push(await send(port, 'POST', CREATE, '{"nickname":12345}', from));
      }),
    );
    const cpu0 = server.cpuSeconds();
    await sleep(3000);
    return {
      requests: replies.length,
      replies: codes(replies),
      idleCpuPercentAfter: +(((server.cpuSeconds() - cpu0) / 3) * 100).toFixed(1),
    };
  });

  await phase('4. ghost lobbies (5 s flood of valid creates, no socket; 8 addresses)', async () => {
    const replies: Reply[] = [];
    const until = performance.now() + 5000;
    await Promise.all(
      Array.from({ length: 8 }, async (_, w) => {
        while (performance.now() < until)
          replies.push(await send(port, 'POST', CREATE, JSON.stringify({ nickname: `유령${w}` }), `127.0.0.${110 + w}`));
      }),
    );
    const listingDuring = await listingBytes();
    const roomsDuring = await rooms();
    await sleep((DEFAULT_EDGE.seatReservationSeconds + 2) * 1000); // past the reservation: every ghost is gone
    return { requests: replies.length, replies: codes(replies), roomsDuring, listingBytesDuring: listingDuring };
  });

  await phase('5. idle TCP (2,000 connections that send nothing)', async (from) => {
    const sockets: net.Socket[] = [];
    let closed = 0;
    await Promise.all(
      Array.from(
        { length: 2000 },
        () =>
          new Promise<void>((resolve) => {
            const s = net.connect({ host: '127.0.0.1', port, localAddress: from }, () => resolve());
            s.on('error', () => resolve());
            s.on('close', () => closed++);
            sockets.push(s);
          }),
      ),
    );
    const t0 = performance.now();
    const friend = await new Client(endpoint).create(ROOM_NAME, { nickname: '새친구' });
    const friendJoinMs = +(performance.now() - t0).toFixed(1);
    await friend.leave();
    while (closed < sockets.length && performance.now() - t0 < 20_000) await sleep(100);
    const allClosedAfterS = +((performance.now() - t0) / 1000).toFixed(1);
    for (const s of sockets) s.destroy();
    return { opened: sockets.length, closedByServer: closed, allClosedAfterS, friendCreateMs: friendJoinMs };
  });

  await phase('6. ops routes and hidden matchmaking', async (from) => {
    const publicPaths: Record<string, number> = {};
    for (const p of ['/metrics', '/METRICS', '/metrics/', '/colyseus/', '/colyseus/api'])
      publicPaths[p] = (await send(port, 'GET', p, null, from)).status;
    const hidden = await send(port, 'POST', `/ready?x=${CREATE}`, '{"nickname":"숨김"}', from);
    const prefixed = await send(port, 'POST', `/p1${CREATE}`, '{"nickname":"숨김"}', from);
    const guesses: Reply[] = [];
    const t0 = performance.now();
    for (let i = 0; i < 200; i++)
      guesses.push(
        await send(opsPort, 'GET', '/colyseus/api', null, '127.0.0.1', {
          authorization: `Basic ${Buffer.from(`ops:guess${i}`).toString('base64')}`,
        }),
      );
    const seconds = +((performance.now() - t0) / 1000).toFixed(2);
    return {
      publicPaths,
      hiddenCreate: hidden.status,
      prefixedCreate: prefixed.status,
      monitorGuesses: codes(guesses),
      guessSeconds: seconds,
    };
  });

  await phase('7. nicknames', async (from) => {
    const names = ['\uDB40A\uDB40B', '\u3164', '\u115F\u1160', '\uFFA0', '\u2800', '\uFFFF', 'a' + '\u0301'.repeat(11), '🦊', '👨‍👩‍👧'];
    const out: Record<string, string> = {};
    for (const [i, n] of names.entries()) {
      const r = await send(port, 'POST', CREATE, JSON.stringify({ nickname: n }), `127.0.0.${120 + i}`);
      out[JSON.stringify(n)] = r.json?.code ?? (r.json?.room ? 'created' : String(r.status));
    }
    void from;
    return { nicknames: out };
  });

  await phase('8. log flooding (500 bogus-room WebSockets, 200 {"hasOwnProperty":1}, 200 creates)', async (from) => {
    for (let i = 0; i < 500; i++) {
      await new Promise<void>((resolve) => {
        const ws = new WebSocket(`ws://127.0.0.1:${port}/p${i}/bogus${i}?sessionId=s${i}`, { localAddress: from });
        ws.on('close', () => resolve());
        ws.on('error', () => resolve());
      });
    }
    const replies: Reply[] = [];
    for (let i = 0; i < 200; i++) replies.push(await send(port, 'POST', CREATE, '{"hasOwnProperty":1}', `127.0.0.${130 + (i % 50)}`));
    for (let i = 0; i < 200; i++)
      replies.push(await send(port, 'POST', CREATE, JSON.stringify({ nickname: `로그${i}` }), `127.0.0.${180 + (i % 50)}`));
    const internal = replies.filter((r) => /is not a function|TypeError|node_modules|\bat \w/.test(r.body)).length;
    await sleep(6000); // past the 5 s reservation: the lobbies nobody opened are gone
    return { replies: codes(replies), repliesWithInternals: internal };
  });

  bystander.stdin!.end();
  await new Promise((r) => bystander.once('exit', r));
  await server.stop();
  console.log(
    '\n| attack | outcome | bystander ping p50/max ms | /health max ms | RSS MB before→after | timers before→after | rooms before→after | listing bytes | log lines | stacks |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results as any[]) {
    const {
      attack,
      bystanderPingMs,
      healthMs,
      rssMB,
      timers: t,
      rooms: rm,
      listingBytes: lb,
      logLines: ll,
      stackTraces,
      seconds,
      eventLoopMaxMs,
      ...rest
    } = r;
    void seconds;
    void eventLoopMaxMs;
    console.log(
      `| ${attack} | ${JSON.stringify(rest).replace(/\|/g, '/')} | ${bystanderPingMs.p50}/${bystanderPingMs.max} | ${healthMs.max.toFixed(1)} | ${rssMB.before}→${rssMB.after} | ${t.before}→${t.after} | ${rm.before}→${rm.after} | ${lb} | ${ll} | ${stackTraces} |`,
    );
  }
}

function* chunks(buffer: Buffer, size: number): Iterable<Buffer> {
  for (let i = 0; i < buffer.length; i += size) yield buffer.subarray(i, i + size);
}

function* repeat(buffer: Buffer, times: number): Iterable<Buffer> {
  for (let i = 0; i < times; i++) yield buffer;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
