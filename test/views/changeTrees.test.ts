import { strict as assert } from 'node:assert';
import { Schema, type } from '@colyseus/schema';
import '../../server/schema/changeTrees';

class Box extends Schema {
  @type('uint8') n = 1;
  @type('string') s = 'ab';
}
interface Tree {
  changes: Map<number, unknown>;
}
const treeOf = (box: Schema) => (box as unknown as { $changes: Tree }).$changes;

describe('the schema change trees (server/schema/changeTrees.ts)', () => {
  it('share one empty change map at rest, and make their own for the changes of one patch', () => {
    const a = new Box();
    const b = new Box();
    for (const box of [a, b]) {
      box.encode(false, [], true);
      box.discardAllChanges();
    }
    assert.equal(treeOf(a).changes, treeOf(b).changes);
    assert.equal(treeOf(a).changes.size, 0);
    a.n = 9;
    assert.notEqual(treeOf(a).changes, treeOf(b).changes);
    assert.deepEqual([...treeOf(a).changes.keys()], [0]);
    assert.equal(treeOf(b).changes.size, 0);
    const bytes: number[] = [];
    a.encode(false, bytes, true);
    a.discardAllChanges();
    assert.equal(treeOf(a).changes, treeOf(b).changes);
    assert.equal(treeOf(b).changes.size, 0);
    assert.equal(bytes[bytes.length - 1], 9);
    assert.throws(() => treeOf(b).changes.set(0, {}), /at rest/, 'the shared map refuses writes');
  });
});
