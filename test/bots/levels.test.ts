// The practice levels of issue 34 in arranged positions: each test sets up what a player would see
// and checks the move the level's description promises. (How often each level loses is a figure
// of `npm run bots:ladder`, not a test.)
import assert from 'node:assert/strict';
import { Game, Kind, KINDS, PlayerId, viewFor } from '../../server/rules';
import { BotLevel, createBot, isBotLevel } from '../../server/bots';
import { DEFAULT_BOT_LEVEL } from '../../server/protocol';
import { parseAddBot } from '../../server/commands/payloads';
import { assertAccounted, emptyHand, play, putInFront, seatedGame } from '../rules/helpers';

const SEEDS = Array.from({ length: 12 }, (_, i) => `levels/${i}`);

/** `player` holds exactly `n` cards of `kind`: extra ones go to `spill`'s hand, missing ones come from other hands. */
function hold(game: Game, player: PlayerId, kind: Kind, n: number, spill: PlayerId) {
  const mine = game.hands[player].filter((c) => game.kinds[c] === kind);
  for (const c of mine.slice(n)) {
    game.hands[player].splice(game.hands[player].indexOf(c), 1);
    game.hands[spill].push(c);
  }
  for (const p of game.order) {
    if (p === player) continue;
    for (const c of game.hands[p].filter((id) => game.kinds[id] === kind)) {
      if (game.hands[player].filter((id) => game.kinds[id] === kind).length >= n) return;
      game.hands[p].splice(game.hands[p].indexOf(c), 1);
      game.hands[player].push(c);
    }
  }
  assert.equal(game.hands[player].filter((id) => game.kinds[id] === kind).length, n, `${player} holds ${n} ${kind}`);
}

/** A offers B a card (not a rat unless asked) claiming `claim`; B's view. */
function offered(game: Game, claim: Kind, card = game.hands.A.find((c) => game.kinds[c] !== 'rat')!) {
  play(game, 'A', { type: 'offer', cardId: card, to: 'B', claim });
  assertAccounted(game);
  return viewFor(game, 'B');
}

function decide(level: BotLevel, seed: string, game: Game, player: PlayerId) {
  return createBot(level, seed).decide(viewFor(game, player));
}

describe('bots: the levels and their names', () => {
  it('seats gentle when addBot names no level; the older names stay accepted', () => {
    assert.equal(DEFAULT_BOT_LEVEL, 'gentle');
    assert.deepEqual(parseAddBot({}), { ok: true, value: { level: 'gentle' } });
    for (const level of ['gentle', 'normal', 'sharp', 'easy', 'smart']) {
      assert.ok(isBotLevel(level), level);
      assert.deepEqual(parseAddBot({ level }), { ok: true, value: { level } });
    }
    for (const level of ['Gentle', '', 'hard', 'constructor', '__proto__', 1, null]) {
      assert.equal(isBotLevel(level), false, String(level));
      assert.equal(parseAddBot({ level }).ok, false, String(level));
    }
  });
});

describe('bots: gentle plays to teach', () => {
  it('never offers to whoever is closest to losing while others have room, nor a kind they collect', () => {
    for (const seed of SEEDS) {
      const game = seatedGame(4);
      putInFront(game, 'C', 'spider', 3);
      putInFront(game, 'B', 'toad', 2);
      putInFront(game, 'D', 'bat', 1);
      const action = decide('gentle', seed, game, 'A');
      assert.equal(action.type, 'offer');
      if (action.type !== 'offer') return;
      assert.notEqual(action.to, 'C');
      assert.equal(
        game.fronts[action.to].filter((c) => game.kinds[c] === game.kinds[action.cardId]).length,
        0,
        'a kind they do not collect',
      );
    }
  });

  it('spreads its offers over everyone with room, not only the safest', () => {
    const to = new Set<PlayerId>();
    for (const seed of SEEDS) {
      const action = decide('gentle', seed, seatedGame(4), 'A');
      if (action.type === 'offer') to.add(action.to);
    }
    assert.deepEqual([...to].sort(), ['B', 'C', 'D']);
  });

  it('mostly tells the truth', () => {
    let truths = 0;
    const tries = 200;
    for (let i = 0; i < tries; i++) {
      const game = seatedGame(3);
      const action = decide('gentle', `truth/${i}`, game, 'A');
      if (action.type === 'offer' && game.kinds[action.cardId] === action.claim) truths++;
    }
    assert.ok(truths > tries * 0.7 && truths < tries * 0.9, `${truths} true claims of ${tries}`);
  });

  it('lets the claimer have the round: calls what it believes wrong, but a claim the count disproves false', () => {
    for (const seed of SEEDS) {
      // Early on a claim is probably true, so it calls "false" and takes the card itself.
      let game = seatedGame(4);
      assert.deepEqual(createBot('gentle', seed).decide(offered(game, 'bat')), { type: 'call', call: 'false' });
      // It holds six rats and one lies face up: one unaccounted for, so probably a lie; it calls "true".
      game = seatedGame(4);
      putInFront(game, 'D', 'rat', 1);
      hold(game, 'B', 'rat', 6, 'C');
      assert.deepEqual(createBot('gentle', seed).decide(offered(game, 'rat')), { type: 'call', call: 'true' });
      // Every rat accounted for: it says so.
      game = seatedGame(4);
      putInFront(game, 'D', 'rat', 2);
      hold(game, 'B', 'rat', 6, 'C');
      assert.deepEqual(createBot('gentle', seed).decide(offered(game, 'rat')), { type: 'call', call: 'false' });
    }
  });

  it('spares a claimer who would lose by taking the card back: it looks and passes it on', () => {
    for (const seed of SEEDS) {
      const game = seatedGame(4);
      const last = game.hands.A[0];
      game.hands.A = game.hands.A.slice(1);
      emptyHand(game, 'A', 'C');
      game.hands.A = [last];
      assertAccounted(game);
      play(game, 'A', { type: 'offer', cardId: last, to: 'B', claim: game.kinds[last] });
      const bot = createBot('gentle', seed);
      assert.deepEqual(bot.decide(viewFor(game, 'B')), { type: 'peek' });
      play(game, 'B', { type: 'peek' });
      const pass = bot.decide(viewFor(game, 'B'));
      assert.equal(pass.type, 'pass');
    }
  });
});

