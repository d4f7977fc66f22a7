/**
 * What an action's patch is made of, byte by byte, without sockets: seeded six-player games are
 * projected into the schema and encoded as the room does (encode once with filters, then per
 * client), and every encoded field is attributed to "Type.field". Prints one JSON object.
 *
 *   npx tsx loadtest/patchAnatomy.ts [--games 20] [--seed anatomy]
 *
 * `perClient` is what one player's socket receives for an action (frame code byte included; the
 * figure the load test's bytesPerActionPerClient measures). `fields` is the shared encoding (the
 * server encodes once, then filters per client) split by field: bytes per action on average,
 * including the 1-byte field/operation header; `switch` is the 2-byte "now this object" marker
 * written before each changed object.
 */
import { OPERATION, Schema } from '@colyseus/schema';
import { activePlayer, Match, randomLegalAction, seedRng, validateOptions } from '../server/rules';
import { Projection } from '../server/project';
import { tableStateAround } from '../server/table/state';
import { CockroachState } from '../server/schema/CockroachState';
import { parseArgsOrExit } from './lib/args';

const FLAGS = {
  games: { kind: 'int', default: 20, min: 1 },
  seed: { kind: 'string', default: 'anatomy' },
} as const;

interface Tree {
  ref: object;
  refId: number;
  changes: Map<number, { op: number; index: number }>;
  caches: Record<number, number[]>;
  getValue(i: number): unknown;
}
const treeOf = (x: unknown): Tree | undefined => (x as { $changes?: Tree } | null)?.$changes;

/** Bytes of the last encode, by "Type.field" (collections: "Type.field[]"), and switches. */
function attribute(state: CockroachState, into: Map<string, number>): void {
  const seen = new Set<Tree>();
  const walk = (tree: Tree, label: string) => {
    if (seen.has(tree)) return;
    seen.add(tree);
    if (tree.changes.size === 0) return;
    if (tree !== treeOf(state) && [...tree.changes.values()].some((c) => c.op !== OPERATION.TOUCH)) {
      into.set('switch', (into.get('switch') ?? 0) + 1 + (tree.refId < 128 ? 1 : 2));
    }
    const isSchema = tree.ref instanceof Schema;
    const fields = isSchema ? (tree.ref as { _definition: { fieldsByIndex: Record<number, string> } })._definition.fieldsByIndex : null;
    for (const { index, op } of tree.changes.values()) {
      const name = isSchema ? `${tree.ref.constructor.name}.${fields![index]}` : `${label}[]`;
      // TOUCH (a child changed) writes nothing itself; DELETE writes its header only.
      const bytes = op === OPERATION.TOUCH ? 0 : op === OPERATION.DELETE ? (isSchema ? 1 : 2) : (tree.caches[index]?.length ?? 0);
      if (bytes > 0) into.set(name, (into.get(name) ?? 0) + bytes);
      const child = treeOf(tree.getValue(index));
      if (child) walk(child, name);
    }
  };
  walk(treeOf(state)!, 'root');
}

function main() {
  const { games, seed } = parseArgsOrExit(process.argv.slice(2), FLAGS);
  const ids = Array.from({ length: 6 }, (_, i) => `p${i}xxxxxx`.slice(0, 9)); // 9 characters, as sessionIds
  const perType = new Map<string, { actions: number; bytes: number; fields: Map<string, number> }>();
  const options = validateOptions({});
  if (!options.ok) throw new Error('options');
  let joinState = 0;
  for (let g = 0; g < games; g++) {
    const state = new CockroachState();
    const projection = new Projection(state);
    const seats = ids.map((id) => ({ id, nickname: `친구${id[1]}` }));
    projection.project(tableStateAround(seats, null, options.options));
    state.encodeAll(true);
    const clients = ids.map((sessionId) => ({ sessionId }));
    for (const c of clients) joinState = Math.max(joinState, 1 + state.applyFilters(c, true).length);
    state.discardAllChanges();
    const started = Match.start(`${seed}-${g}`, ids, options.options);
    if (!started.ok) throw new Error('start');
    const { match } = started;
    const rng = seedRng(`${seed}-bot-${g}`);
    const step = (type: string) => {
      const table = tableStateAround(seats, match, options.options);
      table.deadline = 1_767_000_000_000 + match.game.step * 1000; // as the table keeps it
      projection.project(table);
      state.encode(false, [], true);
      const entry = perType.get(type) ?? { actions: 0, bytes: 0, fields: new Map() };
      entry.actions++;
      attribute(state, entry.fields);
      for (const c of clients) entry.bytes += (1 + state.applyFilters(c).length) / clients.length;
      perType.set(type, entry);
      state.discardAllChanges();
    };
    step('start');
    while (match.game.phase === 'playing') {
      const player = activePlayer(match.game)!;
      const action = randomLegalAction(match.game, player, rng)!;
      match.act(player, action);
      step((match.game.phase as string) === 'ended' ? 'last action (game ends)' : action.type);
    }
  }
  const all = { actions: 0, bytes: 0 };
  const report: Record<string, unknown> = {};
  for (const [type, e] of perType) {
    if (type !== 'start') {
      all.actions += e.actions;
      all.bytes += e.bytes;
    }
    const fields = Object.fromEntries([...e.fields].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, +(v / e.actions).toFixed(1)]));
    report[type] = { actions: e.actions, perClient: +(e.bytes / e.actions).toFixed(1), fields };
  }
  console.log(
    JSON.stringify(
      { games, joinStateBytesMax: joinState, perClientAllActions: +(all.bytes / all.actions).toFixed(1), byAction: report },
      null,
      1,
    ),
  );
}

main();
