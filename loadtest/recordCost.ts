/**
 * What a game's end and start cost in hashing: seeded six-player games played through `Match`,
 * then for each the work the table does with SHA-256 — a commitment and the seed derivation at
 * the start, the record (canonical JSON and its id) at the end — with the pure SHA-256 the SDK
 * ships and with node:crypto's (what the server installs, server/index.ts). Same digests both ways.
 *
 *   npx tsx loadtest/recordCost.ts [--games 300] [--rounds 5]
 */
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { buildRecord, canonicalJson, deriveSeed, sha256Hex, useSha256 } from '../server/fairness';
import { newCommitment } from '../server/fairness/commitment';
import { activePlayer, Match, randomLegalAction, seedRng, validateOptions } from '../server/rules';
import { parseArgsOrExit } from './lib/args';

const FLAGS = {
  games: { kind: 'int', default: 300, min: 1 },
  rounds: { kind: 'int', default: 5, min: 1, help: 'timed passes over all games, alternating pure and node:crypto' },
} as const;

const nodeSha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

function playedGames(count: number) {
  const options = validateOptions({});
  if (!options.ok) throw new Error('options');
  const ids = ['p0', 'p1', 'p2', 'p3', 'p4', 'p5'];
  return Array.from({ length: count }, (_, i) => {
    const started = Match.start(`record-cost/${i}`, ids, options.options);
    if (!started.ok) throw new Error('setup');
    const { match } = started;
    const rng = seedRng(`record-cost/${i}/bots`);
    while (match.game.phase === 'playing') {
      const player = activePlayer(match.game)!;
      match.act(player, randomLegalAction(match.game, player, rng)!);
    }
    return match;
  });
}

function main() {
  const args = parseArgsOrExit(process.argv.slice(2), FLAGS);
  const matches = playedGames(args.games);
  const entropy = Object.fromEntries(['p0', 'p1', 'p2', 'p3', 'p4', 'p5'].map((id) => [id, 'e'.repeat(32)]));
  const nicknames = Object.fromEntries(Object.keys(entropy).map((id) => [id, `닉네임${id}`]));
  let bytes = 0;
  const pass = () => {
    const t = { start: 0, end: 0, json: 0 };
    for (const match of matches) {
      const t0 = performance.now();
      const secret = newCommitment();
      deriveSeed(secret.serverSeed, entropy);
      const t1 = performance.now();
      const record = buildRecord({ startedAt: 0, endedAt: 1, match, nicknames, bots: [], fairness: { ...secret, entropy } })!;
      const t2 = performance.now();
      const text = canonicalJson({ ...record, gameId: undefined, result: undefined });
      const t3 = performance.now();
      bytes += text.length;
      t.start += t1 - t0;
      t.end += t2 - t1;
      t.json += t3 - t2;
    }
    return t;
  };
  const check = matches.slice(0, 20).map((m) => canonicalJson(m.record));
  for (const text of check) if (sha256Hex(text) !== nodeSha256(text)) throw new Error('digests differ');
  const sums = { pure: { start: 0, end: 0, json: 0 }, node: { start: 0, end: 0, json: 0 } };
  pass(); // warm-up
  for (let r = 0; r < args.rounds; r++) {
    for (const kind of r % 2 ? (['node', 'pure'] as const) : (['pure', 'node'] as const)) {
      useSha256(kind === 'node' ? nodeSha256 : null);
      const t = pass();
      sums[kind].start += t.start;
      sums[kind].end += t.end;
      sums[kind].json += t.json;
    }
  }
  useSha256(null);
  const n = args.games * args.rounds;
  const us = (ms: number) => +((ms * 1000) / n).toFixed(1);
  const actions = matches.reduce((s, m) => s + m.game.step, 0) / matches.length;
  console.log(
    JSON.stringify({
      games: args.games,
      actionsPerGame: +actions.toFixed(1),
      recordChars: Math.round(bytes / ((2 * args.rounds + 1) * args.games)),
      pureSha256: {
        gameStartUs: us(sums.pure.start),
        gameEndUs: us(sums.pure.end),
        perActionUs: +((us(sums.pure.start) + us(sums.pure.end)) / actions).toFixed(2),
      },
      nodeCrypto: {
        gameStartUs: us(sums.node.start),
        gameEndUs: us(sums.node.end),
        perActionUs: +((us(sums.node.start) + us(sums.node.end)) / actions).toFixed(2),
      },
      canonicalJsonUs: us((sums.pure.json + sums.node.json) / 2),
    }),
  );
}

main();
