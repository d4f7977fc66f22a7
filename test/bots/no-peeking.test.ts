// A bot cannot cheat by construction: it decides from the seat's view alone. These tests check
// that the view is all it reads (frozen views work, hidden cards shuffled make no difference) and
// that its modules cannot reach a Game or a Match at all.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { activePlayer, Game, Match, PlayerId, seedRng, shuffle, viewFor } from '../../server/rules';
import { BOT_LEVELS, BotLevel, createBot } from '../../server/bots';
import { options, playGame } from './play';

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** The same game with the kinds of every card `viewer` cannot see dealt out differently. */
function reshuffleHidden(game: Game, viewer: PlayerId, seed: string): Game {
  const twin = structuredClone(game);
  const hidden = [...game.order.filter((p) => p !== viewer).flatMap((p) => game.hands[p]), ...game.removed];
  if (game.round.card !== null && !game.round.seen.includes(viewer)) hidden.push(game.round.card);
  const kinds = shuffle(
    seedRng(seed),
    hidden.map((id) => twin.kinds[id]),
  );
  hidden.forEach((id, i) => (twin.kinds[id] = kinds[i]));
  return twin;
}

const TABLES: BotLevel[][] = [
  ['smart', 'easy', 'smart', 'easy'],
  ['smart', 'smart'],
  ['easy', 'smart', 'smart', 'smart', 'easy', 'smart'],
  ['gentle', 'normal', 'sharp', 'gentle'],
  ['gentle', 'gentle'],
  ['normal', 'normal'],
  ['sharp', 'sharp'],
  ['sharp', 'normal', 'gentle', 'sharp', 'normal', 'gentle'],
];

describe('bots: the view is all a bot reads', () => {
  it('decides from a deep-frozen view exactly as from a fresh copy, and never changes it', () => {
    let decisions = 0;
    TABLES.forEach((levels, t) => {
      for (let g = 0; g < 6; g++) {
        const twins = new Map(levels.map((level, i) => [`p${i}`, createBot(level, `frozen/${t}/${g}/bot${i}`)]));
        playGame(
          levels,
          `frozen/${t}/${g}`,
          { twoPlayerPass: g % 2 === 0, eightKindsRule: g % 3 === 0 },
          10,
          ({ game, player, view, action }) => {
            const frozen = deepFreeze(viewFor(game, player));
            const before = JSON.stringify(frozen);
            assert.deepEqual(twins.get(player)!.decide(frozen), action);
            assert.equal(JSON.stringify(frozen), before);
            assert.equal(JSON.stringify(view), before, 'the bot changed the view it was given');
            decisions++;
          },
        );
      }
    });
    assert.ok(decisions > 500);
  });

  it('plays the same whatever the cards it cannot see are', () => {
    let changed = 0;
    TABLES.forEach((levels, t) => {
      for (let g = 0; g < 6; g++) {
        const twins = new Map(levels.map((level, i) => [`p${i}`, createBot(level, `hidden/${t}/${g}/bot${i}`)]));
        playGame(levels, `hidden/${t}/${g}`, { twoPlayerPass: true }, 0, ({ game, player, action }) => {
          const twin = reshuffleHidden(game, player, `${game.step}`);
          if (JSON.stringify(twin.kinds) !== JSON.stringify(game.kinds)) changed++;
          const view = viewFor(twin, player);
          assert.deepEqual(view, viewFor(game, player), 'the reshuffle changed what the seat may see');
          assert.deepEqual(twins.get(player)!.decide(view), action);
        });
      }
    });
    assert.ok(changed > 100, 'the hidden cards were really dealt differently');
  });

  it("refuses a view of another seat's turn, a spectator's view and an ended game", () => {
    const started = Match.start('refuse', ['a', 'b', 'c'], options());
    assert.ok(started.ok);
    const game = started.match.game;
    const waiting = game.order.find((p) => p !== activePlayer(game))!;
    for (const level of BOT_LEVELS) {
      const bot = createBot(level, 'refuse');
      assert.throws(() => bot.decide(viewFor(game, waiting)), /not this seat's turn/);
      assert.throws(() => bot.decide(viewFor(game, null)), /not a player view/);
      assert.ok(bot.decide(viewFor(game, activePlayer(game)!)));
    }
    const { match } = playGame(['easy', 'easy', 'easy'], 'refuse/ended');
    for (const level of BOT_LEVELS) assert.throws(() => createBot(level, 'x').decide(viewFor(match.game, 'p0')), /not being played/);
  });

  it('imports nothing that could reach a Game, a Match, a room or the clock', () => {
    const dir = join(__dirname, '../../server/bots');
    // rules/view: the rules' functions of a view (who acts, pass facts); protocol: names only.
    const valueImports = new Set(['../rules/kinds', '../rules/rng', '../rules/queries', '../rules/view', '../protocol']);
    const typeImports = new Set([...valueImports, '../rules/types', '../rules/view', '../rules/options']);
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
    assert.ok(files.includes('index.ts') && files.length >= 4);
    for (const file of files) {
      const text = readFileSync(join(dir, file), 'utf8');
      const statements = [...text.matchAll(/^(import|export)\s+(type\s+)?[^;]*?\sfrom\s+'([^']+)'/gms)];
      // Every `from '…'` in the file is one of the statements checked below.
      assert.equal(statements.length, (text.match(/\sfrom\s+'/g) ?? []).length, `${file}: an import the check does not parse`);
      for (const [, , typeOnly, from] of statements) {
        if (from.startsWith('./')) continue;
        const allowed = typeOnly ? typeImports : valueImports;
        assert.ok(allowed.has(from), `${file} imports ${typeOnly ? 'types from ' : ''}${from}`);
      }
      assert.doesNotMatch(text, /\brequire\(|\bimport\(|Math\.random|Date\.now|setTimeout|setInterval|globalThis|process\./, file);
    }
  });
});
