import assert from 'node:assert/strict';
import { activePlayer, applyTimeout, Game, Kind, KINDS, legalActions, timeoutAction } from '../../server/rules';
import { assertAccounted, countKind, emptyHand, handCardNot, play, putInFront, putInHand, refuse, seatedGame } from './helpers';

/**
 * Lands a card of `kind` in C's front through a misjudged call: the starter offers it to C with
 * a lie and C calls "true"; if C is the starter, C offers it truthfully to D, who calls "true".
 */
function landOnC(game: Game, kind: Kind) {
  const starter = game.round.starter;
  const card = putInHand(game, starter, kind);
  if (starter === 'C') {
    play(game, 'C', { type: 'offer', cardId: card, to: 'D', claim: kind });
    play(game, 'D', { type: 'call', call: 'true' });
  } else {
    play(game, starter, { type: 'offer', cardId: card, to: 'C', claim: kind === 'bat' ? 'fly' : 'bat' });
    play(game, 'C', { type: 'call', call: 'true' });
  }
  assert.equal(game.fronts.C[game.fronts.C.length - 1], card);
  return card;
}

function assertEnded(game: Game, loser: string, reason: string) {
  assert.equal(game.phase, 'ended');
  assert.equal(game.loser, loser);
  assert.equal(game.lossReason, reason);
  assert.equal(activePlayer(game), null);
  for (const p of game.order) assert.deepEqual(legalActions(game, p), []);
  assert.equal(timeoutAction(game), null);
  assert.equal(applyTimeout(game), null);
  refuse(game, loser, { type: 'offer', cardId: game.hands[loser][0] ?? 0, to: 'A', claim: 'rat' }, 'GAME_OVER');
  assertAccounted(game);
}

describe('rules: losing (section 6, RULINGS loss checks)', () => {
  it('ends the game at once when a front reaches loseCount of one kind (reason four)', () => {
    const game = seatedGame(4);
    putInFront(game, 'C', 'rat', 3);
    landOnC(game, 'rat');
    assert.equal(countKind(game, game.fronts.C, 'rat'), 4);
    assertEnded(game, 'C', 'four');
  });

  it('does not end on four cards of different kinds in one front', () => {
    const game = seatedGame(4);
    putInFront(game, 'C', 'rat');
    putInFront(game, 'C', 'bat');
    putInFront(game, 'C', 'fly');
    landOnC(game, 'toad');
    assert.equal(game.fronts.C.length, 4);
    assert.equal(game.phase, 'playing');
  });

  it('does not end on four of a kind spread over several fronts, nor on 3 of each of several kinds', () => {
    const game = seatedGame(4);
    putInFront(game, 'B', 'rat', 2);
    putInFront(game, 'D', 'rat', 1);
    putInFront(game, 'C', 'bat', 3);
    putInFront(game, 'C', 'fly', 3);
    putInFront(game, 'C', 'toad', 2);
    landOnC(game, 'rat');
    landOnC(game, 'toad');
    assert.equal(game.phase, 'playing');
    assert.equal(countKind(game, [...game.fronts.B, ...game.fronts.C, ...game.fronts.D], 'rat'), 4);
  });

  it('uses the given loseCount: 3 ends at 3 of a kind', () => {
    const game = seatedGame(5, { loseCount: 3 });
    putInFront(game, 'C', 'spider', 2);
    landOnC(game, 'spider');
    assertEnded(game, 'C', 'four');
  });

  it('uses the given loseCount: 5 goes on at 4 of a kind with 4 players', () => {
    const game = seatedGame(4, { loseCount: 5 });
    putInFront(game, 'C', 'spider', 3);
    landOnC(game, 'spider');
    assert.equal(game.phase, 'playing');
    landOnC(game, 'spider');
    assertEnded(game, 'C', 'four');
  });

  it('ends with emptyHand when the next starter (the taker) has no card left', () => {
    const game = seatedGame(4);
    emptyHand(game, 'C', 'D');
    landOnC(game, 'stinkbug');
    assertEnded(game, 'C', 'emptyHand');
  });

  it("ends with emptyHand when a correct call lands the starter's last card back on them", () => {
    const game = seatedGame(3);
    const rat = putInHand(game, 'A', 'rat');
    game.hands.B.push(...game.hands.A.filter((id) => id !== rat));
    game.hands.A = [rat];
    assertAccounted(game);
    play(game, 'A', { type: 'offer', cardId: rat, to: 'B', claim: 'rat' });
    play(game, 'B', { type: 'call', call: 'true' });
    assertEnded(game, 'A', 'emptyHand');
  });

  it('reports four, not emptyHand, when a landing completes loseCount and empties the taker', () => {
    const game = seatedGame(4);
    putInFront(game, 'C', 'rat', 3);
    emptyHand(game, 'C', 'D');
    landOnC(game, 'rat');
    assertEnded(game, 'C', 'four');
  });

  it('eightKindsRule: a front holding all 8 kinds loses with reason eightKinds', () => {
    const game = seatedGame(4, { eightKindsRule: true });
    for (const k of KINDS) if (k !== 'rat') putInFront(game, 'C', k);
    landOnC(game, 'rat');
    assertEnded(game, 'C', 'eightKinds');
  });

  it('without eightKindsRule, all 8 kinds in a front do not lose', () => {
    const game = seatedGame(4);
    for (const k of KINDS) if (k !== 'rat') putInFront(game, 'C', k);
    landOnC(game, 'rat');
    assert.equal(game.phase, 'playing');
  });

  it('eightKindsRule: when one landing makes both loseCount and 8 kinds true, the reason is four', () => {
    // Only a constructed state can get here: the landing kind must be new for "8 kinds" and
    // already present for "loseCount". Start from a front already holding all 8 kinds.
    const game = seatedGame(4, { eightKindsRule: true });
    for (const k of KINDS) putInFront(game, 'C', k);
    putInFront(game, 'C', 'rat', 2);
    landOnC(game, 'rat');
    assertEnded(game, 'C', 'four');
  });

  it('eightKindsRule: seven kinds do not lose, and the check looks only at the taker', () => {
    const game = seatedGame(4, { eightKindsRule: true });
    for (const k of KINDS) if (k !== 'rat' && k !== 'bat') putInFront(game, 'C', k);
    landOnC(game, 'rat');
    assert.equal(game.phase, 'playing');
    const other = handCardNot(game, 'C', 'bat');
    play(game, 'C', { type: 'offer', cardId: other, to: 'B', claim: game.kinds[other] });
    play(game, 'B', { type: 'call', call: 'false' });
    assert.equal(game.phase, 'playing', 'B took one card: not a loss');
  });
});
