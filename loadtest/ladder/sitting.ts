// One table of the ladder: a reference player at join slot p0 and bots of one level in the other
// seats play `games` games in a row through the rules core, the same bots throughout (as a room
// keeps its bots over rematches). Every seat is shown only viewFor(game, itsSeat).
import { activePlayer, DEFAULT_OPTIONS, Match, seedRng, viewFor } from '../../server/rules';
import type { GameOptions, LossReason, PlayerId } from '../../server/rules';
import { Bot, BotLevel, createBot } from '../../server/bots';
import { REFERENCE_MOVES, ReferenceName } from './reference';

export interface SittingResult {
  /** Per game, in order: did the reference player lose it. */
  lost: boolean[];
  /** Why the reference player lost each game it lost. */
  reasons: LossReason[];
  /** Actions played, over all its games. */
  actions: number;
}

/** Bot decision times in ms, one in `every` decisions kept (a median needs no more). */
export class DecisionTimes {
  readonly samples: number[] = [];
  private count = 0;
  constructor(private readonly every = 8) {}
  /** True when this decision should be timed. */
  next(): boolean {
    return this.count++ % this.every === 0;
  }
  add(ms: number): void {
    this.samples.push(ms);
  }
  median(): number {
    const s = [...this.samples].sort((a, b) => a - b);
    return s.length === 0 ? NaN : s[Math.floor(s.length / 2)];
  }
}

export function playSitting(
  reference: ReferenceName,
  level: BotLevel,
  players: number,
  games: number,
  seed: string,
  times?: DecisionTimes,
  options: GameOptions = DEFAULT_OPTIONS,
  makeBot: (seed: string) => Bot = (seed) => createBot(level, seed),
): SittingResult {
  const ids: PlayerId[] = Array.from({ length: players }, (_, i) => `p${i}`);
  const bots = new Map(ids.slice(1).map((id) => [id, makeBot(`${seed}/${id}`)]));
  const refRng = seedRng(`${seed}/p0`);
  const refMove = REFERENCE_MOVES[reference];
  const lost: boolean[] = [];
  let actions = 0;
  const reasons: LossReason[] = [];
  for (let g = 0; g < games; g++) {
    const started = Match.start(`${seed}/game${g}`, ids, options);
    if (!started.ok) throw new Error(`setup refused: ${started.error.code}`);
    const { match } = started;
    const game = match.game;
    while (game.phase === 'playing') {
      if (game.step > 2000) throw new Error(`${seed}/game${g}: no end`);
      const player = activePlayer(game)!;
      const view = viewFor(game, player);
      const bot = bots.get(player);
      let action;
      if (!bot) action = refMove(view, player, refRng);
      else if (times?.next()) {
        const t0 = performance.now();
        action = bot.decide(view);
        times.add(performance.now() - t0);
      } else action = bot.decide(view);
      const result = match.act(player, action);
      if (!result.ok) throw new Error(`${seed}/game${g} step ${game.step}: ${bot ? level : reference} move refused (${result.error.code})`);
    }
    lost.push(game.loser === ids[0]);
    if (game.loser === ids[0]) reasons.push(game.lossReason!);
    actions += game.step;
  }
  return { lost, reasons, actions };
}
