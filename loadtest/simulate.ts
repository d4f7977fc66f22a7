// Plays seeded random games against the pure rules core and prints how fast it runs, how long
// games last and how they end. No server, no sockets: this is the rules core's ceiling.
//
//   npm run simulate -- --games 10000 [--players N] [--seed S] [--auto PERCENT] [--verify]
//   npm run simulate -- --games 10000 --players 4 --bots sharp,gentle,gentle,gentle
//
// Without --bots, moves are uniform legal moves with their own seeded RNG (seedRng, never
// Math.random); a share of moves (--auto, default 10%) is the timeout default instead, as in rooms
// where players idle. With --bots, seat i is a practice bot of the i-th level (server/bots), which
// decides from viewFor(game, seat) alone, and the run also prints how often each level lost; --auto
// then defaults to 0. Player counts cycle 2..6 unless --players (or --bots) fixes them; options
// cycle through a fixed mix.
import {
  activePlayer,
  GameOptions,
  LossReason,
  Match,
  randInt,
  randomLegalAction,
  replayGame,
  seedRng,
  validateOptions,
  viewFor,
} from '../server/rules';
import { Bot, BOT_LEVELS, BotLevel, createBot, isBotLevel } from '../server/bots';
import { parseArgsOrExit } from './lib/args';

interface Args {
  games: number;
  players: number | null;
  seed: string;
  autoPercent: number;
  verify: boolean;
  /** The level seated at each join slot p0, p1, …; null: the uniform movers of old. */
  bots: BotLevel[] | null;
}

function parseArgs(argv: string[]): Args {
  const flags = parseArgsOrExit(argv, {
    games: { kind: 'int', default: 1000, min: 1, help: 'games to play' },
    players: { kind: 'optional', help: '2..6 (default: cycle 2..6, or the number of --bots)' },
    seed: { kind: 'string', default: 'sim' },
    auto: { kind: 'optional', help: 'percent of moves that are the timeout default (10; 0 with --bots)' },
    bots: { kind: 'optional', help: 'a level per seat, e.g. sharp,gentle,gentle,gentle' },
    verify: { kind: 'flag', help: 'replay every game from its log' },
  });
  const bots = flags.bots === undefined ? null : parseBots(flags.bots);
  const players = flags.players === undefined ? (bots?.length ?? null) : Number(flags.players);
  const autoPercent = flags.auto === undefined ? (bots ? 0 : 10) : Number(flags.auto);
  if (players !== null && !(Number.isInteger(players) && players >= 2 && players <= 6)) throw new Error('--players must be 2..6');
  if (bots && players !== bots.length) throw new Error('--players must match the number of --bots');
  if (!(autoPercent >= 0 && autoPercent <= 100)) throw new Error('--auto must be 0..100');
  return { games: flags.games, players, seed: flags.seed, autoPercent, verify: flags.verify, bots };
}

function parseBots(list: string): BotLevel[] {
  const levels = list.split(',').map((s) => s.trim());
  if (levels.length < 2 || levels.length > 6) throw new Error('--bots needs 2..6 levels, e.g. sharp,gentle,gentle,gentle');
  for (const l of levels) if (!isBotLevel(l)) throw new Error(`--bots: unknown level "${l}" (${BOT_LEVELS.join(', ')})`);
  return levels as BotLevel[];
}

/** The option mix games cycle through (house rules on and off, every loseCount, history off). */
const MIXES: Partial<GameOptions>[] = [
  {},
  { eightKindsRule: true },
  { twoPlayerPass: true },
  { loseCount: 3 },
  { loseCount: 5, claimHistory: false },
  { loseCount: 4, eightKindsRule: true, twoPlayerPass: true },
];

interface GameStats {
  players: number;
  actions: number;
  rounds: number;
  reason: LossReason;
  ms: number;
  /** Join slot (p0 = 0, …) and play seat (0 = first starter) of the loser. */
  loserSlot: number;
  loserSeat: number;
}

