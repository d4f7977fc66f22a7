/**
 * The room's patches, each client's cut by the `@filter`s, byte for byte what @colyseus/schema
 * 2.0's `applyFilters` writes, at less cost. The library's per-client pass rebuilds each changed
 * object's list of changes for every client (`Array.from` per object per client), makes a `Set`
 * per client per patch, and Colyseus then copies the result behind the patch code (`[15,
 * ...bytes]`) before ws copies it again into a Buffer: a third of the server's allocations per
 * action in the issue-25 profile. Here the change lists are built once per patch and shared, the
 * set only when a filter hides an object, and each client's bytes go once into the Buffer sent.
 *
 * No field's bytes are kept between patches. The library encodes every changed field once
 * (`encode(false, [], true)`) and keeps each field's bytes on its object (`ChangeTree.caches`, a
 * `number[]` per field of every object: a fifth of a room's heap, and the largest old-space garbage
 * left per action), because its per-client pass and its full state (a join) copy them from there.
 * Here a field is encoded the first time a client's cut needs it in this patch, shared by the other
 * clients, and dropped with the patch; a join's full state is written by the same walk. Objects
 * get their refIds in the library's order first (`assignRefIds`): the wire names them by refId.
 *
 * The walk and the encoders are the library's own; `test/colyseus/patchWriter.test.ts` plays
 * whole games into two states, one sent by the library, one by this module, and compares every
 * client's bytes after every change and at every join.
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
  ensureRefId(): void;
  /** A Schema (with `_definition`) or a collection (with `$indexes`). */
  ref: { _definition: { filters?: Record<number, Filter>; indexesWithFilters?: number[] }; $indexes: Map<number, string> };
  parent: unknown;
  changes: Map<number, Operation>;
  allChanges: Set<number>;
  getValue(index: number): { $changes?: ChangeTree; constructor: unknown } | null;
  getType(index: number): string;
  getChildrenFilter(): Filter | undefined;
}
const encoders = encode as unknown as Record<string, (bytes: number[], value: unknown) => void>;
const treeOf = (value: unknown): ChangeTree => (value as { $changes: ChangeTree }).$changes;
const tryEncodeTypeId = (Schema.prototype as unknown as { tryEncodeTypeId(bytes: number[], type: unknown, actual: unknown): void })
  .tryEncodeTypeId;

/** What `typeof` a primitive field's value must be (the library's `assertType`); booleans take any value. */
const PRIMITIVE: Record<string, string | undefined> = { string: 'string', boolean: undefined };
for (const numeric of ['number', 'int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32', 'int64', 'uint64', 'float32', 'float64'])
  PRIMITIVE[numeric] = 'number';

function fieldName(tree: ChangeTree, index: number): string {
  const ref = tree.ref as unknown as { _definition?: { fieldsByIndex: Record<number, string> }; constructor: { name: string } };
  return `${ref.constructor.name}#${ref._definition ? ref._definition.fieldsByIndex[index] : index}`;
}

/**
 * One field's bytes for an operation, as the library's `encode` writes them into its cache: the
 * operation (folded into the index byte for a Schema), a map entry's key on an ADD, then the value
 * (a child's refId, with its type id when the child's class is not the declared one, or the
 * primitive). A value of the wrong type throws, as the library's encoder does.
 */
function encodeField(bytes: number[], tree: ChangeTree, index: number, op: number): void {
  const ref = tree.ref;
  const isSchema = (ref as unknown) instanceof Schema;
  if (isSchema) encode.uint8(bytes, index | op);
  else {
    encode.uint8(bytes, op);
    encode.number(bytes, index);
    if ((op & OPERATION.ADD) === OPERATION.ADD && (ref as unknown) instanceof MapSchema) encode.string(bytes, ref.$indexes.get(index)!);
  }
  const type = tree.getType(index) as unknown;
  const value = tree.getValue(index);
  if (typeof type === 'string') {
    const expected = PRIMITIVE[type];
    if (expected !== undefined && typeof value !== expected && !(type === 'string' && value === null))
      throw new Error(
        `@colyseus/schema: a '${expected}' was expected, but ${JSON.stringify(value)} was provided in ${fieldName(tree, index)}`,
      );
    const write = encoders[type];
    if (!write) throw new Error(`@colyseus/schema: no encoder for '${type}' in ${fieldName(tree, index)}`);
    write(bytes, value);
    return;
  }
  const child = value?.$changes;
  if (!child) throw new Error(`@colyseus/schema: an instance was expected in ${fieldName(tree, index)}`);
  encode.number(bytes, child.refId);
  if (Schema.is(type as never) && (op & OPERATION.ADD) === OPERATION.ADD) tryEncodeTypeId(bytes, type, value.constructor);
}

