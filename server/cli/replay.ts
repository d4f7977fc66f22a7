/**
 * npm run replay -- GAME_ID   Replays a stored game from the configured database (DATABASE_URL,
 * else DATABASE_FILE / DATA_DIR, as the server) and prints the result the rules give, then
 * whether the record verifies. Exit 0 when it does, 1 when it does not or the game is unknown,
 * 2 on a usage or database error.
 */
import { deriveSeed } from '../fairness/derive';
import { verifyRecord } from '../fairness/verify';
import { fullResult, replayGame } from '../rules';
import { describeStore, storeConfigFromEnv } from '../store/config';
import { isGameId } from '../store/gameId';
import { openConfiguredStore } from '../store/open';

async function main(argv: string[]): Promise<number> {
  const gameId = argv[0];
  if (argv.length !== 1 || !isGameId(gameId)) {
    process.stderr.write("usage: npm run replay -- GAME_ID   (64 hex characters, the result's gameId)\n");
    return 2;
  }
  const config = storeConfigFromEnv(process.env);
  const store = await openConfiguredStore(config);
  try {
    const record = await store.get(gameId);
    if (!record) {
      process.stdout.write(`no game ${gameId} in ${describeStore(config)}\n`);
      return 1;
    }
    const check = verifyRecord(record);
    try {
      const ids = record.players.map((p) => p.id);
      const game = replayGame({
        seed: deriveSeed(record.fairness.serverSeed, record.fairness.entropy),
        options: record.options,
        players: ids,
        log: record.log,
      });
      const nicknames = Object.fromEntries(record.players.map((p) => [p.id, p.nickname]));
      const result = fullResult(game, record.log, nicknames, record.gameId);
      process.stdout.write(
        `${JSON.stringify({ gameId, startedAt: record.startedAt, endedAt: record.endedAt, actions: record.log.length, result }, null, 2)}\n`,
      );
    } catch (error) {
      process.stdout.write(`replay failed: ${(error as Error).message}\n`);
    }
    process.stdout.write(check.ok ? 'ok\n' : `mismatch: ${check.mismatch}: ${check.detail}\n`);
    return check.ok ? 0 : 1;
  } finally {
    await store.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error) => {
    process.stderr.write(`replay: ${(error as Error).message}\n`);
    process.exitCode = 2;
  },
);
