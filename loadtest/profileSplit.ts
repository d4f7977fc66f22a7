/**
 * Where a server's CPU went: a V8 `.cpuprofile` (loadtest/run.ts --cpu-prof DIR) split by who
 * owns the code (our server, @colyseus/schema, Colyseus, ws, Node internals, GC...) and the
 * top functions by self time. Idle time is left out: shares are of busy time.
 *
 *   npx tsx loadtest/profileSplit.ts DIR/CPU.*.cpuprofile [--top 25] [--from S] [--to S] [--callers NAME] [--inclusive A,B]
 *
 * `--from`/`--to` keep only samples between those seconds of the profile (e.g. the measuring
 * window, without ramp and teardown).
 */
import { readFileSync } from 'node:fs';
import { parseFileArgsOrExit } from './lib/args';

interface CpuNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: CpuNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const FLAGS = {
  top: { kind: 'int', default: 25, min: 1 },
  from: { kind: 'number', default: 0, min: 0 },
  to: { kind: 'number', default: Infinity, min: 0 },
  callers: { kind: 'optional', help: 'print the call paths into functions whose name contains this' },
  inclusive: { kind: 'optional', help: 'comma-separated function names: share of busy time spent in each, callees included' },
} as const;

/** The owner of a frame, by its script URL (order matters: the first match wins). */
const OWNERS: [string, (url: string, name: string) => boolean][] = [
  ['GC', (_u, n) => n === '(garbage collector)'],
  ['idle', (_u, n) => n === '(idle)'],
  ['program (native, unattributed)', (_u, n) => n === '(program)'],
  ['@colyseus/schema', (u) => u.includes('/@colyseus/schema/')],
  ['ws', (u) => /\/node_modules\/(.*\/)?ws\//.test(u)],
  ['Colyseus core/transport', (u) => /\/@colyseus\/(core|ws-transport|command)\//.test(u) || /\/node_modules\/colyseus\//.test(u)],
  ['msgpackr', (u) => u.includes('/msgpackr/')],
  ['better-sqlite3', (u) => u.includes('/better-sqlite3/')],
  ['other node_modules', (u) => u.includes('/node_modules/')],
  // The sources (server/, through tsx) or the compiled server (build/).
  ['server: fairness/store (records)', (u) => /\/(server|build)\/(fairness|store)\//.test(u)],
  ['server: rules', (u) => /\/(server|build)\/rules\//.test(u)],
  ['server: schema/project', (u) => /\/(server|build)\/(schema\/|project\.)/.test(u)],
  ['server: room/table/commands/transport/ops', (u) => /\/(server|build)\//.test(u)],
  ['node: net/stream/timers internals', (u) => u.startsWith('node:')],
  ['native/builtins', (u) => u === ''],
  ['other', () => true],
];

function main() {
  const { file, args } = parseFileArgsOrExit(
    process.argv.slice(2),
    '.cpuprofile',
    FLAGS,
    'usage: profileSplit.ts FILE.cpuprofile [--top N] [--from S] [--to S]',
  );
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  let t = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    const s = t / 1e6;
    if (s < args.from || s > args.to) continue;
    self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
  }
  const owners = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const owner = OWNERS.find(([, test]) => test(url, functionName))![0];
    if (owner === 'idle') {
      idle += us;
      continue;
    }
    busy += us;
    owners.set(owner, (owners.get(owner) ?? 0) + us);
    const short = url.replace(/^.*\/node_modules\//, '').replace(/^file:\/\/.*?\/(server|build)\//, '$1/');
    const key = `${functionName || '(anonymous)'} ${short}${url ? `:${lineNumber + 1}` : ''}`;
    functions.set(key, (functions.get(key) ?? 0) + us);
  }
  const pct = (us: number) => `${((100 * us) / busy).toFixed(1)} %`;
  console.log(`busy ${(busy / 1e6).toFixed(1)} s, idle ${(idle / 1e6).toFixed(1)} s`);
  console.log('\nby owner (share of busy time):');
  for (const [owner, us] of [...owners].sort((a, b) => b[1] - a[1])) console.log(`  ${pct(us).padStart(7)}  ${owner}`);
  console.log(`\ntop ${args.top} functions by self time:`);
  for (const [name, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, args.top)) console.log(`  ${pct(us).padStart(7)}  ${name}`);
  if (args.inclusive) {
    console.log('\ninclusive (callees included):');
    for (const name of args.inclusive.split(',')) {
      let us = 0;
      for (const [id, t] of self) {
        for (let p: number | undefined = id; p !== undefined; p = parent.get(p)) {
          if (byId.get(p)!.callFrame.functionName === name) {
            us += t;
            break;
          }
        }
      }
      console.log(`  ${pct(us).padStart(7)}  ${name}`);
    }
  }
  if (args.callers) {
    // Self time of matching frames, by the chain of (up to 8) callers above them.
    const paths = new Map<string, number>();
    for (const [id, us] of self) {
      if (!byId.get(id)!.callFrame.functionName.includes(args.callers)) continue;
      const chain: string[] = [];
      for (let p = parent.get(id); p !== undefined && chain.length < 8; p = parent.get(p)) {
        const f = byId.get(p)!.callFrame;
        chain.push(`${f.functionName || '(anonymous)'}@${f.url.replace(/^.*\//, '')}:${f.lineNumber + 1}`);
      }
      const key = chain.join(' < ');
      paths.set(key, (paths.get(key) ?? 0) + us);
    }
    console.log(`\ncallers of *${args.callers}*:`);
    for (const [chain, us] of [...paths].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`  ${pct(us).padStart(7)}  ${chain}`);
  }
}

main();
