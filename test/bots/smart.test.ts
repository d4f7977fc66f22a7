// The smart level's judgement in arranged positions: each test sets up what a player would see
// and checks the move a careful player would make.
import assert from 'node:assert/strict';
import { Game, Kind, KINDS, viewFor } from '../../server/rules';
import { createBot } from '../../server/bots';
import { play, putInFront, putInHand, seatedGame } from '../rules/helpers';

const SEEDS = Array.from({ length: 12 }, (_, i) => `judge/${i}`);

describe('bots: smart plays what it knows', () => {
  it('calls right on a card it has seen (two-player pass-back)', () => {
    for (const seed of SEEDS) {
      for (const backClaim of ['bat', 'fly'] as const) {
        const game = seatedGame(2, { twoPlayerPass: true });
        const bat = putInHand(game, 'A', 'bat');
        play(game, 'A', { type: 'offer', cardId: bat, to: 'B', claim: 'toad' });
        play(game, 'B', { type: 'peek' });
        play(game, 'B', { type: 'pass', to: 'A', claim: backClaim });
        const action = createBot('smart', seed).decide(viewFor(game, 'A'));
        assert.deepEqual(action, { type: 'call', call: backClaim === 'bat' ? 'true' : 'false' });
      }
    }
  });

  it('calls "false" when every card of the claimed kind is accounted for', () => {
    for (const seed of SEEDS) {
      for (const [n, inHand] of [
        [4, 5],
        [3, 7],
        [2, 8],
      ] as const) {
        const game = seatedGame(n);
        // B holds some rats and the rest lie face up in A's front: the card A offers is no rat.
        gather(game, 'rat', inHand);
        const card = game.hands.A.find((c) => game.kinds[c] !== 'rat')!;
        play(game, 'A', { type: 'offer', cardId: card, to: 'B', claim: 'rat' });
        assert.deepEqual(createBot('smart', seed).decide(viewFor(game, 'B')), { type: 'call', call: 'false' });
      }
    }
  });

  it('calls "true" when every card it cannot place is of the claimed kind', () => {
    for (const seed of SEEDS) {
      const game = seatedGame(3);
      // A and C hold only rats; every other card is in B's hand. A bluffer could not lie here.
      const rats = game.kinds.flatMap((k, id) => (k === 'rat' ? [id] : []));
      const rest = game.kinds.flatMap((k, id) => (k === 'rat' ? [] : [id]));
      game.hands = { A: rats.slice(0, 2), B: [...rats.slice(5), ...rest], C: rats.slice(2, 5) };
      play(game, 'A', { type: 'offer', cardId: rats[0], to: 'B', claim: 'rat' });
      assert.deepEqual(createBot('smart', seed).decide(viewFor(game, 'B')), { type: 'call', call: 'true' });
    }
  });

  it('hands the card that would finish a pile to the player one card from losing', () => {
    for (const seed of SEEDS) {
      const game = seatedGame(4);
      putInFront(game, 'C', 'spider', 3);
      putInHand(game, 'A', 'spider');
      putInFront(game, 'B', 'toad', 1);
      const action = createBot('smart', seed).decide(viewFor(game, 'A'));
      assert.equal(action.type, 'offer');
      if (action.type !== 'offer') return;
      assert.equal(game.kinds[action.cardId], 'spider', `offered a ${game.kinds[action.cardId]}`);
      assert.equal(action.to, 'C');
      assert.ok(KINDS.includes(action.claim));
    }
  });
});

/** Puts `inHand` of the eight cards of `kind` in B's hand and the rest in A's front. */
function gather(game: Game, kind: Kind, inHand: number) {
  const ids = game.kinds.flatMap((k, id) => (k === kind ? [id] : []));
  const out = new Set(ids);
  for (const p of game.order) {
    game.hands[p] = game.hands[p].filter((c) => !out.has(c));
    game.fronts[p] = game.fronts[p].filter((c) => !out.has(c));
  }
  game.removed = game.removed.filter((c) => !out.has(c));
  game.hands.B.push(...ids.slice(0, inHand));
  game.fronts.A.push(...ids.slice(inHand));
}