/**
 * Gives every object the coming bytes may name its refId, in the order the library's `encode`
 * would (breadth first from the root, a child numbered when first reached): through this patch's
 * changes, or through everything for a full state.
 */
export function assignRefIds(root: Schema, encodeAll: boolean): void {
  const first = treeOf(root);
  const trees = [first];
  const reached = new Set<ChangeTree>(trees);
  for (let t = 0; t < trees.length; t++) {
    const tree = trees[t];
    tree.ensureRefId();
    const isSchema = (tree.ref as unknown) instanceof Schema;
    const indexes: Iterable<number | Operation> = encodeAll ? tree.allChanges : tree.changes.values();
    for (const item of indexes) {
      let index: number;
      if (typeof item === 'number') index = item;
      else if (item.op === OPERATION.DELETE || (item.op === OPERATION.CLEAR && !isSchema)) continue;
      else index = item.index;
      const child = tree.getValue(index)?.$changes;
      if (child === undefined || reached.has(child)) continue;
      reached.add(child);
      trees.push(child);
      child.ensureRefId();
    }
  }
}

/**
 * One patch's change lists and field bytes, each made the first time a client's walk needs it and
 * shared by the other clients; all of it is dropped with the patch.
 */
export class PatchPlan {
  private readonly changed = new Map<ChangeTree, Operation[]>();
  private readonly all = new Map<ChangeTree, number[]>();
  /** Per object: (index, operation) → where its bytes start in `bytes`, and (the next key) end. */
  private readonly spans = new Map<ChangeTree, Map<number, number>>();
  private readonly bytes: number[] = [];

  appendField(out: PatchBytes, tree: ChangeTree, index: number, op: number): void {
    let spans = this.spans.get(tree);
    if (spans === undefined) this.spans.set(tree, (spans = new Map()));
    const key = (index * 256 + op) * 2;
    let start = spans.get(key);
    if (start === undefined) {
      start = this.bytes.length;
      encodeField(this.bytes, tree, index, op);
      spans.set(key, start);
      spans.set(key + 1, this.bytes.length);
    }
    out.appendRange(this.bytes, start, spans.get(key + 1)!);
  }

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

  append(bytes: number[]): void {
    this.appendRange(bytes, 0, bytes.length);
  }

  appendRange(bytes: number[], start: number, end: number): void {
    this.room(end - start);
    const v = this.view;
    for (let i = start; i < end; i++) v[this.length++] = bytes[i];
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
 * One client's cut of the changes (`encodeAll` false: the library's `applyFilters(client)` after
 * its `encode`) or of the whole state (true: `applyFilters(client, true)` after `encodeAll`),
 * written into `out`; the client's filter state is updated alike. `assignRefIds` first.
 */
export function writeFilteredPatch(root: Schema, client: Client, plan: PatchPlan, out: PatchBytes, encodeAll = false): void {
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
    const whole = encodeAll || !known.refIds.has(tree);
    known.addRefId(tree);
    const held = known.containerIndexes.get(tree)!;
    const list: (Operation | number)[] = whole ? plan.allOf(tree) : plan.changesOf(tree);
    // The library's workaround: filtered fields the client lacks are tried again.
    let extra: (Operation | number)[] | null = null;
    const retried = isSchema && !encodeAll ? ref._definition.indexesWithFilters : undefined;
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
          plan.appendField(out, tree, index, op);
          held.add(index);
        } else if (held.has(index)) {
          plan.appendField(out, tree, index, op);
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
 * Colyseus's SchemaSerializer with the writer above: same id ("schema"), same handshake; the full
 * state and each patch are written per client, the patch straight into the Buffer it is sent in.
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

  /** A joining client's state, as the library's `applyFilters(client, true)` after `encodeAll`. */
  getFullState(client?: Client): number[] {
    const state = this.state;
    if (state === null || client === undefined) return this.library.getFullState(client);
    assignRefIds(state, true);
    const out = this.bytes;
    out.reset();
    writeFilteredPatch(state, client, new PatchPlan(), out, true);
    return out.toArray();
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
    assignRefIds(state, false);
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
