import assert from 'node:assert/strict';
import { parseArgs, UsageError } from '../../loadtest/lib/args';
import { RUN_FLAGS } from '../../loadtest/lib/runOptions';

describe('loadtest: the one argument parser of the load tools', () => {
  it('gives defaults, typed values for both --name value and --name=value, and flags', () => {
    const none = parseArgs([], RUN_FLAGS);
    assert.equal(none.rooms, 20);
    assert.equal(none.pace, 'human');
    assert.equal(none.idle, false);
    assert.equal(none.endpoint, undefined);
    const some = parseArgs(
      ['--rooms', '1000', '--seconds=40', '--pace', 'fast', '--idle', '--settle', '2.5', '--server-root', '../before'],
      RUN_FLAGS,
    );
    assert.deepEqual(
      [some.rooms, some.seconds, some.pace, some.idle, some.settle, some['server-root']],
      [1000, 40, 'fast', true, 2.5, '../before'],
    );
  });

  it('refuses unknown flags, missing values, bad numbers and choices, naming the flag', () => {
    const cases: [string[], RegExp][] = [
      [['--room', '5'], /unknown flag --room/],
      [['--rooms'], /--rooms needs a value/],
      [['--rooms', '0'], /--rooms must be at least 1/],
      [['--rooms', '2.5'], /--rooms must be an integer/],
      [['--rooms', ''], /--rooms must be an integer/],
      [['--settle', 'soon'], /--settle must be a number/],
      [['--pace', 'slow'], /--pace must be one of human, fast/],
      [['--idle=yes'], /--idle takes no value/],
      [['stray'], /unexpected argument stray/],
    ];
    for (const [argv, message] of cases)
      assert.throws(
        () => parseArgs(argv, RUN_FLAGS),
        (e: unknown) => e instanceof UsageError && message.test(e.message),
        argv.join(' '),
      );
  });
});
