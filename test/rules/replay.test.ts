import assert from 'node:assert/strict';
import { Match, randomLegalAction, replayGame, RngState, seedRng } from '../../server/rules';
import { LETTERS, opts } from './helpers';

/** Plays up to `steps` moves: bot moves from `bot`, every third one a timeout default. */
function advance(match: Match, bot: RngState, steps: number) {
  for (let i = 0; i < steps && match.game.phase === 'playing'; i++) {
    const player = match.game.round.card === null ? match.game.round.starter : match.game.round.holder!;
    if (i % 3 === 2) {
      assert.ok(match.actByDefault()?.ok);
    } else {
      const action = randomLegalAction(match.game, player, bot);
      assert.ok(action && match.act(player, action).ok);
    }
  }
}

function started(seed: string, n: number) {
  const r = Match.start(seed, LETTERS.slice(0, n), opts({ eightKindsRule: n % 2 === 0 }));
  assert.ok(r.ok);
  return r.match;
}

describe('rules: replay and saved matches (RULINGS "Randomness")', () => {
  it('replays seed + options + players + log, auto entries included, to the identical game', () => {
    for (const n of [2, 3, 4, 5, 6]) {
      const match = started(`replay-${n}`, n);
      advance(match, seedRng(`bot-${n}`), 2000);
      assert.equal(match.game.phase, 'ended');
      assert.ok(match.record.log.some((e) => e.auto) && match.record.log.some((e) => !e.auto));
      assert.equal(JSON.stringify(replayGame(match.record)), JSON.stringify(match.game));
      assert.equal(JSON.stringify(replayGame(JSON.parse(JSON.stringify(match.record)))), JSON.stringify(match.game));
    }
  });

  it('replays a game cut mid-round to the same state, PRNG included', () => {
    const match = started('mid-round', 4);
    advance(match, seedRng('bot'), 23);
    assert.equal(match.game.phase, 'playing');
    assert.deepEqual(replayGame(match.record), match.game);
  });

  it('refuses a log whose auto entry differs from what the PRNG draws', () => {
    const match = started('tamper', 3);
    assert.ok(match.actByDefault()?.ok);
    const record = structuredClone(match.record);
    const entry = record.log[0];
    assert.equal(entry.action.type, 'offer');
    if (entry.action.type === 'offer') entry.action.claim = entry.action.claim === 'rat' ? 'bat' : 'rat';
    assert.throws(() => replayGame(record), /default action 0 differs/);
  });

  it('refuses a log holding an action the rules refuse', () => {
    const match = started('bad-log', 3);
    const record = structuredClone(match.record);
    record.log.push({ player: match.game.order[1], action: { type: 'peek' } });
    assert.throws(() => replayGame(record), /action 0 refused \(NOT_YOUR_TURN\)/);
  });

  it('continues identically after Match.fromJSON(JSON.stringify(match))', () => {
    for (const n of [2, 4, 6]) {
      const match = started(`save-${n}`, n);
      const bot = seedRng(`save-bot-${n}`);
      advance(match, bot, 30);
      const restored = Match.fromJSON(JSON.stringify(match));
      const botCopy: RngState = [...bot];
      assert.equal(JSON.stringify(restored), JSON.stringify(match));
      advance(match, bot, 2000);
      advance(restored, botCopy, 2000);
      assert.equal(match.game.phase, 'ended');
      assert.equal(JSON.stringify(restored), JSON.stringify(match));
      assert.equal(JSON.stringify(replayGame(restored.record)), JSON.stringify(restored.game));
    }
  });

  it('restores from every point of a game (any PRNG state)', () => {
    const match = started('every-point', 5);
    const bot = seedRng('every-point-bot');
    while (match.game.phase === 'playing') {
      const restored = Match.fromJSON(JSON.stringify(match));
      assert.deepEqual(restored.game, match.game);
      advance(match, bot, 1);
    }
  });

  it('refuses to restore something that is not a saved match', () => {
    const match = started('not-a-match', 3);
    const json = JSON.parse(JSON.stringify(match));
    for (const bad of [
      '{}',
      'null',
      JSON.stringify({ ...json, game: { ...json.game, v: 2 } }),
      JSON.stringify({ ...json, game: { ...json.game, rng: [1, 2, 3] } }),
      JSON.stringify({ game: json.game }),
    ]) {
      assert.throws(() => Match.fromJSON(bad), /not a saved match/);
    }
  });

  it('logs a clean copy of each applied action, without stray keys', () => {
    const match = started('copy', 3);
    const player = match.game.order[0];
    const action = {
      type: 'offer' as const,
      cardId: match.game.hands[player][0],
      to: match.game.order[1],
      claim: 'rat' as const,
      extra: 'x',
    };
    assert.ok(match.act(player, action).ok);
    action.claim = 'bat' as never;
    assert.deepEqual(match.record.log, [{ player, action: { type: 'offer', cardId: action.cardId, to: action.to, claim: 'rat' } }]);
  });

  it('gives a different game for a different seed', () => {
    assert.notDeepEqual(started('one', 4).game.kinds, started('two', 4).game.kinds);
  });
});
