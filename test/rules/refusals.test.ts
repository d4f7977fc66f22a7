import assert from 'node:assert/strict';
import {
  Action,
  applyAction,
  Game,
  KIND_NAMES_KO,
  KINDS,
  Match,
  RULE_MESSAGES,
  RuleError,
  RuleErrorCode,
  setupGame,
  validateOptions,
} from '../../server/rules';
import { HANGUL, opts, play, putInFront, putInHand, refuse, seatedGame, seatedMatch } from './helpers';

/** A: starter of a fresh 4-player game. */
const fresh = () => seatedGame(4);
/** B holds the card A offered. */
function offered(game = fresh()): Game {
  play(game, 'A', { type: 'offer', cardId: game.hands.A[0], to: 'B', claim: 'rat' });
  return game;
}
/** B peeked the card A offered. */
function peeked(): Game {
  const game = offered();
  play(game, 'B', { type: 'peek' });
  return game;
}
function ended(): Game {
  const game = fresh();
  putInFront(game, 'B', 'rat', 3);
  play(game, 'A', { type: 'offer', cardId: putInHand(game, 'A', 'rat'), to: 'B', claim: 'rat' });
  play(game, 'B', { type: 'call', call: 'false' });
  assert.equal(game.phase, 'ended');
  return game;
}

type Case = [string, () => void];

