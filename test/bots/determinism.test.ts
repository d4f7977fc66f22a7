import assert from 'node:assert/strict';
import { viewFor } from '../../server/rules';
import { BOT_NICKNAMES_KO, botNickname, BotLevel, createBot } from '../../server/bots';
import { playGame } from './play';

const LEVELS: BotLevel[] = ['smart', 'gentle', 'sharp', 'easy', 'normal'];

describe('bots: a seed fixes the play', () => {
  it('the same seeds play the same games; other seeds play others', () => {
    let differ = 0;
    for (let g = 0; g < 10; g++) {
      const a = JSON.stringify(playGame(LEVELS, `det/${g}`, { eightKindsRule: true }).match.record.log);
      const b = JSON.stringify(playGame(LEVELS, `det/${g}`, { eightKindsRule: true }).match.record.log);
      assert.equal(a, b);
      // Same deal, other bot seeds: only the bots' own randomness differs.
      const other = JSON.stringify(playGame(LEVELS, `det/${g}`, { eightKindsRule: true }, 0, undefined, `other/${g}`).match.record.log);
      if (other !== a) differ++;
    }
    assert.ok(differ >= 8, `only ${differ} of 10 games changed with the bots' seeds`);
  });

  it('think times stay within 40–100 % of the limit, repeat for a seed, and never change the moves', () => {
    const a = createBot('smart', 'think');
    const b = createBot('smart', 'think');
    const times = Array.from({ length: 500 }, () => a.thinkMs(2500));
    assert.deepEqual(
      Array.from({ length: 500 }, () => b.thinkMs(2500)),
      times,
    );
    for (const t of times) assert.ok(Number.isInteger(t) && t >= 1000 && t <= 2500, `${t}`);
    assert.ok(new Set(times).size > 100, 'think times vary');
    assert.ok(Math.min(...times) < 1100 && Math.max(...times) > 2400, 'they spread over the whole range');
    for (const bad of [0, -5, NaN, Infinity]) assert.equal(a.thinkMs(bad), 0);
    assert.ok(a.thinkMs(1) <= 1);

    // A bot asked for think times between moves plays exactly as one never asked.
    const quiet = new Map(LEVELS.map((l, i) => [`p${i}`, createBot(l, `det/3/bot${i}`)]));
    playGame(LEVELS, 'det/3', { eightKindsRule: true }, 0, ({ game, player, action, bot }) => {
      bot.thinkMs(2500);
      assert.deepEqual(quiet.get(player)!.decide(viewFor(game, player)), action);
    });
  });

  it('names bots distinctly in Korean, within the 12-character nickname limit', () => {
    const names = Array.from({ length: 12 }, (_, i) => botNickname(i));
    assert.equal(new Set(names).size, names.length);
    assert.deepEqual(names.slice(0, BOT_NICKNAMES_KO.length), [...BOT_NICKNAMES_KO]);
    assert.ok(BOT_NICKNAMES_KO.length >= 5, 'a table of one person and five bots');
    for (const n of names) {
      assert.match(n, /^로봇 [\uAC00-\uD7A3]+( \d+)?$/);
      assert.ok([...n].length <= 12, n);
    }
    assert.equal(botNickname(-1), botNickname(0));
  });
});
