import { strict as assert } from 'node:assert';
import { Timers } from '../../server/table/timers';

describe('table timers (server/table/timers.ts)', () => {
  let now = 0;
  const make = () => {
    now = 1000;
    return new Timers(() => now);
  };

  it('fire at the first run at or after their due time, earliest first, once', () => {
    const timers = make();
    const fired: string[] = [];
    timers.after(300, () => fired.push('late'));
    timers.after(100, () => fired.push('early'));
    timers.after(5000, () => fired.push('never'));
    timers.run(1099);
    assert.deepEqual(fired, []);
    timers.run(1300);
    assert.deepEqual(fired, ['early', 'late']);
    timers.run(1400);
    assert.deepEqual(fired, ['early', 'late']);
    assert.equal(timers.size, 1);
  });

  it('never fire once cleared, even when cleared by a timer of the same run', () => {
    const timers = make();
    const fired: string[] = [];
    const second = timers.after(20, () => fired.push('second'));
    timers.after(10, () => {
      fired.push('first');
      second.clear();
    });
    const cleared = timers.after(5, () => fired.push('cleared'));
    cleared.clear();
    assert.equal(timers.size, 2);
    timers.run(2000);
    assert.deepEqual(fired, ['first']);
    assert.equal(timers.size, 0);
  });

  it('keep a timer set by a callback for the next run, and the live ones across runs that clear others', () => {
    const timers = make();
    const fired: string[] = [];
    timers.after(10, () => {
      fired.push('outer');
      timers.after(0, () => fired.push('inner'));
    });
    const kept = timers.after(500, () => fired.push('kept'));
    const dropped = timers.after(400, () => fired.push('dropped'));
    dropped.clear();
    timers.run(1010);
    assert.deepEqual(fired, ['outer']);
    assert.equal(timers.size, 2);
    timers.run(1011);
    assert.deepEqual(fired, ['outer', 'inner']);
    timers.run(1500);
    assert.deepEqual(fired, ['outer', 'inner', 'kept']);
    kept.clear(); // after it fired: nothing changes
    timers.after(1, () => fired.push('gone'));
    timers.clearAll();
    timers.run(9999);
    assert.equal(timers.size, 0);
    assert.deepEqual(fired, ['outer', 'inner', 'kept']);
  });
});
