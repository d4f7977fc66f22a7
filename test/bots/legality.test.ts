import assert from 'node:assert/strict';
import { checkAction, legalActions } from '../../server/rules';
import type { BotLevel } from '../../server/bots';
import { playGame } from './play';

const TABLES: Record<string, (n: number) => BotLevel[]> = {
  'all easy': (n) => Array(n).fill('easy'),
  'all smart': (n) => Array(n).fill('smart'),
  mixed: (n) => Array.from({ length: n }, (_, i) => (i % 2 === 0 ? 'smart' : 'easy')),
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
  for (const [name, table] of Object.entries(TABLES)) {
    it(`${name}: 2–6 players, house rules on and off, with idle turns mixed in`, () => {
      const kinds = new Map<string, number>();
      let decisions = 0;
      for (let n = 2; n <= 6; n++) {
        for (const [r, rules] of HOUSE_RULES.entries()) {
          for (let g = 0; g < GAMES; g++) {
            playGame(table(n), `legal/${name}/${n}/${r}/${g}`, rules, g % 2 === 0 ? 0 : 15, ({ game, player, action, view }) => {
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
      // The games really went through every kind of decision, the two-player pass-back included.
      for (const type of ['offer', 'call', 'peek', 'pass']) assert.ok((kinds.get(type) ?? 0) > 0, `no ${type} in ${[...kinds]}`);
      // smart never peeks just to hand a card back to the one who saw it: smart.test.ts covers that call.
      if (name !== 'all smart') assert.ok((kinds.get('call (card known)') ?? 0) > 0, 'no call on a card that came back');
      assert.ok(decisions > 2000);
    });
  }
});
