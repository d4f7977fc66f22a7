// The ladder's machinery, not its figures (those are `npm run bots:ladder`'s): arguments, the
// interval by table, the targets' checks, and reference players that read only their own view.
import assert from 'node:assert/strict';
import { activePlayer, Match, DEFAULT_OPTIONS, PlayerId, seedRng, shuffle, viewFor } from '../../server/rules';
import type { Game, RngState } from '../../server/rules';
import { UsageError } from '../../loadtest/lib/args';
import { LADDER_LEVELS, main, parseLadderArgs } from '../../loadtest/ladder';
import { drift, lossRate } from '../../loadtest/ladder/figures';
import { REFERENCE_MOVES, REFERENCE_PLAYERS } from '../../loadtest/ladder/reference';
import { playSitting } from '../../loadtest/ladder/sitting';
import { driftMeets, rateMeets, targetFor } from '../../loadtest/ladder/targets';

describe('loadtest: the practice bot ladder (issue 34)', () => {
  it('parses its arguments, with defaults of 4,000 games a row at 4 and 6 players, every level and reference', () => {
    const none = parseLadderArgs([]);
    assert.deepEqual(none, { games: 4000, seed: 'ladder', players: [4, 6], levels: [...LADDER_LEVELS], refs: [...REFERENCE_PLAYERS] });
    assert.deepEqual(LADDER_LEVELS, ['gentle', 'normal', 'sharp']);
    const some = parseLadderArgs(['--games', '200', '--seed=s', '--players', '5', '--levels', 'sharp,smart', '--refs', 'wary']);
    assert.deepEqual(some, { games: 200, seed: 's', players: [5], levels: ['sharp', 'smart'], refs: ['wary'] });
    for (const [argv, message] of [
      [['--games', '205'], /multiple of 10/],
      [['--players', '7'], /--players: unknown "7"/],
      [['--players', '2'], /--players: unknown "2"/],
      [['--levels', 'gentle,expert'], /--levels: unknown "expert"/],
      [['--refs', 'adult'], /--refs: unknown "adult"/],
      [['--games', '5'], /at least 10/],
      [['--fast'], /unknown flag --fast/],
    ] as const)
      assert.throws(
        () => parseLadderArgs(argv),
        (e: unknown) => e instanceof UsageError && message.test(e.message),
        argv.join(' '),
      );
  });

  it('gives a loss rate as a multiple of a fair share, with its interval by table', () => {
    // 4 players, 10 tables of 10 games: the reference lost 2 or 3 games at each.
    const tables = Array.from({ length: 10 }, (_, t) => Array.from({ length: 10 }, (_, g) => g < (t % 2 === 0 ? 2 : 3)));
    const r = lossRate(tables, 4);
    assert.equal(r.games, 100);
    assert.equal(r.tables, 10);
    assert.ok(Math.abs(r.value - 1.0) < 1e-9, `${r.value}`);
    // Shares 0.2 and 0.3 alternate: standard deviation 0.0527, error 0.0167, ×4 players.
    assert.ok(Math.abs(r.se - 4 * Math.sqrt((0.0025 * (10 / 9)) / 10)) < 1e-9, `${r.se}`);
    assert.ok(r.low < 1 && r.high > 1 && Math.abs(r.high - r.value - 1.96 * r.se) < 1e-9);
    const d = drift(r, { ...r, value: 1.05 });
    assert.ok(Math.abs(d.value - 0.05) < 1e-9 && d.low < 0.05 && d.high > 0.05);
  });

  it('checks a rate by its whole interval and a drift by its estimate', () => {
    const normal = targetFor('normal', 'casual', 4)!;
    const rate = (value: number, half: number) => ({ value, low: value - half, high: value + half, se: half / 1.96, games: 1, tables: 1 });
    assert.ok(rateMeets(normal, rate(1, 0.1)));
    assert.ok(!rateMeets(normal, rate(1.1, 0.1)), 'an estimate inside whose interval is not');
    assert.ok(driftMeets(normal, { value: 0.09 }) && !driftMeets(normal, { value: -0.11 }));
    assert.ok(rateMeets(targetFor('gentle', 'child', 6)!, rate(0.5, 0.05)));
    assert.ok(!rateMeets(targetFor('sharp', 'wary', 4)!, rate(1.2, 0.1)));
    assert.equal(targetFor('sharp', 'wary', 6), undefined, 'the wary adult has a target at 4 players only');
    assert.equal(targetFor('gentle', 'random', 4), undefined);
  });

  it('plays a sitting the same way for the same seed, the same bots throughout', () => {
    const a = playSitting('casual', 'normal', 4, 3, 'ladder-test');
    assert.deepEqual(playSitting('casual', 'normal', 4, 3, 'ladder-test'), a);
    assert.equal(a.lost.length, 3);
    assert.equal(a.reasons.length, a.lost.filter(Boolean).length);
    assert.notDeepEqual(playSitting('casual', 'normal', 4, 3, 'ladder-test/2').actions, a.actions);
  });

  it('reference players decide from their own view: the cards they cannot see change nothing', () => {
    let decisions = 0;
    for (const ref of REFERENCE_PLAYERS) {
      for (let g = 0; g < 4; g++) {
        const started = Match.start(`ref/${ref}/${g}`, ['p0', 'p1', 'p2', 'p3'], DEFAULT_OPTIONS);
        assert.ok(started.ok);
        const { match } = started;
        const rng = seedRng(`ref/${ref}/${g}/dice`);
        while (match.game.phase === 'playing') {
          const player = activePlayer(match.game)!;
          const dice: RngState = [...rng];
          const action = REFERENCE_MOVES[ref](viewFor(match.game, player), player, rng);
          const twin = reshuffleHidden(match.game, player, `${match.game.step}`);
          assert.deepEqual(REFERENCE_MOVES[ref](viewFor(twin, player), player, dice), action);
          const result = match.act(player, action);
          assert.ok(result.ok, `${ref} played a refused move`);
          decisions++;
        }
      }
    }
    assert.ok(decisions > 200);
  });

  it('runs end to end and prints its table, seeds and decision times', () => {
    const lines: string[] = [];
    const { log, error } = console;
    console.log = console.error = (...args: unknown[]) => void lines.push(args.join(' '));
    let code: number;
    let usage: number;
    try {
      code = main(['--games', '20', '--players', '4', '--levels', 'gentle', '--refs', 'random']);
      usage = main(['--players', '9']);
    } finally {
      Object.assign(console, { log, error });
    }
    const text = lines.join('\n');
    assert.equal(code, 0, text);
    assert.match(text, /seeds: game 1 "ladder\/<players>/);
    assert.match(text, /^4 +gentle +random +\d\.\d\d \[/m);
    assert.match(text, /gentle +\d+\.\d µs over \d+ decisions/);
    assert.equal(usage, 2);
    assert.match(lines[lines.length - 1], /^usage: --players: unknown "9"/);
  });
});

/** The same game with the kinds of every card `viewer` cannot see dealt out differently. */
function reshuffleHidden(game: Game, viewer: PlayerId, seed: string): Game {
  const twin = structuredClone(game);
  const hidden = game.order.filter((p) => p !== viewer).flatMap((p) => game.hands[p]);
  if (game.round.card !== null && !game.round.seen.includes(viewer)) hidden.push(game.round.card);
  const kinds = shuffle(
    seedRng(seed),
    hidden.map((id) => twin.kinds[id]),
  );
  hidden.forEach((id, i) => (twin.kinds[id] = kinds[i]));
  return twin;
}
