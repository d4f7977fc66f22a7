/**
 * Leaner per-client filter bookkeeping for @colyseus/schema 2.0.x, with the library's own
 * filtering left as it is. The library keeps, for every client and every object the client has
 * been sent, a `Set` of the field indexes it holds (plus a WeakSet entry): about 150–450 bytes
 * per object per client, the largest single share of a room's heap once hands are plain strings.
 * `applyFilters` only ever calls `refIds.has`, `addRefId`, `containerIndexes.get`, and `has`/`add`
 * on what that returns (for the tree it asked about, before asking about the next), so a weak
 * map from each tree to a small integer mask does the same job: the mask lives in the map's own
 * slot, no object per tree and client. Installed by `CockroachState.applyFilters` (server side
 * only: clients never filter) and used by the room's patch writer (filteredPatches.ts).
 */

/** Indexes below this fit a mask that stays a small integer (V8's smallest: 31 bits, signed). */
const MASK_BITS = 30;

/**
 * Which field indexes of one object a client holds: a mask while every index is below
 * MASK_BITS, a Set once one is not (a collection whose entries came and went many times).
 */
type Held = number | Set<number>;

/** What `containerIndexes.get` answers: the held indexes of the tree it was asked about. */
export interface HeldIndexes {
  has(index: number): boolean;
  add(index: number): unknown;
}

/** Stands in for the library's `ClientState` on `client.$filterState`. */
export class LeanClientState {
  /** Keyed by the library's change trees; weak, so a dropped object takes its entry with it. */
  private readonly held = new WeakMap<object, Held>();
  // The library asks about one tree several times in a row (known? add, get, then has/add per
  // field): one lookup serves them all. Holds the last tree asked about until the next question.
  private lastTree: object | null = null;
  private lastHeld: Held | undefined;
  /** The tree `containerIndexes.get` was last asked about: `indexes` answers for it. */
  private indexesTree: object | null = null;

  /** The library asks whether the client knows an object: it does once it has an entry. */
  readonly refIds = { has: (tree: object): boolean => this.lookup(tree) !== undefined };
  readonly containerIndexes = {
    get: (tree: object): HeldIndexes | undefined => {
      if (this.lookup(tree) === undefined) return undefined;
      this.indexesTree = tree;
      return this.indexes;
    },
  };
  private readonly indexes: HeldIndexes = {
    has: (index) => {
      const held = this.lookup(this.indexesTree!)!;
      if (typeof held !== 'number') return held.has(index);
      return index >= 0 && index < MASK_BITS && ((held >>> index) & 1) === 1;
    },
    add: (index) => {
      const tree = this.indexesTree!;
      const held = this.lookup(tree)!;
      if (typeof held !== 'number') held.add(index);
      else if (index >= 0 && index < MASK_BITS) this.store(tree, held | (1 << index));
      else {
        const set = new Set<number>([index]);
        for (let i = 0; i < MASK_BITS; i++) if ((held >>> i) & 1) set.add(i);
        this.store(tree, set);
      }
    },
  };

  addRefId(tree: object): void {
    if (this.lookup(tree) === undefined) this.store(tree, 0);
  }

  private store(tree: object, held: Held): void {
    this.held.set(tree, held);
    this.lastTree = tree;
    this.lastHeld = held;
  }

  private lookup(tree: object): Held | undefined {
    if (tree !== this.lastTree) {
      this.lastTree = tree;
      this.lastHeld = this.held.get(tree);
    }
    return this.lastHeld;
  }
}

/** Gives a client the lean bookkeeping before the library creates its own. */
export function useLeanFilterState(client: object): void {
  const c = client as { $filterState?: unknown };
  if (c.$filterState === undefined) c.$filterState = new LeanClientState();
}
