/**
 * Leaner per-client filter bookkeeping for @colyseus/schema 2.0.x, with the library's own
 * filtering left as it is. The library keeps, for every client and every object the client has
 * been sent, a `Set` of the field indexes it holds (plus a WeakSet entry): about 150–450 bytes
 * per object per client, the largest single share of a room's heap once hands are plain strings.
 * `applyFilters` only ever calls `refIds.has`, `addRefId`, `containerIndexes.get`, and `has`/`add`
 * on what that returns, so an object that answers those with two 32-bit masks (a Set only for
 * indexes from 64 on) does the same job in a few dozen bytes. Installed by
 * `CockroachState.applyFilters` (server side only: clients never filter).
 */

/** Which field indexes of one object a client holds. */
class IndexBits {
  private lo = 0;
  private hi = 0;
  private more?: Set<number>;

  has(i: number): boolean {
    if (i >= 0 && i < 32) return ((this.lo >>> i) & 1) === 1;
    if (i >= 32 && i < 64) return ((this.hi >>> (i - 32)) & 1) === 1;
    return this.more?.has(i) ?? false;
  }

  add(i: number): this {
    if (i >= 0 && i < 32) this.lo |= 1 << i;
    else if (i >= 32 && i < 64) this.hi |= 1 << (i - 32);
    else (this.more ??= new Set()).add(i);
    return this;
  }
}

/** Stands in for the library's `ClientState` on `client.$filterState`. */
export class LeanClientState {
  /** Keyed by the library's change trees; weak, so a dropped object takes its entry with it. */
  private readonly bits = new WeakMap<object, IndexBits>();
  // The library asks about one tree three times in a row (known? add, get): one lookup serves all.
  // Holds the last tree asked about until the next question: one object per client at most.
  private lastTree: object | null = null;
  private lastBits: IndexBits | undefined;

  /** The library asks whether the client knows an object: it does once it has an entry. */
  readonly refIds = { has: (tree: object): boolean => this.lookup(tree) !== undefined };
  readonly containerIndexes = { get: (tree: object): IndexBits | undefined => this.lookup(tree) };

  addRefId(tree: object): void {
    if (this.lookup(tree) !== undefined) return;
    const bits = new IndexBits();
    this.bits.set(tree, bits);
    this.lastBits = bits;
  }

  private lookup(tree: object): IndexBits | undefined {
    if (tree !== this.lastTree) {
      this.lastTree = tree;
      this.lastBits = this.bits.get(tree);
    }
    return this.lastBits;
  }
}

/** Gives a client the lean bookkeeping before the library creates its own. */
export function useLeanFilterState(client: object): void {
  const c = client as { $filterState?: unknown };
  if (c.$filterState === undefined) c.$filterState = new LeanClientState();
}
