/**
 * @colyseus/schema 2.0 keeps, on every object, the last encoded bytes of each field (the
 * filters' per-client pass copies them out) and replaces them with a fresh array whenever the
 * field changes. At human pace a field changes every few seconds, so each replaced array has
 * outlived the young generation: it is copied there twice, promoted, and left for a major
 * collection. The largest single source of old-space garbage per action in the issue-25
 * profile (`npm run loadtest -- --alloc-prof F --alloc-kind promoted`).
 *
 * Here the bytes of a field whose encoding kept its length are copied into the array already
 * held (the fresh one dies young, which costs next to nothing). Every reader of the caches
 * copies out of them (the library's `applyFilters`, our patch writer), so an array changed in
 * place is never seen half-old. Installed once, for the whole process, on import.
 */
import { MapSchema } from '@colyseus/schema';

interface CachingTree {
  caches: Record<number, number[] | undefined>;
}

function cacheInPlace(this: CachingTree, field: number, bytes: number[]): void {
  const held = this.caches[field];
  if (held === undefined || held.length !== bytes.length) {
    this.caches[field] = bytes;
    return;
  }
  for (let i = 0; i < bytes.length; i++) held[i] = bytes[i];
}

/** The library's ChangeTree class is not exported: its prototype is reached through an instance. */
const prototype = Object.getPrototypeOf((new MapSchema() as unknown as { $changes: object }).$changes) as {
  cache(field: number, bytes: number[]): void;
};
if (typeof prototype.cache !== 'function') throw new Error('@colyseus/schema: ChangeTree.cache not found (library changed?)');
prototype.cache = cacheInPlace;
