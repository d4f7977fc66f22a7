/**
 * Leaner per-client filter bookkeeping for @colyseus/schema 2.0.x, with the library's own
 * filtering left as it is. The library keeps, for every client and every object the client has
 * been sent, a `Set` of the field indexes it holds (plus a WeakSet entry): about 150–450 bytes
 * per object per client, the largest single share of a room's heap once hands are plain strings.
 * `applyFilters` only ever calls `refIds.has`, `addRefId`, `containerIndexes.get`, and `has`/`add`
 * on what that returns (for the tree it asked about, before asking about the next), so a small
 * integer mask per tree and client does the same job.
 *
 * The masks live on the trees, not in a weak map per client: each client of a room has a slot,
 * and a tree holds, per slot, the client's state and its mask. A per-client weak map gained six
 * entries for every new object of a room (a new round is three), kept the dead ones until a
 * major collection, and grew its table again and again: old-space garbage for every action.
 * A slot is taken over once its client left; the state stored beside each mask tells a new
 * client's entries from the old one's, so nothing is inherited even from a tree never visited
 * again. Installed by `CockroachState.applyFilters` (server side only: clients never filter) and
 * used by the room's patch writer (patchWriter.ts).
 */

/**
 * Colyseus's `ClientState` values for a client gone from the room (the state classes are shared
 * with the SDK, which must not import the server's package; test/views/leanFilterState.test.ts
 * checks them against it).
 */
export const CLIENT_LEFT = { LEAVING: 3, RECONNECTED: 2 } as const;

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

/** A tree with the clients' entries: `[state of slot 0, its mask, state of slot 1, its mask, …]`. */
interface HoldingTree {
  $held?: unknown[];
}

/** The clients of one room (one state), by slot. */
class Slots {
  private readonly owners: { state?: unknown }[] = [];

  /** The first slot whose client left (or came back as a new client), else a new one. */
  take(client: { state?: unknown }): number {
    const owners = this.owners;
    for (let slot = 0; slot < owners.length; slot++) {
      const state = owners[slot].state;
      if (state === CLIENT_LEFT.LEAVING || state === CLIENT_LEFT.RECONNECTED) {
        owners[slot] = client;
        return slot;
      }
    }
    return owners.push(client) - 1;
  }
}
const slotsOf = new WeakMap<object, Slots>();

/** Stands in for the library's `ClientState` on `client.$filterState`. */
export class LeanClientState {
  /** Where this client's entries sit in each tree's `$held`. */
  private readonly at: number;
  // The library asks about one tree several times in a row (known? add, get, then has/add per
  // field): one lookup serves them all. Holds the last tree asked about until the next question.
  private lastTree: object | null = null;
  private lastHeld: Held | undefined;
  /** The tree `containerIndexes.get` was last asked about: `indexes` answers for it. */
  private indexesTree: object | null = null;

  constructor(slot: number) {
    this.at = 2 * slot;
  }

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
    const entries = ((tree as HoldingTree).$held ??= []);
    entries[this.at] = this;
    entries[this.at + 1] = held;
    this.lastTree = tree;
    this.lastHeld = held;
  }

  private lookup(tree: object): Held | undefined {
    if (tree !== this.lastTree) {
      this.lastTree = tree;
      const entries = (tree as HoldingTree).$held;
      this.lastHeld = entries !== undefined && entries[this.at] === this ? (entries[this.at + 1] as Held) : undefined;
    }
    return this.lastHeld;
  }
}

/** Gives a client of the room whose state is `root` the lean bookkeeping before the library creates its own. */
export function useLeanFilterState(client: object, root: object): void {
  const c = client as { $filterState?: unknown; state?: unknown };
  if (c.$filterState !== undefined) return;
  let slots = slotsOf.get(root);
  if (slots === undefined) slotsOf.set(root, (slots = new Slots()));
  c.$filterState = new LeanClientState(slots.take(c));
}
