/**
 * Where a server's allocations come from: a sampled .heapprofile (npm run loadtest -- --alloc-prof
 * FILE: every allocation in the window, garbage included) summed by the allocating function and
 * by owner (as profileSplit.ts), with bytes per action when --actions is given.
 *
 *   npx tsx loadtest/allocSplit.ts FILE.heapprofile [--top 30] [--actions N]
 */
import { readFileSync } from 'node:fs';
import { parseFileArgsOrExit } from './lib/args';

interface AllocNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: AllocNode[];
}

const FLAGS = {
  top: { kind: 'int', default: 30, min: 1 },
  actions: { kind: 'int', default: 0, min: 0, help: 'actions in the window (the run report’s `actions`): bytes per action' },
} as const;

function owner(url: string): string {
  if (url.includes('/@colyseus/schema/')) return '@colyseus/schema';
  if (/\/node_modules\/(.*\/)?ws\//.test(url)) return 'ws';
  if (/\/@colyseus\/|\/node_modules\/colyseus\//.test(url)) return 'Colyseus';
  if (url.includes('/node_modules/')) return url.replace(/^.*\/node_modules\/((@[^/]+\/)?[^/]+).*$/, '$1');
  if (/\/(server|build)\//.test(url)) return `server: ${url.replace(/^.*\/(server|build)\/([^/]+).*$/, '$2')}`;
  if (url.startsWith('node:')) return 'node internals';
  return '(native/VM)';
}

function main() {
  const { file, args } = parseFileArgsOrExit(
    process.argv.slice(2),
    '.heapprofile',
    FLAGS,
    'usage: allocSplit.ts FILE.heapprofile [--top N] [--actions N]',
  );
  const { head } = JSON.parse(readFileSync(file, 'utf8')) as { head: AllocNode };
  const byFunction = new Map<string, number>();
  const byOwner = new Map<string, number>();
  let total = 0;
  const walk = (node: AllocNode, callers: string[]) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const name = `${functionName || '(anonymous)'} ${url.replace(/^.*\/node_modules\//, '').replace(/^.*\/(server|build)\//, '$1/')}:${lineNumber + 1}`;
    if (node.selfSize > 0) {
      total += node.selfSize;
      // Native allocations (Buffer, Array) are charged to the first caller with a script.
      const who = url ? name : `${name} < ${callers[callers.length - 1] ?? '?'}`;
      byFunction.set(who, (byFunction.get(who) ?? 0) + node.selfSize);
      const scripted =
        url ||
        callers
          .map((c) => c.split(' ')[1] ?? '')
          .reverse()
          .find((u) => u && !u.startsWith(':')) ||
        '';
      byOwner.set(owner(scripted), (byOwner.get(owner(scripted)) ?? 0) + node.selfSize);
    }
    for (const child of node.children) walk(child, url ? [...callers, name] : callers);
  };
  walk(head, []);
  const fmt = (bytes: number) =>
    `${(bytes / 2 ** 20).toFixed(1).padStart(7)} MB${args.actions ? ` ${((bytes / args.actions) | 0).toString().padStart(7)} B/action` : ''} ${((100 * bytes) / total).toFixed(1).padStart(5)} %`;
  console.log(`allocated ${fmt(total)}`);
  console.log('\nby owner:');
  for (const [k, v] of [...byOwner].sort((a, b) => b[1] - a[1])) console.log(`  ${fmt(v)}  ${k}`);
  console.log(`\ntop ${args.top} allocating functions:`);
  for (const [k, v] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, args.top)) console.log(`  ${fmt(v)}  ${k}`);
}

main();
