/** The flags of `npm run loadtest` (loadtest/run.ts), parsed with the load tools' one parser. */
import { parseArgsOrExit, ParsedArgs } from './args';

export const RUN_FLAGS = {
  rooms: { kind: 'int', default: 20, min: 1, help: 'six-player rooms kept playing' },
  seconds: { kind: 'int', default: 15, min: 1, help: 'length of the measuring window' },
  batch: {
    kind: 'int',
    default: 25,
    min: 1,
    max: 33,
    help: 'rooms filled at a time during the ramp (six matchmakes each stay under the default MAX_PENDING_MATCHMAKES, 200)',
  },
  rate: {
    kind: 'number',
    default: 0,
    min: 0,
    help: 'rooms opened per second during the ramp, each filled as soon as it opens (e.g. 50); 0: --batch rooms at a time',
  },
  pace: { kind: 'choice', choices: ['human', 'fast'], default: 'human', help: 'human: 1–3 s per move; fast: at once' },
  clients: {
    kind: 'choice',
    choices: ['decoding', 'lean'],
    default: 'decoding',
    help: 'decoding: every client decodes every patch (and checks it for leaks); lean: only until the deal, then follows the events message (a cheaper load generator: loadtest/leanSeat.ts)',
  },
  seed: { kind: 'string', default: 'loadtest' },
  'server-root': {
    kind: 'optional',
    help: "run another checkout's server (its build and node_modules) with these bots: one side of an A/B (docs/benchmarks.md)",
  },
  pin: {
    kind: 'flag',
    help: 'give the server CPU 0 and the bots CPU 1 (taskset): each process has a core of its own, as if the bots ran on another machine',
  },
  idle: { kind: 'flag', help: 'seat the bots, never start the games' },
  settle: { kind: 'number', default: 5, min: 0, help: 'seconds between the ramp and the window' },
  'max-ramp': {
    kind: 'number',
    default: 0,
    min: 0,
    help: 'fail when filling the rooms took longer than this many seconds (0: no limit; CI uses it as the guard of issue 36)',
  },
  endpoint: { kind: 'optional', help: 'an external server (no server figures)' },
} as const;

export type RunOptions = ParsedArgs<typeof RUN_FLAGS>;

export function runOptions(argv: readonly string[] = process.argv.slice(2)): RunOptions {
  return parseArgsOrExit(argv, RUN_FLAGS);
}
