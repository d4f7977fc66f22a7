// Plays whole games the way the table does: commit, collect entropy, derive the seed, start with
// the canonical player order, mix random legal moves with default actions, then build the record.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { newCommitment } from '../../server/fairness/commitment';
import { canonicalPlayers, deriveSeed } from '../../server/fairness/derive';
import { buildRecord, FinishedGameRecord } from '../../server/fairness/record';
import { activePlayer, DEFAULT_OPTIONS, GameOptions, Match, randomLegalAction, seedRng } from '../../server/rules';

export interface PlayedGame {
  match: Match;
  record: FinishedGameRecord;
}

const NAMES = ['지우', '민수', '하늘', '서연', '도윤', '하린'];

/** `n` players with random ids (join order is shuffled against id order); the last one a bot without entropy. */
export function playGame(n: number, opts: { botSeed?: string; options?: Partial<GameOptions>; autoEvery?: number } = {}): PlayedGame {
  const joined = Array.from({ length: n }, (_, i) => `${'QZHAMB'[i]}${randomBytes(4).toString('hex')}`);
  const bot = joined[n - 1];
  const entropy: Record<string, string> = {};
  for (const id of joined) entropy[id] = id === bot ? '' : randomBytes(16).toString('hex');
  const nicknames = Object.fromEntries(joined.map((id, i) => [id, NAMES[i]]));
  const { serverSeed, commitment } = newCommitment();

  const options = { ...DEFAULT_OPTIONS, ...opts.options };
  const started = Match.start(deriveSeed(serverSeed, entropy), canonicalPlayers(joined), options);
  assert.ok(started.ok);
  const match = started.match;
  const rng = seedRng(opts.botSeed ?? 'bot');
  const autoEvery = opts.autoEvery ?? 5;
  for (let i = 0; match.game.phase === 'playing'; i++) {
    assert.ok(i < 5000, 'the game ends');
    if (i % autoEvery === autoEvery - 1) {
      assert.ok(match.actByDefault()?.ok);
      continue;
    }
    const player = activePlayer(match.game)!;
    const action = randomLegalAction(match.game, player, rng)!;
    assert.ok(match.act(player, action).ok);
  }
  const record = buildRecord({
    startedAt: Date.UTC(2026, 0, 1, 12, 0, 0),
    endedAt: Date.UTC(2026, 0, 1, 12, 9, 30),
    match,
    nicknames,
    bots: [bot],
    fairness: { commitment, entropy, serverSeed },
  });
  assert.ok(record);
  return { match, record };
}

export function copy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value));
}
