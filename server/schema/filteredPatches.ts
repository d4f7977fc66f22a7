/**
 * The room's patches, each client's cut by the `@filter`s, byte for byte what @colyseus/schema
 * 2.0's `applyFilters` writes, at less cost. The library's per-client pass rebuilds each changed
 * object's list of changes for every client (`Array.from` per object per client), makes a `Set`
 * per client per patch, and Colyseus then copies the result behind the patch code (`[15,
 * ...bytes]`) before ws copies it again into a Buffer: a third of the server's allocations per
 * action in the issue-25 profile. Here the change lists are built once per patch and shared, the
 * set only when a filter hides an object, and each client's bytes go once into the Buffer sent.
 *
 * The walk, the encoders and the cached field bytes are the library's own; `test/views/
 * filteredPatches.test.ts` plays whole games and compares every client's bytes with the library's
 * after every change. Full states (a join) are still the library's.
 */
import { ClientState, SchemaSerializer } from 'colyseus';
import type { Client, Serializer } from 'colyseus';
import { encode, MapSchema, OPERATION, Schema } from '@colyseus/schema';
import { useLeanFilterState, LeanClientState } from './leanFilterState';
// The library's change trees made to keep less between patches (the module says why); server
// only, like this module: clients decode, they never encode.
import './changeTrees';

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

/**
 * The bytes of one client's patch, in a buffer kept from patch to patch (a JS array emptied per
 * client would be given up and grown again each time: 12 KB of garbage per action). Integers
 * are written as the library's `encode.number` writes them (msgpack); anything else goes through
 * the library's own encoder.
 */
export class PatchBytes {
  private view = new Uint8Array(1024);
  length = 0;
  private readonly spare: number[] = [];

  reset(): void {
    this.length = 0;
  }

  private room(n: number): void {
    if (this.length + n <= this.view.length) return;
    const grown = new Uint8Array(Math.max(this.view.length * 2, this.length + n));
    grown.set(this.view.subarray(0, this.length));
    this.view = grown;
  }

  u8(value: number): void {
    this.room(1);
    this.view[this.length++] = value & 255;
  }

  /** `encode.number` for a non-negative 32-bit integer (indexes and refIds); the library for the rest. */
  uint(value: number): void {
    // The library writes anything beyond a 32-bit signed integer as a float64.
    if (!(value >= 0 && value === (value | 0))) return this.library(encode.number, value);
    this.room(5);
    const v = this.view;
    if (value < 0x80) v[this.length++] = value;
    else if (value < 0x100) {
      v[this.length++] = 0xcc;
      v[this.length++] = value;
    } else if (value < 0x10000) {
      v[this.length++] = 0xcd;
      v[this.length++] = value & 255;
      v[this.length++] = (value >> 8) & 255;
    } else {
      v[this.length++] = 0xce;
      v[this.length++] = value & 255;
      v[this.length++] = (value >> 8) & 255;
      v[this.length++] = (value >> 16) & 255;
      v[this.length++] = (value >>> 24) & 255;
    }
  }

  /** Bytes the library cached for a field. */
  append(bytes: number[] | undefined): void {
    if (bytes === undefined) return;
    this.room(bytes.length);
    const v = this.view;
    for (let i = 0; i < bytes.length; i++) v[this.length++] = bytes[i];
  }

  library(encoder: (bytes: number[], value: never) => unknown, value: unknown): void {
    const spare = this.spare;
    spare.length = 0;
    encoder(spare, value as never);
    this.append(spare);
  }

  /** The bytes written since the last reset, behind one leading byte, in a Buffer of their own. */
  toBuffer(first: number): Buffer {
    const out = Buffer.allocUnsafe(this.length + 1);
    out[0] = first;
    out.set(this.view.subarray(0, this.length), 1);
    return out;
  }

  toArray(): number[] {
    return Array.from(this.view.subarray(0, this.length));
  }
}

/**
 * One client's patch after `root.encode(false, [], true)`: `applyFilters(client)` of the library
 * (its `encodeAll` false), written into `out`; the client's filter state is updated alike.
 */
export function writeFilteredPatch(root: Schema, client: Client, plan: PatchPlan, out: PatchBytes): void {
  useLeanFilterState(client, root);
  const known = (client as unknown as { $filterState: LeanClientState }).$filterState;
  let hidden: Set<number> | null = null;
  const trees: ChangeTree[] = [treeOf(root)];
  for (let t = 0; t < trees.length; t++) {
    const tree = trees[t];
    if (hidden !== null && hidden.has(tree.refId)) continue;
    const ref = tree.ref;
    const isSchema = (ref as unknown) instanceof Schema;
    const isMap = (ref as unknown) instanceof MapSchema;
    out.u8(SWITCH_TO_STRUCTURE);
    out.uint(tree.refId);
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
        out.u8(op);
        continue;
      }
      if (op === OPERATION.DELETE) {
        if (isSchema) out.u8(op | index);
        else {
          out.u8(op);
          out.uint(index);
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
          out.append(tree.caches[index]);
          held.add(index);
        } else if (held.has(index)) {
          out.append(tree.caches[index]);
        } else {
          // A collection entry the client has never had: sent as an ADD.
          held.add(index);
          out.u8(OPERATION.ADD);
          out.uint(index);
          if (isMap) out.library(encode.string, ref.$indexes.get(index));
          if (child) out.uint(child.refId);
          else out.library(encoders[type], value);
        }
      } else if (child && !isSchema) {
        out.u8(OPERATION.ADD);
        out.uint(index);
        if (isMap) out.library(encode.string, ref.$indexes.get(index));
        out.uint(child.refId);
      }
    }
  }
}

/** The handshake of each state class (FilteredPatchSerializer.handshake). */
const handshakes = new WeakMap<object, number[]>();

/**
 * Colyseus's SchemaSerializer with the patch path above: same id ("schema"), same handshake and
 * full state; `applyPatches` encodes once, then writes each joined client's cut straight into
 * the Buffer it is sent in.
 */
export class FilteredPatchSerializer<T extends Schema> implements Serializer<T> {
  readonly id = 'schema';
  private readonly library = new SchemaSerializer<T>();
  private state: T | null = null;
  private readonly bytes = new PatchBytes();

  reset(state: T): void {
    this.library.reset(state);
    this.state = state;
  }

  getFullState(client?: Client): number[] {
    return this.library.getFullState(client);
  }

  /**
   * The handshake describes the state's classes, not its values: one copy per state class for
   * the whole process instead of one per room (about 1,300 numbers, 10 KB of heap per room).
   * Colyseus only reads it.
   */
  handshake(): number[] {
    const type = this.state?.constructor;
    if (!type) return this.library.handshake();
    let bytes = handshakes.get(type);
    if (!bytes) handshakes.set(type, (bytes = this.library.handshake()));
    return bytes;
  }

  applyPatches(clients: Client[]): boolean {
    const state = this.state;
    if (state === null || treeOf(state).changes.size === 0) return false;
    state.encode(false, [], true);
    const plan = new PatchPlan();
    const out = this.bytes;
    for (let n = clients.length; n--;) {
      const client = clients[n];
      if (client.state !== ClientState.JOINED) continue;
      out.reset();
      writeFilteredPatch(state, client, plan, out);
      client.raw(out.toBuffer(ROOM_STATE_PATCH) as unknown as number[]);
    }
    state.discardAllChanges();
    return true;
  }
}
