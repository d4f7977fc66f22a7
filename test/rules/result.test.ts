import assert from 'node:assert/strict';
import { Game, gameResult, Kind, KINDS } from '../../server/rules';
import { emptyHand, play, putInFront, putInHand, seatedGame } from './helpers';

/** A (the starter) offers a card of `kind` to C with a lie; C calls "true" and takes it. */
function landOnC(game: Game, kind: Kind) {
  const card = putInHand(game, 'A', kind);
  play(game, 'A', { type: 'offer', cardId: card, to: 'C', claim: kind === 'bat' ? 'fly' : 'bat' });
  play(game, 'C', { type: 'call', call: 'true' });
}

const sorted = (groups: string[][]) => groups.map((g) => [...g].sort());

describe('rules: result, ranking and score (6, 8.6)', () => {
  it('has no result while the game is played', () => {
    assert.equal(gameResult(seatedGame(3)), null);
  });

  it('ranks by fewest of the largest same-kind pile, then fewest face-up cards; equals share a group; loser last', () => {
    const game = seatedGame(6);
    putInFront(game, 'A', 'rat');
    putInFront(game, 'A', 'bat'); // max 1, total 2
    putInFront(game, 'B', 'rat', 2); // max 2, total 2
    putInFront(game, 'D', 'fly');
    putInFront(game, 'D', 'toad'); // max 1, total 2: ties with A
    // E: nothing face up, ranks first
    putInFront(game, 'F', 'fly');
    putInFront(game, 'F', 'bat');
    putInFront(game, 'F', 'toad'); // max 1, total 3
    putInFront(game, 'C', 'rat', 3);
    landOnC(game, 'rat');
    const result = gameResult(game);
    assert.ok(result);
    assert.deepEqual(sorted(result.ranking), [['E'], ['A', 'D'], ['F'], ['B'], ['C']]);
    assert.equal(result.loser, 'C');
    assert.equal(result.reason, 'four');
    assert.equal(result.losingKind, 'rat');
    assert.deepEqual(result.scores, { A: 1, B: 1, C: 0, D: 1, E: 1, F: 1 });
    assert.deepEqual(result.fronts.C, { ...Object.fromEntries(KINDS.map((k) => [k, 0])), rat: 4 });
    assert.deepEqual(result.fronts.B, { ...Object.fromEntries(KINDS.map((k) => [k, 0])), rat: 2 });
  });

  it('puts every winner in one shared group when all fronts tie, and the loser alone last', () => {
    const game = seatedGame(4);
    putInFront(game, 'C', 'rat', 3);
    landOnC(game, 'rat');
    const result = gameResult(game);
    assert.ok(result);
    assert.deepEqual(sorted(result.ranking), [['A', 'B', 'D'], ['C']]);
  });

  it('writes the four summary with nicknames: "민수님 앞에 쥐 4장! 민수님 패배, 나머지 모두 승리"', () => {
    const game = seatedGame(4);
    putInFront(game, 'C', 'rat', 3);
    landOnC(game, 'rat');
    assert.equal(gameResult(game, { A: '지우', C: '민수' })?.summary, '민수님 앞에 쥐 4장! 민수님 패배, 나머지 모두 승리');
    assert.equal(gameResult(game)?.summary, 'C님 앞에 쥐 4장! C님 패배, 나머지 모두 승리', 'falls back to the id');
  });

  it('counts the losing kind with loseCount 3', () => {
    const game = seatedGame(3, { loseCount: 3 });
    putInFront(game, 'C', 'spider', 2);
    landOnC(game, 'spider');
    assert.equal(gameResult(game, { C: '하늘' })?.summary, '하늘님 앞에 거미 3장! 하늘님 패배, 나머지 모두 승리');
  });

  it('writes the eightKinds summary, without a losing kind', () => {
    const game = seatedGame(4, { eightKindsRule: true });
    for (const k of KINDS) if (k !== 'toad') putInFront(game, 'C', k);
    landOnC(game, 'toad');
    const result = gameResult(game, { C: '민수' });
    assert.equal(result?.reason, 'eightKinds');
    assert.equal(result?.summary, '민수님 앞에 벌레 8종이 모두 모였어요! 민수님 패배, 나머지 모두 승리');
    assert.ok(result && !('losingKind' in result));
  });

  it('writes the emptyHand summary, without a losing kind', () => {
    const game = seatedGame(4);
    emptyHand(game, 'C', 'B');
    landOnC(game, 'fly');
    const result = gameResult(game, { C: '민수' });
    assert.equal(result?.reason, 'emptyHand');
    assert.equal(result?.summary, '민수님 손에 건넬 카드가 하나도 없어요! 민수님 패배, 나머지 모두 승리');
    assert.ok(result && !('losingKind' in result));
    assert.deepEqual(result.ranking[result.ranking.length - 1], ['C']);
  });
});