function playGame(args: Args, index: number): GameStats {
  const players = args.players ?? 2 + (index % 5);
  const seed = `${args.seed}/${index}`;
  const checked = validateOptions(MIXES[Math.floor(index / 5) % MIXES.length]);
  if (!checked.ok) throw new Error(`bad option mix: ${checked.error.code}`);
  const ids = Array.from({ length: players }, (_, i) => `p${i}`);
  const t0 = performance.now();
  const started = Match.start(seed, ids, checked.options);
  if (!started.ok) throw new Error(`setup refused: ${started.error.code}`);
  const { match } = started;
  const game = match.game;
  const bot = seedRng(`${seed}/bots`);
  const seated = new Map<string, Bot>();
  args.bots?.forEach((level, i) => seated.set(ids[i], createBot(level, `${seed}/bot${i}`)));
  const bound = 64 * (2 * players + 1);

  while (game.phase === 'playing') {
    if (game.step > bound) throw new Error(`${seed}: no end after ${game.step} actions`);
    if (randInt(bot, 100) < args.autoPercent) {
      match.actByDefault();
      continue;
    }
    const player = activePlayer(game)!;
    const seatBot = seated.get(player);
    const action = seatBot ? seatBot.decide(viewFor(game, player)) : randomLegalAction(game, player, bot)!;
    const result = match.act(player, action);
    if (!result.ok) throw new Error(`${seed}: ${seatBot?.level ?? 'random'} move refused (${result.error.code})`);
  }
  const ms = performance.now() - t0;
  if (args.verify && JSON.stringify(replayGame(match.record)) !== JSON.stringify(game)) {
    throw new Error(`${seed}: replay differs`);
  }
  const loser = game.loser!;
  return {
    players,
    actions: game.step,
    rounds: game.round.no - 1,
    reason: game.lossReason!,
    ms,
    loserSlot: ids.indexOf(loser),
    loserSeat: game.order.indexOf(loser),
  };
}

/** Nearest-rank percentile of sorted numbers. */
function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

function spread(values: number[]): string {
  const s = [...values].sort((a, b) => a - b);
  return [s[0], percentile(s, 50), percentile(s, 90), percentile(s, 99), s[s.length - 1]].map((v) => String(v).padStart(4)).join(' / ');
}

const REASONS: LossReason[] = ['four', 'eightKinds', 'emptyHand'];

function report(label: string, stats: GameStats[], wallMs?: number) {
  const ms = wallMs ?? stats.reduce((t, g) => t + g.ms, 0);
  const actions = stats.reduce((t, g) => t + g.actions, 0);
  const rate = (n: number) => Math.round(n / (ms / 1000)).toLocaleString('en-US');
  console.log(`\n${label}: ${stats.length} games, ${actions} actions in ${(ms / 1000).toFixed(2)} s`);
  console.log(`  games/s ${rate(stats.length)}   actions/s ${rate(actions)}`);
  console.log(`  actions per game  min/p50/p90/p99/max ${spread(stats.map((g) => g.actions))}`);
  console.log(`  rounds per game   min/p50/p90/p99/max ${spread(stats.map((g) => g.rounds))}`);
  const reasons = REASONS.map((r) => {
    const n = stats.filter((g) => g.reason === r).length;
    return `${r} ${n} (${((100 * n) / stats.length).toFixed(1)}%)`;
  });
  console.log(`  loss reasons      ${reasons.join('   ')}`);
}

const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(1)}%`;

/** Who lost: per level (a seat's share; an even table loses 1/N), per join slot, per play seat. */
function reportLosses(levels: BotLevel[], stats: GameStats[]) {
  const n = stats.length;
  console.log(`\nlosses by level (${n} games, ${levels.length} players; an even table loses ${pct(1, levels.length)} per seat):`);
  for (const level of [...new Set(levels)]) {
    const slots = levels.flatMap((l, i) => (l === level ? [i] : []));
    const lost = stats.filter((g) => slots.includes(g.loserSlot)).length;
    console.log(
      `  ${level.padEnd(6)} ${slots.length} seat(s)  lost ${lost} (${pct(lost, n)} of games, ${pct(lost, n * slots.length)} per seat)`,
    );
  }
  const slotText = levels.map((l, i) => `p${i} ${l} ${pct(stats.filter((g) => g.loserSlot === i).length, n)}`);
  console.log(`  by player         ${slotText.join('   ')}`);
  const seatText = levels.map((_, s) => `seat ${s} ${pct(stats.filter((g) => g.loserSeat === s).length, n)}`);
  console.log(`  by seat (0 starts) ${seatText.join('   ')}`);
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  console.log(
    `simulate: ${args.games} games, players ${args.players ?? '2..6 cycling'}, seed "${args.seed}", ` +
      `${args.autoPercent}% timeout defaults${args.verify ? ', replay verified' : ''}` +
      `${args.bots ? `, bots ${args.bots.join(',')}` : ''}; node ${process.version}`,
  );
  const stats: GameStats[] = [];
  const t0 = performance.now();
  for (let i = 0; i < args.games; i++) stats.push(playGame(args, i));
  const wall = performance.now() - t0;
  report('all games (wall clock)', stats, wall);
  const counts = [...new Set(stats.map((g) => g.players))].sort();
  if (counts.length > 1)
    for (const n of counts)
      report(
        `${n} players (time inside games)`,
        stats.filter((g) => g.players === n),
      );
  if (args.bots) reportLosses(args.bots, stats);
}

try {
  main();
} catch (e) {
  console.error(`simulate: ${(e as Error).message}`);
  process.exit(1);
}
