import { strict as assert } from 'node:assert';
import { Schema, type } from '@colyseus/schema';
import '../../server/schema/CockroachState';

class Box extends Schema {
  @type('uint8') n = 1;
  @type('string') s = 'ab';
}
const caches = (box: Box) => (box as unknown as { $changes: { caches: Record<number, number[]> } }).$changes.caches;

describe('the schema field caches (server/schema/fieldCaches.ts)', () => {
  it('keep the array of a field whose bytes kept their length, holding the new bytes', () => {
    const box = new Box();
    box.encode(false, [], true);
    box.discardAllChanges();
    const held = caches(box)[0];
    box.n = 7;
    const bytes: number[] = [];
    box.encode(false, bytes, true);
    box.discardAllChanges();
    assert.equal(caches(box)[0], held);
    assert.deepEqual(held, bytes);
    assert.equal(held[held.length - 1], 7);
  });

  it('take a new array when the length changed', () => {
    const box = new Box();
    box.encode(false, [], true);
    box.discardAllChanges();
    const held = caches(box)[1];
    box.s = 'abcdef';
    const bytes: number[] = [];
    box.encode(false, bytes, true);
    assert.notEqual(caches(box)[1], held);
    assert.deepEqual(caches(box)[1], bytes);
  });
});
