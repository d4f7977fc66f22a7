// Checks that hold after every action of any game; the property tests run them over random games.
import assert from 'node:assert/strict';
import { DECK_SIZE, Game, KINDS, LossReason, PlayerId } from '../../server/rules';

/** Every id 0..63 sits in exactly one of: a hand, a front, the removed pile, the air. */
export function assertCardsAccounted(game: Game): void {
  const seen = new Uint8Array(DECK_SIZE);
  let total = 0;
  const mark = (id: number) => {
    if (!(Number.isInteger(id) && id >= 0 && id < DECK_SIZE && seen[id] === 0)) assert.fail(`card ${id} twice or bad`);
    seen[id] = 1;
    total++;
  };
  for (const p of game.order) {
    game.hands[p].forEach(mark);
    game.fronts[p].forEach(mark);
  }
  game.removed.forEach(mark);
  if (game.round.card !== null) mark(game.round.card);
  assert.equal(total, DECK_SIZE);
  assert.equal(game.removed.length, game.order.length === 2 ? 10 : 0);
}

/** Which loss conditions `player` meets right now, in the order RULINGS checks them. */
export function lossConditions(game: Game, player: PlayerId): LossReason[] {
  const counts = new Map<string, number>();
  for (const id of game.fronts[player]) counts.set(game.kinds[id], (counts.get(game.kinds[id]) ?? 0) + 1);
  const reasons: LossReason[] = [];
  if ([...counts.values()].some((c) => c >= game.options.loseCount)) reasons.push('four');
  if (game.options.eightKindsRule && KINDS.every((k) => counts.has(k))) reasons.push('eightKinds');
  if (game.round.card === null && game.round.starter === player && game.hands[player].length === 0) reasons.push('emptyHand');
  return reasons;
}

/** While playing nobody meets a loss condition; once ended the loser meets the reported one first, nobody else any. */
export function assertLossState(game: Game): void {
  if (game.phase === 'playing') {
    assert.equal(game.loser, null);
    assert.equal(game.lossReason, null);
    for (const p of game.order) {
      const met = lossConditions(game, p);
      if (met.length) assert.fail(`${p} meets ${met} during play`);
    }
    return;
  }
  assert.ok(game.loser !== null && game.lossReason !== null);
  assert.equal(lossConditions(game, game.loser)[0], game.lossReason, 'the reported reason is the first one met');
  for (const p of game.order) {
    const met = lossConditions(game, p);
    if (p !== game.loser && met.length) assert.fail(`${p} also meets ${met}`);
  }
}

/** The round's bookkeeping agrees with itself. */
export function assertRoundShape(game: Game): void {
  const r = game.round;
  if (game.phase === 'ended') return;
  assert.ok(game.order.includes(r.starter));
  if (r.card === null) {
    const idle = r.holder === null && r.lastPasser === null && r.claim === null && !r.seen.length && !r.claims.length && !r.peeked;
    if (!idle) assert.fail(`no card in flight but a round in progress: ${JSON.stringify(r)}`);
    return;
  }
  assert.ok(r.holder !== null && game.order.includes(r.holder) && r.holder !== r.lastPasser);
  assert.equal(r.seen[0], r.starter);
  assert.equal(new Set(r.seen).size, r.seen.length, 'nobody in seen twice');
  // The holder has seen the card iff they peeked, or it came back to the starter (twoPlayerPass).
  assert.equal(r.seen.includes(r.holder), r.peeked || r.holder === r.starter);
  if (r.holder === r.starter) assert.ok(game.order.length === 2 && game.options.twoPlayerPass, 'the card came back');
  const last = r.claims[r.claims.length - 1];
  if (last.from !== r.lastPasser || last.to !== r.holder || last.claim !== r.claim)
    assert.fail('the latest claim is not the last in claims');
  assert.equal(r.claims[0].from, r.starter);
}