describe('bots: normal counts like an attentive grown-up', () => {
  it('believes with 5 or more unaccounted for, doubts with 2 or fewer, looks in between', () => {
    for (const seed of SEEDS) {
      for (const [held, faceUp, expected] of [
        [1, 0, { type: 'call', call: 'true' }],
        [3, 0, { type: 'call', call: 'true' }],
        [4, 0, { type: 'peek' }],
        [3, 2, { type: 'peek' }],
        [6, 0, { type: 'call', call: 'false' }],
        [3, 3, { type: 'call', call: 'false' }],
      ] as const) {
        const game = seatedGame(4);
        if (faceUp > 0) putInFront(game, 'D', 'rat', faceUp);
        hold(game, 'B', 'rat', held, 'C');
        assert.deepEqual(createBot('normal', seed).decide(offered(game, 'rat')), expected, `${held} held, ${faceUp} face up`);
      }
    }
  });

  it('looks when a wrong call would end its game', () => {
    for (const seed of SEEDS) {
      // Two rats unaccounted for would mean "false"; but three rats lie in its own front.
      const game = seatedGame(4);
      putInFront(game, 'B', 'rat', 3);
      hold(game, 'B', 'rat', 3, 'C');
      assert.deepEqual(createBot('normal', seed).decide(offered(game, 'rat')), { type: 'peek' });
    }
  });

  it('gives the round to a claimer nearer to losing than itself', () => {
    for (const seed of SEEDS) {
      // Its count says "true" (one rat held), but the claimer is one spider from losing.
      const game = seatedGame(4);
      putInFront(game, 'A', 'spider', 3);
      hold(game, 'B', 'rat', 1, 'C');
      assert.deepEqual(createBot('normal', seed).decide(offered(game, 'rat')), { type: 'call', call: 'false' });
    }
  });

  it('hands a player the kind they already collect', () => {
    for (const seed of SEEDS) {
      const game = seatedGame(4);
      putInFront(game, 'C', 'spider', 2);
      hold(game, 'A', 'spider', 1, 'D');
      const action = decide('normal', seed, game, 'A');
      assert.equal(action.type, 'offer');
      if (action.type !== 'offer') return;
      assert.equal(action.to, 'C');
      assert.equal(game.kinds[action.cardId], 'spider');
    }
  });
});

describe('bots: sharp plays what it reads', () => {
  it('calls right on a card it has seen (two-player pass-back)', () => {
    for (const seed of SEEDS) {
      for (const backClaim of ['bat', 'fly'] as const) {
        const game = seatedGame(2, { twoPlayerPass: true });
        const bat = game.hands.A.find((c) => game.kinds[c] === 'bat') ?? game.hands.A[0];
        play(game, 'A', { type: 'offer', cardId: bat, to: 'B', claim: 'toad' });
        play(game, 'B', { type: 'peek' });
        play(game, 'B', { type: 'pass', to: 'A', claim: backClaim });
        const call = game.kinds[bat] === backClaim ? 'true' : 'false';
        assert.deepEqual(decide('sharp', seed, game, 'A'), { type: 'call', call });
      }
    }
  });

  it('hands the card that would finish a pile to the player one card from losing', () => {
    for (const seed of SEEDS) {
      const game = seatedGame(4);
      putInFront(game, 'C', 'spider', 3);
      hold(game, 'A', 'spider', 1, 'D');
      const action = decide('sharp', seed, game, 'A');
      assert.equal(action.type, 'offer');
      if (action.type !== 'offer') return;
      assert.equal(game.kinds[action.cardId], 'spider');
      assert.equal(action.to, 'C');
      assert.ok(KINDS.includes(action.claim));
    }
  });

  it('never calls "true" on a claim the count disproves', () => {
    for (const seed of SEEDS) {
      const game = seatedGame(4);
      putInFront(game, 'D', 'rat', 2);
      hold(game, 'B', 'rat', 6, 'C');
      const action = createBot('sharp', seed).decide(offered(game, 'rat'));
      assert.notDeepEqual(action, { type: 'call', call: 'true' });
    }
  });
});
