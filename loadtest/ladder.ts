// The practice bot ladder (issue 34): each reference player sits with bots of each level and plays
// seeded games through the rules core, one core, no sockets. It prints each one's loss rate as a
// multiple of a fair share (1.00 = 1/N) with a 95 % interval by table, for game 1 (a new table
// each game) and for sittings of 10 games with the same bots, checks issue 34's targets and exits
// 1 if one is missed.
//
//   npm run bots:ladder [-- --games 4000 --seed ladder --players 4,6 --levels gentle,normal,sharp --refs child,casual,wary,random]
import { BotLevel, isBotLevel } from '../server/bots';
import { parseArgs, UsageError } from './lib/args';
import { drift, fmt, fmtRate, lossRate, Rate } from './ladder/figures';
import { REFERENCE_DESCRIPTIONS, REFERENCE_PLAYERS, ReferenceName } from './ladder/reference';
import { DecisionTimes, playSitting } from './ladder/sitting';
import { DECISION_MS, describe, driftMeets, rateMeets, targetFor } from './ladder/targets';

export const LADDER_LEVELS: readonly BotLevel[] = ['gentle', 'normal', 'sharp'];
export const SITTING = 10;

const FLAGS = {
  games: { kind: 'int', default: 4000, min: 10, help: 'games per row (a row with a drift target plays twice as many)' },
  seed: { kind: 'string', default: 'ladder' },
  players: { kind: 'string', default: '4,6', help: 'table sizes, 3..6' },
  levels: { kind: 'string', default: LADDER_LEVELS.join(','), help: 'bot levels' },
  refs: { kind: 'string', default: REFERENCE_PLAYERS.join(','), help: 'reference players' },
} as const;

export interface LadderArgs {
  games: number;
  seed: string;
  players: number[];
  levels: BotLevel[];
  refs: ReferenceName[];
}

function list<T extends string>(flag: string, raw: string, ok: (s: string) => s is T): T[] {
  const items = raw.split(',').map((s) => s.trim());
  for (const item of items) if (!ok(item)) throw new UsageError(`--${flag}: unknown "${item}"`);
  return [...new Set(items)] as T[];
}

/** Throws UsageError on a bad argument. */
export function parseLadderArgs(argv: readonly string[]): LadderArgs {
  const flags = parseArgs(argv, FLAGS);
  const players = list('players', flags.players, (s): s is string => /^[3-6]$/.test(s)).map(Number);
  const levels = list('levels', flags.levels, (s): s is BotLevel => isBotLevel(s));
  const refs = list('refs', flags.refs, (s): s is ReferenceName => (REFERENCE_PLAYERS as readonly string[]).includes(s));
  if (flags.games % SITTING !== 0) throw new UsageError(`--games must be a multiple of ${SITTING} (whole sittings)`);
  return { games: flags.games, seed: flags.seed, players, levels, refs };
}

interface Row {
  players: number;
  level: BotLevel;
  reference: ReferenceName;
  first: Rate;
  sitting: Rate;
  ok: boolean | null;
}

function playRow(args: LadderArgs, players: number, level: BotLevel, reference: ReferenceName, times: DecisionTimes): Row {
  const target = targetFor(level, reference, players);
  const games = target?.maxDrift !== undefined ? 2 * args.games : args.games;
  const base = `${args.seed}/${players}/${level}/${reference}`;
  const first: boolean[][] = [];
  for (let i = 0; i < games; i++) first.push(playSitting(reference, level, players, 1, `${base}/first/${i}`, times).lost);
  const sitting: boolean[][] = [];
  for (let i = 0; i < games / SITTING; i++)
    sitting.push(playSitting(reference, level, players, SITTING, `${base}/sitting/${i}`, times).lost);
  const row: Row = { players, level, reference, first: lossRate(first, players), sitting: lossRate(sitting, players), ok: null };
  if (target) row.ok = rateMeets(target, row.first) && rateMeets(target, row.sitting) && driftMeets(target, drift(row.first, row.sitting));
  return row;
}

function printRow(row: Row) {
  const target = targetFor(row.level, row.reference, row.players);
  const d = drift(row.first, row.sitting);
  const cells = [
    `${row.players}`.padEnd(7),
    row.level.padEnd(7),
    row.reference.padEnd(7),
    fmtRate(row.first).padEnd(19),
    fmtRate(row.sitting).padEnd(19),
    `${d.value >= 0 ? '+' : ''}${fmt(d.value)} [${fmt(d.low)}, ${fmt(d.high)}]`.padEnd(22),
    `${row.first.games}+${row.sitting.games}`.padEnd(11),
    target ? `${describe(target)}: ${row.ok ? 'met' : 'MISSED'}` : '',
  ];
  console.log(cells.join(' ').trimEnd());
}

export function main(argv: readonly string[]): number {
  let args: LadderArgs;
  try {
    args = parseLadderArgs(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    console.error(`usage: ${e.message}`);
    return 2;
  }
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  console.log(
    `bots:ladder: ${args.games} games a row (twice that for a row with a drift target), sittings of ${SITTING}; node ${process.version}`,
  );
  console.log(
    `seeds: game 1 "${args.seed}/<players>/<level>/<reference>/first/<i>", sittings ".../sitting/<i>" (games "<table seed>/game<g>", bots "<table seed>/p1".., reference "<table seed>/p0")`,
  );
  for (const r of args.refs) console.log(`  ${r.padEnd(7)} ${REFERENCE_DESCRIPTIONS[r]}`);
  console.log('\nloss rate of the reference player, as a multiple of a fair share (1.00 = 1/N), 95 % interval by table');
  console.log(
    `${'players'} ${'bots'.padEnd(7)} ${'player'.padEnd(7)} ${'game 1'.padEnd(19)} ${'sitting of 10'.padEnd(19)} ${'drift'.padEnd(22)} ${'games'.padEnd(11)} target`,
  );
  const rows: Row[] = [];
  const times = new Map(args.levels.map((l) => [l, new DecisionTimes()]));
  for (const players of args.players) {
    for (const level of args.levels) {
      for (const reference of args.refs) {
        const row = playRow(args, players, level, reference, times.get(level)!);
        rows.push(row);
        printRow(row);
      }
    }
  }
  let ok = rows.every((r) => r.ok !== false);
  console.log('\nmedian decision time (every 8th decision timed):');
  for (const [level, t] of times) {
    const median = t.median();
    const fast = median < DECISION_MS;
    ok &&= fast;
    console.log(
      `  ${level.padEnd(7)} ${(median * 1000).toFixed(1)} µs over ${t.samples.length} decisions${fast ? '' : `: MISSED (< ${DECISION_MS} ms)`}`,
    );
  }
  const missed = rows.filter((r) => r.ok === false).length;
  const cpu = process.cpuUsage(cpu0);
  const wall = (performance.now() - t0) / 1000;
  console.log(
    `\n${ok ? 'every target met' : `${missed} target row(s) missed`} in ${wall.toFixed(0)} s (${((cpu.user + cpu.system) / 1e6).toFixed(0)} s of CPU, one thread)`,
  );
  return ok ? 0 : 1;
}

if (require.main === module) process.exit(main(process.argv.slice(2)));
