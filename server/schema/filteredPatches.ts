/**
 * The room's patches, each client's cut by the `@filter`s, byte for byte what @colyseus/schema
 * 2.0's `applyFilters` writes, at less cost. The library's per-client pass rebuilds each changed
 * object's list of changes for every client (`Array.from` per object per client), makes a `Set`
 * per client per patch, and Colyseus then copies the result behind the patch code (`[15,
 * ...bytes]`) before ws copies it again into a Buffer: a third of the server's allocations per
 * action in the issue-25 profile. Here the change lists are built once per patch and shared, the
 * set only when a filter hides an object, and each client's bytes go once into the Buffer sent.
 *
 * The walk, the encoders and the cached field bytes are the library's own; `test/schema/
 * filteredPatches.test.ts` plays whole games and compares every client's bytes with the library's
 * after every change. Full states (a join) are still the library's.
 */
import { ClientState, SchemaSerializer } from 'colyseus';
import type { Client, Serializer } from 'colyseus';
import { encode, MapSchema, OPERATION, Schema } from '@colyseus/schema';
import { useLeanFilterState, LeanClientState } from './leanFilterState';

/** The library's structure switch marker (SWITCH_TO_STRUCTURE, not exported). */
const SWITCH_TO_STRUCTURE = 255;
/** Colyseus's frame code for a patch (Protocol.ROOM_STATE_PATCH). */
const ROOM_STATE_PATCH = 15;

type Filter = (this: unknown, ...args: unknown[]) => boolean;
interface Operation {
  op: number;
  index: number;
}
interface ChangeTree {
  refId: number;
  /** A Schema (with `_definition`) or a collection (with `$indexes`). */
  ref: { _definition: { filters?: Record<number, Filter>; indexesWithFilters?: number[] }; $indexes: Map<number, string> };
  parent: unknown;
  changes: Map<number, Operation>;
  allChanges: Set<number>;
  caches: Record<number, number[] | undefined>;
  getValue(index: number): { $changes?: ChangeTree } | null;
  getType(index: number): string;
  getChildrenFilter(): Filter | undefined;
}
const encoders = encode as unknown as Record<string, (bytes: number[], value: unknown) => void>;
const treeOf = (value: unknown): ChangeTree => (value as { $changes: ChangeTree }).$changes;

/** One patch's change lists, built the first time a client's walk reaches an object. */
export class PatchPlan {
  private readonly changed = new Map<ChangeTree, Operation[]>();
  private readonly all = new Map<ChangeTree, number[]>();

  changesOf(tree: ChangeTree): Operation[] {
    let list = this.changed.get(tree);
    if (list === undefined) this.changed.set(tree, (list = Array.from(tree.changes.values())));
    return list;
  }

  allOf(tree: ChangeTree): number[] {
    let list = this.all.get(tree);
    if (list === undefined) this.all.set(tree, (list = Array.from(tree.allChanges)));
    return list;
  }
}

function append(out: number[], bytes: number[] | undefined): void {
  if (bytes === undefined) return;
  for (let i = 0; i < bytes.length; i++) out.push(bytes[i]);
}

/**
 * One client's patch after `root.encode(false, [], true)`: `applyFilters(client)` of the library
 * (its `encodeAll` false), written into `out`; the client's filter state is updated alike.
 */