/** One or more cases per refusal code; each action case also checks that the game is untouched. */
const ACTION_CASES: Record<Exclude<RuleErrorCode, 'BAD_OPTIONS' | 'UNKNOWN_OPTION' | 'BAD_OPTION' | 'BAD_PLAYERS'>, Case[]> = {
  GAME_OVER: [
    [
      'any action once the game ended, even from a stranger',
      () => {
        const game = ended();
        refuse(game, game.round.starter, { type: 'offer', cardId: game.hands[game.round.starter][0], to: 'A', claim: 'rat' }, 'GAME_OVER');
        refuse(game, 'Z', { type: 'peek' }, 'GAME_OVER');
      },
    ],
  ],
  NOT_A_PLAYER: [
    [
      'an action from someone not seated',
      () => {
        refuse(fresh(), 'Z', { type: 'offer', cardId: 0, to: 'B', claim: 'rat' }, 'NOT_A_PLAYER');
        refuse(fresh(), '', { type: 'peek' }, 'NOT_A_PLAYER');
      },
    ],
  ],
  UNKNOWN_ACTION: [
    [
      'an action of no known type (checked before the turn)',
      () => {
        for (const action of [{ type: 'dance' }, {}, null, undefined, 'peek', 7, { type: 'OFFER' }])
          refuse(fresh(), 'B', action, 'UNKNOWN_ACTION');
        refuse(fresh(), 'A', { type: 'toString' }, 'UNKNOWN_ACTION');
      },
    ],
  ],
  NOT_YOUR_TURN: [
    [
      'a seated player acting out of turn',
      () => {
        refuse(fresh(), 'B', { type: 'offer', cardId: 0, to: 'C', claim: 'rat' }, 'NOT_YOUR_TURN');
        refuse(offered(), 'A', { type: 'call', call: 'true' }, 'NOT_YOUR_TURN');
        refuse(offered(), 'C', { type: 'peek' }, 'NOT_YOUR_TURN');
      },
    ],
  ],
  MUST_OFFER: [
    [
      'the starter calling, peeking or passing with no card in flight',
      () => {
        refuse(fresh(), 'A', { type: 'call', call: 'true' }, 'MUST_OFFER');
        refuse(fresh(), 'A', { type: 'peek' }, 'MUST_OFFER');
        refuse(fresh(), 'A', { type: 'pass', to: 'B', claim: 'rat' }, 'MUST_OFFER');
      },
    ],
  ],
  CARD_IN_FLIGHT: [
    [
      'the holder offering a card',
      () => {
        const game = offered();
        refuse(game, 'B', { type: 'offer', cardId: game.hands.B[0], to: 'C', claim: 'rat' }, 'CARD_IN_FLIGHT');
      },
    ],
  ],
  CARD_NOT_IN_HAND: [
    [
      "offering a card not in the starter's hand (someone else's, out of range, not an integer)",
      () => {
        const game = fresh();
        for (const cardId of [game.hands.B[0], -1, 64, 1.5, NaN, String(game.hands.A[0]), null, undefined]) {
          refuse(game, 'A', { type: 'offer', cardId, to: 'B', claim: 'rat' }, 'CARD_NOT_IN_HAND');
        }
      },
    ],
  ],
  UNKNOWN_PLAYER: [
    [
      'offering or passing to someone not seated',
      () => {
        const game = fresh();
        for (const to of ['Z', '', undefined, 1, null])
          refuse(game, 'A', { type: 'offer', cardId: game.hands.A[0], to, claim: 'rat' }, 'UNKNOWN_PLAYER');
        refuse(peeked(), 'B', { type: 'pass', to: 'Z', claim: 'rat' }, 'UNKNOWN_PLAYER');
      },
    ],
  ],
  CANNOT_TARGET_SELF: [
    [
      'offering or passing to oneself',
      () => {
        const game = fresh();
        refuse(game, 'A', { type: 'offer', cardId: game.hands.A[0], to: 'A', claim: 'rat' }, 'CANNOT_TARGET_SELF');
        refuse(peeked(), 'B', { type: 'pass', to: 'B', claim: 'rat' }, 'CANNOT_TARGET_SELF');
      },
    ],
  ],
  INVALID_CLAIM: [
    [
      'claiming something that is not one of the 8 kinds',
      () => {
        const game = fresh();
        for (const claim of ['dragon', 'Rat', '쥐', '', undefined, 3])
          refuse(game, 'A', { type: 'offer', cardId: game.hands.A[0], to: 'B', claim }, 'INVALID_CLAIM');
        refuse(peeked(), 'B', { type: 'pass', to: 'C', claim: 'ant' }, 'INVALID_CLAIM');
      },
    ],
  ],
  INVALID_CALL: [
    [
      'a call that is neither "true" nor "false"',
      () => {
        for (const call of [true, false, 'yes', 'TRUE', undefined, 1]) refuse(offered(), 'B', { type: 'call', call }, 'INVALID_CALL');
      },
    ],
  ],
  ALREADY_PEEKED: [
    [
      'calling or peeking again after a peek',
      () => {
        refuse(peeked(), 'B', { type: 'call', call: 'false' }, 'ALREADY_PEEKED');
        refuse(peeked(), 'B', { type: 'peek' }, 'ALREADY_PEEKED');
      },
    ],
  ],
  ALREADY_SEEN: [
    [
      'peeking at a card handed back under twoPlayerPass',
      () => {
        const game = seatedGame(2, { twoPlayerPass: true });
        play(game, 'A', { type: 'offer', cardId: game.hands.A[0], to: 'B', claim: 'rat' });
        play(game, 'B', { type: 'peek' });
        play(game, 'B', { type: 'pass', to: 'A', claim: 'bat' });
        refuse(game, 'A', { type: 'peek' }, 'ALREADY_SEEN');
      },
    ],
  ],
  TWO_PLAYER_NO_PEEK: [
    [
      'peeking in a two-player game',
      () => {
        const game = seatedGame(2);
        play(game, 'A', { type: 'offer', cardId: game.hands.A[0], to: 'B', claim: 'rat' });
        refuse(game, 'B', { type: 'peek' }, 'TWO_PLAYER_NO_PEEK');
      },
    ],
  ],
  NO_PASS_TARGET: [
    [
      'peeking when everyone else has seen the card',
      () => {
        const game = seatedGame(3);
        play(game, 'A', { type: 'offer', cardId: game.hands.A[0], to: 'B', claim: 'rat' });
        play(game, 'B', { type: 'peek' });
        play(game, 'B', { type: 'pass', to: 'C', claim: 'rat' });
        refuse(game, 'C', { type: 'peek' }, 'NO_PASS_TARGET');
      },
    ],
  ],
  MUST_PEEK_FIRST: [
    [
      'passing without peeking',
      () => {
        refuse(offered(), 'B', { type: 'pass', to: 'C', claim: 'rat' }, 'MUST_PEEK_FIRST');
      },
    ],
  ],
  TARGET_ALREADY_SEEN: [
    [
      'passing to someone who has seen the card',
      () => {
        refuse(peeked(), 'B', { type: 'pass', to: 'A', claim: 'rat' }, 'TARGET_ALREADY_SEEN');
      },
    ],
  ],
};

function setupError(code: RuleErrorCode, error: RuleError | null) {
  assert.ok(error);
  assert.equal(error.code, code);
  assert.equal(error.message, RULE_MESSAGES[code]);
}
const optionError = (raw: unknown) => {
  const r = validateOptions(raw);
  return r.ok ? null : r.error;
};
const playersError = (players: string[]) => {
  const r = setupGame('x', players, opts());
  return r.ok ? null : r.error;
};

