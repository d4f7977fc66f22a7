/**
 * What @colyseus/schema 2.0's change trees keep between patches, made to die young.
 *
 * Each object of the state has a change tree holding the changes since the last patch (a `Map`).
 * The library empties the map after each patch (`Map.prototype.clear` gives it a new table). At
 * human pace an object changes every few seconds, so that new table outlives the young
 * generation: it is copied by every scavenge, promoted, and left for a major collection. It was
 * among the largest old-space garbage per action in the issue-25 profile (`npm run loadtest --
 * --alloc-prof F --alloc-kind promoted`), and the scavenges' pauses grow with what survives them.
 * So a tree at rest shares one empty map that is never written to; its own map is made at its
 * first change and dropped with the patch that sends it, so it lives for milliseconds. (The
 * fields' cached bytes, the other such garbage, are no longer made: filteredPatches.ts.)
 *
 * Installed once, for the whole process, on import by the room's serializer
 * (server/schema/filteredPatches.ts, server only); the bytes every client receives are unchanged
 * (test/views/filteredPatches.test.ts compares them with the library's own path on whole games).
 */
import { MapSchema, OPERATION, Schema } from '@colyseus/schema';

interface Change {
  op: number;
  index: number;
}
interface Tree {
  changes: Map<number, Change>;
  allChanges: Set<number>;
  changed: boolean;
  currentCustomOperation: number;
  indexes: Record<number | string, unknown>;
  ref: { getIndex(index: number): number | string };
}
type Method = (this: Tree, a?: unknown, b?: unknown) => unknown;

/**
 * The map every tree at rest points to. Nothing may ever be added to it: every tree would then
 * send that change. A library path this module does not know would write to it, so writing
 * throws (the room reports a failed patch) rather than corrupting every tree at once.
 */
const NO_CHANGES: Map<number, Change> = new Map();
for (const name of ['set', 'delete', 'clear'] as const)
  Object.defineProperty(NO_CHANGES, name, {
    value: () => {
      throw new Error(`@colyseus/schema: ChangeTree.changes.${name} on a tree at rest (library changed?)`);
    },
  });

/** The library's ChangeTree class is not exported: its prototype is reached through an instance. */
const prototype = Object.getPrototypeOf((new MapSchema() as unknown as { $changes: object }).$changes) as Record<string, Method>;
for (const name of ['operation', 'change', 'touch', 'delete', 'discard'])
  if (typeof prototype[name] !== 'function') throw new Error(`@colyseus/schema: ChangeTree.${name} not found (library changed?)`);

// Everything the library writes to `changes` goes through these four.
for (const name of ['operation', 'change', 'touch', 'delete']) {
  const original = prototype[name];
  prototype[name] = function (this: Tree, a?: unknown, b?: unknown) {
    if (this.changes === NO_CHANGES) this.changes = new Map();
    return original.call(this, a, b);
  };
}

/** The library's `discard`, with the map dropped instead of cleared. */
prototype.discard = function (this: Tree, changed = false, discardAll = false) {
  const changes = this.changes;
  if (changes !== NO_CHANGES) {
    // A collection forgets the keys it deleted, so a key used again is sent as an ADD.
    if (!(this.ref instanceof Schema))
      changes.forEach((change) => {
        if (change.op === OPERATION.DELETE) delete this.indexes[this.ref.getIndex(change.index)];
      });
    this.changes = NO_CHANGES;
  }
  this.changed = changed as boolean;
  if (discardAll) this.allChanges.clear();
  this.currentCustomOperation = 0;
};
