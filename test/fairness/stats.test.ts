import assert from 'node:assert/strict';
import { fullResult, gameStats, highlights } from '../../server/rules';
import { putInFront, putInHand, seatedMatch } from '../rules/helpers';

function act(match: ReturnType<typeof seatedMatch>, player: string, action: Parameters<typeof match.act>[1]) {
  const r = match.act(player, action);
  assert.ok(r.ok, `${player} ${JSON.stringify(action)}: ${r.ok ? '' : r.error.code}`);
}

describe('rules: who bluffed (result.stats, result.highlights)', () => {
  it('counts claims, bluffs, calls, correct calls and peeks of a scripted game, defaults for the player whose turn it was', () => {
    const match = seatedMatch(3);
    const { game } = match;
    // 1. A tells the truth to B; B believes it: a correct call, A takes the card back.
    act(match, 'A', { type: 'offer', cardId: putInHand(game, 'A', 'rat'), to: 'B', claim: 'rat' });
    act(match, 'B', { type: 'call', call: 'true' });
    // 2. A bluffs to C; C peeks and passes truthfully to B; B wrongly calls it a lie.
    act(match, 'A', { type: 'offer', cardId: putInHand(game, 'A', 'bat'), to: 'C', claim: 'fly' });
    act(match, 'C', { type: 'peek' });
    act(match, 'C', { type: 'pass', to: 'B', claim: 'bat' });
    act(match, 'B', { type: 'call', call: 'false' });
    assert.equal(game.round.starter, 'B');
    // 3. B's turn runs out, then C's: both count for them.
    const offer = match.actByDefault()!;
    assert.equal(offer.player, 'B');
    const call = match.actByDefault()!;
    assert.equal(call.player, 'C');
    assert.ok(offer.action.type === 'offer' && call.action.type === 'call');
    const autoBluff = game.kinds[offer.action.cardId] !== offer.action.claim ? 1 : 0;
    const autoCorrect = (game.kinds[offer.action.cardId] === offer.action.claim) === (call.action.call === 'true') ? 1 : 0;

    assert.deepEqual(gameStats(match.record.log, game), {
      A: { claims: 2, bluffs: 1, calls: 0, correctCalls: 0, peeks: 0 },
      B: { claims: 1, bluffs: autoBluff, calls: 2, correctCalls: 1, peeks: 0 },
      C: { claims: 1, bluffs: 0, calls: 1, correctCalls: autoCorrect, peeks: 1 },
    });
  });

  it('writes Korean highlights with nicknames: most bluffs, the honest, best caller, most peeks', () => {
    const stats = {
      A: { claims: 5, bluffs: 4, calls: 1, correctCalls: 0, peeks: 0 },
      B: { claims: 3, bluffs: 0, calls: 4, correctCalls: 3, peeks: 2 },
      C: { claims: 2, bluffs: 1, calls: 2, correctCalls: 1, peeks: 0 },
    };
    assert.deepEqual(highlights(stats, { A: '지우', B: '민수', C: '하늘' }), [
      '지우님이 거짓말을 가장 많이 했어요 (4번)!',
      '민수님은 한 번도 거짓말을 하지 않았어요.',
      '민수님이 판정을 가장 많이 맞혔어요 (3번)!',
      '민수님이 카드를 가장 많이 몰래 봤어요 (2번).',
    ]);
  });

  it('names everyone who shares the lead, and says so when nobody lied', () => {
    const tied = {
      A: { claims: 2, bluffs: 2, calls: 1, correctCalls: 1, peeks: 0 },
      B: { claims: 2, bluffs: 2, calls: 1, correctCalls: 1, peeks: 0 },
    };
    assert.deepEqual(highlights(tied, { A: '지우', B: '민수' }), [
      '지우님과 민수님이 거짓말을 가장 많이 했어요 (2번)!',
      '지우님과 민수님이 판정을 가장 많이 맞혔어요 (1번)!',
    ]);
    const honest = {
      A: { claims: 1, bluffs: 0, calls: 0, correctCalls: 0, peeks: 0 },
      B: { claims: 0, bluffs: 0, calls: 1, correctCalls: 0, peeks: 0 },
    };
    assert.deepEqual(highlights(honest), ['아무도 거짓말을 하지 않았어요. 모두 정직했어요!']);
  });

  it('adds gameId, stats and highlights to the outcome in fullResult', () => {
    const match = seatedMatch(3);
    const { game } = match;
    putInFront(game, 'B', 'rat', 3);
    act(match, 'A', { type: 'offer', cardId: putInHand(game, 'A', 'rat'), to: 'B', claim: 'bat' });
    act(match, 'B', { type: 'call', call: 'true' });
    const result = fullResult(game, match.record.log, { A: '지우', B: '민수' }, 'id-1');
    assert.ok(result);
    assert.equal(result.loser, 'B');
    assert.equal(result.gameId, 'id-1');
    assert.deepEqual(result.stats.A, { claims: 1, bluffs: 1, calls: 0, correctCalls: 0, peeks: 0 });
    assert.deepEqual(result.stats.B, { claims: 0, bluffs: 0, calls: 1, correctCalls: 0, peeks: 0 });
    assert.equal(result.highlights[0], '지우님이 거짓말을 가장 많이 했어요 (1번)!');
    assert.equal(result.summary, '민수님 앞에 쥐 4장! 민수님 패배, 나머지 모두 승리');
    assert.equal(fullResult(seatedMatch(3).game, [], {}, 'x'), null);
  });
});
