import assert from 'node:assert/strict';
import { KINDS, setupGame } from '../../server/rules';
import { assertAccounted, LETTERS, opts } from './helpers';

const DEAL: Record<number, number[]> = {
  2: [27, 27],
  3: [22, 21, 21],
  4: [16, 16, 16, 16],
  5: [13, 13, 13, 13, 12],
  6: [11, 11, 11, 11, 10, 10],
};

function setup(seed: string, n: number) {
  const r = setupGame(seed, LETTERS.slice(0, n), opts());
  assert.ok(r.ok);
  return r.game;
}

describe('rules: setup and deal (section 4)', () => {
  for (const n of [2, 3, 4, 5, 6]) {
    it(`deals ${DEAL[n].join(', ')} in seat order to ${n} players, the first seat (first starter) getting the most`, () => {
      for (let s = 0; s < 20; s++) {
        const game = setup(`deal-${n}-${s}`, n);
        assert.deepEqual(
          game.order.map((p) => game.hands[p].length),
          DEAL[n],
        );
        assert.equal(game.round.starter, game.order[0]);
        assert.equal(game.round.no, 1);
        assert.equal(game.round.card, null);
        for (const p of game.order) assert.deepEqual(game.fronts[p], []);
        assertAccounted(game);
      }
    });
  }

  it('removes 10 cards unseen with 2 players (27 + 27 + 10 = 64) and none with 3-6', () => {
    for (const n of [2, 3, 4, 5, 6]) {
      const game = setup(`removed-${n}`, n);
      assert.equal(game.removed.length, n === 2 ? 10 : 0);
      assertAccounted(game);
    }
  });

  it('seats players and picks the first starter with the seeded RNG', () => {
    const firsts = new Set<string>();
    for (let s = 0; s < 60; s++) {
      const game = setup(`seat-${s}`, 4);
      assert.deepEqual([...game.order].sort(), ['A', 'B', 'C', 'D']);
      firsts.add(game.order[0]);
      assert.deepEqual(setup(`seat-${s}`, 4), game, 'same seed, same game');
    }
    assert.equal(firsts.size, 4, 'every player can be first');
  });

  it('refuses 0, 1 or 7 players and duplicate ids with BAD_PLAYERS', () => {
    for (const players of [[], ['A'], [...LETTERS, 'G'], ['A', 'A'], ['A', 'B', 'C', 'B']]) {
      const r = setupGame('x', players, opts());
      assert.equal(r.ok, false);
      if (!r.ok) assert.equal(r.error.code, 'BAD_PLAYERS');
    }
  });

  it('keeps card ids opaque: the kind of id k is not a function of k', () => {
    const kindsPerId = Array.from({ length: 64 }, () => new Set<string>());
    for (let s = 0; s < 200; s++) {
      const game = setup(`opaque-${s}`, 3);
      game.kinds.forEach((k, id) => kindsPerId[id].add(k));
    }
    for (const [id, kinds] of kindsPerId.entries()) assert.ok(kinds.size >= 6, `id ${id} took only ${[...kinds]}`);
    const one = setup('opaque-0', 3);
    assert.ok(
      one.kinds.some((k, id) => k !== KINDS[id >> 3]),
      'not kind = id >> 3',
    );
  });

  it('defaults loseCount to 5 with 2 players and 4 with 3-6', () => {
    for (const n of [2, 3, 4, 5, 6]) assert.equal(setup('lc', n).options.loseCount, n === 2 ? 5 : 4);
  });

  it('keeps a given loseCount for any player count', () => {
    for (const n of [2, 3, 4, 5, 6]) {
      for (const loseCount of [3, 4, 5] as const) {
        const r = setupGame('lc', LETTERS.slice(0, n), opts({ loseCount }));
        assert.ok(r.ok);
        assert.equal(r.game.options.loseCount, loseCount);
      }
    }
  });
});
