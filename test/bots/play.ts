// Plays whole games with bots seated at join slots p0, p1, …, through the rules' Match, exactly
// as the simulator and a room do: each bot is shown only viewFor(game, itsSeat).
import { activePlayer, DEFAULT_OPTIONS, Game, GameOptions, Match, PlayerView, randInt, seedRng, viewFor } from '../../server/rules';
import type { Action, PlayerId } from '../../server/rules';
import { Bot, BotLevel, createBot } from '../../server/bots';

export interface Decision {
  game: Game;
  player: PlayerId;
  view: PlayerView;
  action: Action;
  bot: Bot;
}

export interface Played {
  match: Match;
  ids: PlayerId[];
  loserSlot: number;
}

export function options(over: Partial<GameOptions> = {}): GameOptions {
  return { ...DEFAULT_OPTIONS, ...over };
}

/**
 * `autoPercent` of turns are the rules' default action instead (an idle or away player), so the
 * bots also meet states they did not steer into. `inspect` sees each decision before it is applied;
 * `botSeed` reseeds only the bots (same deal, other play).
 */
export function playGame(
  levels: BotLevel[],
  seed: string,
  over: Partial<GameOptions> = {},
  autoPercent = 0,
  inspect?: (d: Decision) => void,
  botSeed = seed,
): Played {
  const ids = levels.map((_, i) => `p${i}`);
  const started = Match.start(seed, ids, options(over));
  if (!started.ok) throw new Error(`setup refused: ${started.error.code}`);
  const { match } = started;
  const bots = new Map(levels.map((level, i) => [ids[i], createBot(level, `${botSeed}/bot${i}`)]));
  const idle = seedRng(`${seed}/idle`);
  while (match.game.phase === 'playing') {
    if (match.game.step > 2000) throw new Error(`${seed}: no end`);
    if (autoPercent > 0 && randInt(idle, 100) < autoPercent) {
      match.actByDefault();
      continue;
    }
    const player = activePlayer(match.game)!;
    const bot = bots.get(player)!;
    const view = viewFor(match.game, player);
    const action = bot.decide(view);
    inspect?.({ game: match.game, player, view, action, bot });
    const result = match.act(player, action);
    if (!result.ok) throw new Error(`${seed} step ${match.game.step}: ${bot.level} move refused (${result.error.code})`);
  }
  return { match, ids, loserSlot: ids.indexOf(match.game.loser!) };
}

/** Share of `games` games each join slot lost. */
export function lossShares(levels: BotLevel[], games: number, prefix: string, over: Partial<GameOptions> = {}): number[] {
  const losses = levels.map(() => 0);
  for (let i = 0; i < games; i++) losses[playGame(levels, `${prefix}/${i}`, over).loserSlot]++;
  return losses.map((n) => n / games);
}