const SETUP_CASES: Record<'BAD_OPTIONS' | 'UNKNOWN_OPTION' | 'BAD_OPTION' | 'BAD_PLAYERS', Case[]> = {
  BAD_OPTIONS: [['options that are not a plain object', () => setupError('BAD_OPTIONS', optionError([]))]],
  UNKNOWN_OPTION: [['an option key nobody defined', () => setupError('UNKNOWN_OPTION', optionError({ cheat: true }))]],
  BAD_OPTION: [['an option value outside its choices', () => setupError('BAD_OPTION', optionError({ turnSeconds: 5 }))]],
  BAD_PLAYERS: [
    [
      'a player list that is too short, too long or has duplicates',
      () => {
        setupError('BAD_PLAYERS', playersError(['A']));
        const r = Match.start('x', ['A', 'B', 'C', 'D', 'E', 'F', 'G'], opts());
        setupError('BAD_PLAYERS', r.ok ? null : r.error);
      },
    ],
  ],
};

describe('rules: every refusal code (8.2) leaves the game untouched', () => {
  for (const [code, cases] of Object.entries({ ...ACTION_CASES, ...SETUP_CASES })) {
    for (const [name, run] of cases) it(`${code}: ${name}`, run);
  }

  it('has a case for every code the rules can give', () => {
    assert.deepEqual(Object.keys({ ...ACTION_CASES, ...SETUP_CASES }).sort(), Object.keys(RULE_MESSAGES).sort());
  });

  it('keeps the PRNG untouched and logs nothing when Match.act refuses', () => {
    const match = seatedMatch(4);
    const before = JSON.stringify(match);
    const r = match.act('B', { type: 'peek' });
    assert.equal(r.ok, false);
    assert.equal(JSON.stringify(match), before);
    assert.deepEqual(match.record.log, []);
  });

  it('checks in a fixed order: game over, player, action type, turn, phase of the round, card, target, claim', () => {
    const game = fresh();
    const foreign = game.hands.B[0];
    refuse(game, 'Z', { type: 'bogus' }, 'NOT_A_PLAYER');
    refuse(game, 'B', { type: 'bogus' }, 'UNKNOWN_ACTION');
    refuse(game, 'B', { type: 'call', call: 'maybe' }, 'NOT_YOUR_TURN');
    refuse(game, 'A', { type: 'call', call: 'maybe' }, 'MUST_OFFER');
    refuse(game, 'A', { type: 'offer', cardId: foreign, to: 'A', claim: 'x' }, 'CARD_NOT_IN_HAND');
    refuse(game, 'A', { type: 'offer', cardId: game.hands.A[0], to: 'A', claim: 'x' }, 'CANNOT_TARGET_SELF');
    refuse(game, 'A', { type: 'offer', cardId: game.hands.A[0], to: 'B', claim: 'x' }, 'INVALID_CLAIM');
    const held = peeked();
    refuse(held, 'B', { type: 'call', call: 'maybe' }, 'ALREADY_PEEKED');
    refuse(held, 'B', { type: 'pass', to: 'A', claim: 'x' }, 'TARGET_ALREADY_SEEN');
    refuse(offered(), 'B', { type: 'pass', to: 'B', claim: 'x' }, 'MUST_PEEK_FIRST');
  });

  it('words every message in Korean, with no kind key or kind name in it', () => {
    for (const [code, message] of Object.entries(RULE_MESSAGES)) {
      assert.match(message, HANGUL, code);
      for (const kind of KINDS) assert.ok(!message.toLowerCase().includes(kind), `${code} names ${kind}`);
      for (const name of Object.values(KIND_NAMES_KO)) assert.ok(!message.includes(name), `${code} names ${name}`);
    }
  });

  it('gives an action refusal as exactly { code, message }: no card id or hidden value rides along', () => {
    const game = offered();
    const hidden = game.round.card!;
    for (const [player, action] of [
      ['C', { type: 'offer', cardId: hidden, to: 'A', claim: game.kinds[hidden] }],
      ['B', { type: 'pass', to: 'A', claim: game.kinds[hidden] }],
      ['A', { type: 'offer', cardId: hidden, to: 'B', claim: 'rat' }],
    ] as const) {
      const r = refusalOf(game, player, action);
      assert.ok(r);
      assert.deepEqual(Object.keys(r).sort(), ['code', 'message']);
      assert.equal(r.message, RULE_MESSAGES[r.code]);
    }
  });
});

function refusalOf(game: Game, player: string, action: unknown): RuleError | null {
  const r = applyAction(game, player, action as Action);
  return r.ok ? null : r.error;
}
