// Property tests: thousands of seeded random games for every player count and a mix of options,
// bot moves mixed with timeout defaults, with the invariants checked after every action.
import assert from 'node:assert/strict';
import {
  Action,
  activePlayer,
  applyAction,
  checkAction,
  Game,
  GameOptions,
  legalActions,
  LossReason,
  Match,
  randInt,
  randomLegalAction,
  replayGame,
  RngState,
  seedRng,
} from '../../server/rules';
import { Candidate, isListed, randomCandidate } from './candidates';
import { LETTERS, opts } from './helpers';
import { assertCardsAccounted, assertLossState, assertRoundShape } from './invariants';
import { assertViewSafe } from './view-checks';

const GAMES_PER_COUNT = 300;
/** Candidates are tried every CANDIDATES_EVERY-th step, views every VIEWS_EVERY-th (cheap checks: every step). */
const CANDIDATES_EVERY = 8;
const VIEWS_EVERY = 12;
const CANDIDATES_PER_SAMPLE = 3;

const MIXES: Partial<GameOptions>[] = [
  {},
  { eightKindsRule: true },
  { twoPlayerPass: true },
  { loseCount: 3 },
  { loseCount: 4, claimHistory: false },
  { loseCount: 5, eightKindsRule: true },
  { loseCount: 3, twoPlayerPass: true, eightKindsRule: true, claimHistory: false },
  { loseCount: 5, twoPlayerPass: true, claimHistory: false },
];

/** Runs named checks, keeping the first failure of each and counting how often each ran. */
class Properties {
  readonly runs = new Map<string, number>();
  readonly failures = new Map<string, string>();
  check(name: string, where: string, fn: () => void): void {
    this.runs.set(name, (this.runs.get(name) ?? 0) + 1);
    if (this.failures.has(name)) return;
    try {
      fn();
    } catch (e) {
      this.failures.set(name, `${where}: ${(e as Error).message}`);
    }
  }
}

const P = {
  accounted: 'all 64 card ids are accounted for exactly once after every action',
  ends: 'every game ends within the bound of (hand cards) x (2 x players + 1) actions',
  loss: 'nobody meets a loss condition during play; the loser meets the reported one, nobody else any',
  shape: 'the round bookkeeping (holder, seen, claims, peeked) stays consistent',
  moves: 'random legal moves and timeout defaults are always accepted and listed in legalActions',
  candidates: 'random candidate actions are refused iff not in legalActions, and a refusal changes nothing',
  replay: 'replayGame(match.record) reproduces the final game exactly',
  views: 'viewFor every player and a spectator holds nothing they may not know',
  defaults: 'timeout defaults follow 8.5: offer to the next seat, call, or pass to the first unseen seat with the true kind',
};

/** What rules 8.5 allow as the default move in `before` (the game just before it was applied). */
function assertDefaultMove(before: Game, player: string, action: Action) {
  const r = before.round;
  if (r.card === null) {
    assert.equal(player, r.starter);
    assert.ok(action.type === 'offer' && before.hands[player].includes(action.cardId));
    assert.equal(action.to, before.order[(before.order.indexOf(player) + 1) % before.order.length]);
  } else if (!r.peeked) {
    assert.equal(action.type, 'call');
  } else {
    const unseen = before.order.filter((p) => p !== r.holder && (before.order.length === 2 || !r.seen.includes(p)));
    assert.deepEqual(action, { type: 'pass', to: unseen[0], claim: before.kinds[r.card] });
  }
}

/**
 * Tries random candidates (and one listed action) on clones of the game. Every candidate that is
 * not listed goes to one shared clone, which must come out byte-identical; a listed one goes to a
 * fresh clone and must be accepted.
 */
function checkCandidates(props: Properties, match: Match, rng: RngState, where: string) {
  const game = match.game;
  const candidates = Array.from({ length: CANDIDATES_PER_SAMPLE }, () => randomCandidate(game, rng));
  const active = activePlayer(game)!;
  const listedNow = legalActions(game, active);
  candidates.push({ player: active, action: listedNow[randInt(rng, listedNow.length)] });
  props.check(P.candidates, where, () => {
    const before = JSON.stringify(game);
    const refusedOn = structuredClone(game);
    for (const { player, action } of candidates) {
      const listed = isListed(legalActions(game, player), action);
      const target = listed ? structuredClone(game) : refusedOn;
      const result = applyAction(target, player, action as Action);
      assert.equal(result.ok, listed, `${player} ${JSON.stringify(action)}: ${result.ok ? 'accepted' : result.error.code}`);
      assert.equal(checkAction(game, player, action as Action) === null, listed);
    }
    if (JSON.stringify(refusedOn) !== before) assert.fail(`a refusal changed the game: ${culprit(game, candidates)}`);
  });
}

