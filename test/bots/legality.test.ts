import assert from 'node:assert/strict';
import { checkAction, legalActions } from '../../server/rules';
import { BOT_LEVELS, BotLevel } from '../../server/bots';
import { playGame } from './play';

/** Each table, and the decisions its games must go through (a level that never peeks makes no pass). */
const TABLES: Record<string, { levels: (n: number) => BotLevel[]; makes: string[] }> = {
  'all gentle': { levels: (n) => Array(n).fill('gentle'), makes: ['offer', 'call', 'peek', 'pass'] },
  'all normal': { levels: (n) => Array(n).fill('normal'), makes: ['offer', 'call', 'peek', 'pass', 'call (card known)'] },
  'all sharp': { levels: (n) => Array(n).fill('sharp'), makes: ['offer', 'call', 'peek', 'pass'] },
  'all easy': { levels: (n) => Array(n).fill('easy'), makes: ['offer', 'call', 'peek', 'pass', 'call (card known)'] },
  'all smart': { levels: (n) => Array(n).fill('smart'), makes: ['offer', 'call', 'peek', 'pass'] },
  mixed: {
    levels: (n) => Array.from({ length: n }, (_, i) => BOT_LEVELS[i % BOT_LEVELS.length]),
    makes: ['offer', 'call', 'peek', 'pass', 'call (card known)'],
  },
};
const HOUSE_RULES = [
  { twoPlayerPass: false, eightKindsRule: false },
  { twoPlayerPass: true, eightKindsRule: false },
  { twoPlayerPass: false, eightKindsRule: true },
  { twoPlayerPass: true, eightKindsRule: true, loseCount: 3 as const },
  { twoPlayerPass: true, eightKindsRule: false, loseCount: 5 as const, claimHistory: false },
];
const GAMES = 6;

describe('bots: every move is legal for the seat', () => {
  for (const [name, { levels, makes }] of Object.entries(TABLES)) {
    it(`${name}: 2–6 players, house rules on and off, with idle turns mixed in`, () => {
      const kinds = new Map<string, number>();
      let decisions = 0;
      for (let n = 2; n <= 6; n++) {
        for (const [r, rules] of HOUSE_RULES.entries()) {
          for (let g = 0; g < GAMES; g++) {
            playGame(levels(n), `legal/${name}/${n}/${r}/${g}`, rules, g % 2 === 0 ? 0 : 15, ({ game, player, action, view }) => {
              assert.equal(checkAction(game, player, action), null, `refused ${JSON.stringify(action)}`);
              assert.ok(
                legalActions(game, player).some((a) => JSON.stringify(a) === JSON.stringify(action)),
                'not among the legal actions',
              );
              const key = action.type === 'call' && view.round.cardKind !== undefined ? 'call (card known)' : action.type;
              kinds.set(key, (kinds.get(key) ?? 0) + 1);
              decisions++;
            });
          }
        }
      }
      // The games really went through every kind of decision the level makes, the two-player pass-back included.
      for (const key of makes) assert.ok((kinds.get(key) ?? 0) > 0, `no ${key} in ${[...kinds]}`);
      assert.ok(decisions > 2000);
    });
  }
});