export function writeFilteredPatch(root: Schema, client: Client, plan: PatchPlan, out: number[]): void {
  useLeanFilterState(client);
  const known = (client as unknown as { $filterState: LeanClientState }).$filterState;
  let hidden: Set<number> | null = null;
  const trees: ChangeTree[] = [treeOf(root)];
  for (let t = 0; t < trees.length; t++) {
    const tree = trees[t];
    if (hidden !== null && hidden.has(tree.refId)) continue;
    const ref = tree.ref;
    const isSchema = (ref as unknown) instanceof Schema;
    const isMap = (ref as unknown) instanceof MapSchema;
    out.push(SWITCH_TO_STRUCTURE);
    encode.number(out, tree.refId);
    // A client that does not know this object yet is sent all of it.
    const whole = !known.refIds.has(tree);
    known.addRefId(tree);
    const held = known.containerIndexes.get(tree)!;
    const list: (Operation | number)[] = whole ? plan.allOf(tree) : plan.changesOf(tree);
    // The library's workaround: filtered fields the client lacks are tried again.
    let extra: (Operation | number)[] | null = null;
    const retried = isSchema ? ref._definition.indexesWithFilters : undefined;
    if (retried)
      for (const index of retried)
        if (!held.has(index) && tree.allChanges.has(index)) (extra ??= []).push(whole ? index : { op: OPERATION.ADD, index });
    const count = list.length + (extra === null ? 0 : extra.length);
    for (let j = 0; j < count; j++) {
      const item = j < list.length ? list[j] : extra![j - list.length];
      const op = whole ? OPERATION.ADD : (item as Operation).op;
      const index = whole ? (item as number) : (item as Operation).index;
      if (op === OPERATION.CLEAR) {
        out.push(op & 255);
        continue;
      }
      if (op === OPERATION.DELETE) {
        if (isSchema) out.push((op | index) & 255);
        else {
          out.push(op & 255);
          encode.number(out, index);
        }
        continue;
      }
      const value = tree.getValue(index)!;
      const type = tree.getType(index);
      const filter = isSchema ? ref._definition.filters?.[index] : tree.getChildrenFilter();
      if (filter) {
        const allowed = isSchema
          ? filter.call(ref, client, value, root)
          : filter.call(tree.parent, client, ref.$indexes.get(index), value, root);
        if (!allowed) {
          if (value && value.$changes) (hidden ??= new Set()).add(value.$changes.refId);
          continue;
        }
      }
      const child = value.$changes;
      if (child) trees.push(child);
      if (op !== OPERATION.TOUCH) {
        if (op === OPERATION.ADD || isSchema) {
          append(out, tree.caches[index]);
          held.add(index);
        } else if (held.has(index)) {
          append(out, tree.caches[index]);
        } else {
          // A collection entry the client has never had: sent as an ADD.
          held.add(index);
          out.push(OPERATION.ADD);
          encode.number(out, index);
          if (isMap) encode.string(out, ref.$indexes.get(index)!);
          if (child) encode.number(out, child.refId);
          else encoders[type](out, value);
        }
      } else if (child && !isSchema) {
        out.push(OPERATION.ADD);
        encode.number(out, index);
        if (isMap) encode.string(out, ref.$indexes.get(index)!);
        encode.number(out, child.refId);
      }
    }
  }
}

/**
 * Colyseus's SchemaSerializer with the patch path above: same id ("schema"), same handshake and
 * full state; `applyPatches` encodes once, then writes each joined client's cut straight into
 * the Buffer it is sent in.
 */
export class FilteredPatchSerializer<T extends Schema> implements Serializer<T> {
  readonly id = 'schema';
  private readonly library = new SchemaSerializer<T>();
  private state: T | null = null;
  private readonly scratch: number[] = [];

  reset(state: T): void {
    this.library.reset(state);
    this.state = state;
  }

  getFullState(client?: Client): number[] {
    return this.library.getFullState(client);
  }

  handshake(): number[] {
    return this.library.handshake();
  }

  applyPatches(clients: Client[]): boolean {
    const state = this.state;
    if (state === null || treeOf(state).changes.size === 0) return false;
    state.encode(false, [], true);
    const plan = new PatchPlan();
    const out = this.scratch;
    for (let n = clients.length; n--;) {
      const client = clients[n];
      if (client.state !== ClientState.JOINED) continue;
      out.length = 0;
      writeFilteredPatch(state, client, plan, out);
      const bytes = Buffer.allocUnsafe(out.length + 1);
      bytes[0] = ROOM_STATE_PATCH;
      for (let i = 0; i < out.length; i++) bytes[i + 1] = out[i];
      client.raw(bytes as unknown as number[]);
    }
    state.discardAllChanges();
    return true;
  }
}