/** Only on failure: which refused candidate changes a fresh clone. */
function culprit(game: Game, candidates: Candidate[]): string {
  const before = JSON.stringify(game);
  const bad = candidates.find(({ player, action }) => {
    const clone = structuredClone(game);
    return !applyAction(clone, player, action as Action).ok && JSON.stringify(clone) !== before;
  });
  return JSON.stringify(bad);
}

interface Tally {
  reasons: Map<LossReason, number>;
  /** Applied actions by type, and how many were timeout defaults. */
  moves: Map<string, number>;
}
const bump = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1);

function playOne(props: Properties, n: number, g: number, tally: Tally) {
  const seed = `prop-${n}-${g}`;
  const started = Match.start(seed, LETTERS.slice(0, n), opts(MIXES[g % MIXES.length]));
  assert.ok(started.ok);
  const match = started.match;
  const game = match.game;
  const bot = seedRng(`bot/${seed}`);
  const handCards = game.order.reduce((sum, p) => sum + game.hands[p].length, 0);
  const bound = handCards * (2 * n + 1);
  const viewers = [...game.order, null];

  while (game.phase === 'playing' && game.step <= bound) {
    const where = `${seed} step ${game.step}`;
    const sampled = game.step % CANDIDATES_EVERY === 0;
    if (sampled) checkCandidates(props, match, bot, where);
    if (game.step % VIEWS_EVERY === 0) props.check(P.views, where, () => viewers.forEach((v) => assertViewSafe(game, v)));
    const player = activePlayer(game)!;
    props.check(P.moves, where, () => {
      if (randInt(bot, 5) === 0) {
        const before = {
          round: structuredClone(game.round),
          order: game.order,
          hands: { [player]: [...game.hands[player]] },
          kinds: game.kinds,
        } as Game;
        const auto = match.actByDefault();
        assert.ok(auto?.ok, 'timeout default refused');
        props.check(P.defaults, where, () => assertDefaultMove(before, auto.player, auto.action));
      } else {
        const action = randomLegalAction(game, player, bot);
        assert.ok(action, 'no random legal action');
        if (sampled) assert.ok(isListed(legalActions(game, player), action), 'not in legalActions');
        const result = match.act(player, action);
        assert.ok(result.ok, `refused ${result.ok || result.error.code}`);
      }
    });
    if (props.failures.has(P.moves)) return;
    props.check(P.accounted, where, () => assertCardsAccounted(game));
    props.check(P.loss, where, () => assertLossState(game));
    props.check(P.shape, where, () => assertRoundShape(game));
  }
  props.check(P.ends, seed, () => {
    assert.equal(game.phase, 'ended');
    assert.ok(game.step <= bound, `${game.step} actions`);
    assert.equal(game.step, match.record.log.length);
  });
  props.check(P.replay, seed, () => assert.equal(JSON.stringify(replayGame(match.record)), JSON.stringify(game)));
  props.check(P.views, `${seed} ended`, () => viewers.forEach((v) => assertViewSafe(game, v)));
  bump(tally.reasons, game.lossReason!);
  for (const entry of match.record.log) bump(tally.moves, entry.auto ? `auto ${entry.action.type}` : entry.action.type);
}

for (const n of [2, 3, 4, 5, 6]) {
  describe(`rules: ${GAMES_PER_COUNT} random ${n}-player games (options mixed, timeouts mixed in)`, () => {
    const props = new Properties();
    const tally: Tally = { reasons: new Map(), moves: new Map() };
    before(() => {
      for (let g = 0; g < GAMES_PER_COUNT; g++) playOne(props, n, g, tally);
    });

    for (const name of Object.values(P)) {
      it(name, () => {
        assert.equal(props.failures.get(name), undefined);
        assert.ok((props.runs.get(name) ?? 0) >= GAMES_PER_COUNT, `checked only ${props.runs.get(name)} times`);
      });
    }

    it('ends games by every loss reason: four, eightKinds (when on) and emptyHand', () => {
      assert.equal(
        [...tally.reasons.values()].reduce((a, b) => a + b, 0),
        GAMES_PER_COUNT,
      );
      for (const reason of ['four', 'eightKinds', 'emptyHand'] as const)
        assert.ok(tally.reasons.get(reason), `no ${reason} in ${[...tally.reasons]}`);
    });

    it('exercises every move, by bots and by timeout defaults (peek and pass with 2 players only under twoPlayerPass)', () => {
      for (const type of ['offer', 'call', 'peek', 'pass', 'auto offer', 'auto call', 'auto pass']) {
        assert.ok(tally.moves.get(type), `no ${type} in ${[...tally.moves]}`);
      }
    });
  });
}
