/**
 * How long guessing a live room's code takes (issue 22, docs/operations.md "Room codes and
 * guessing"). `npx tsx test/http/guessFigures.ts [--seconds 10]`:
 * 1. measures what one address is allowed: `npm start`'s server at its defaults in a child
 *    process, a guesser on 127.0.0.2 sending `joinById` with random 6-digit codes as fast as it
 *    is answered, for a few seconds: how many were looked up (404 ROOM_NOT_FOUND) before every
 *    further one was refused (429 TOO_MANY_GUESSES), and whether a child on 127.0.0.1 still
 *    joins a room by its id meanwhile;
 * 2. prints the arithmetic: with R live rooms among 10^6 codes, about 10^6/R guesses find one,
 *    at the measured allowance per hour.
 * One JSON object on stdout.
 */
import { randomInt } from 'node:crypto';
import { Client } from 'colyseus.js';
import { startServerProcess } from '../../loadtest/lib/serverProcess';
import { DEFAULT_EDGE } from '../../server/base/config';
import { ROOM_NAME } from '../../server/protocol';
import { request } from './support';
import { tempDir } from '../support/tempDirs';

const CODE_SPACE = 1_000_000;
const LIVE_ROOMS = [1_000, 2_000, 10_000, 50_000];
/** About how long a game lasts (docs/rules.md: a few minutes of turns of 15-60 s). */
const GAME_MINUTES = 15;

async function main() {
  const seconds = Number(process.argv[process.argv.indexOf('--seconds') + 1]) || 10;
  const server = await startServerProcess({
    RATE_LIMITS: '',
    WRONG_CODES_PER_HOUR: '',
    ADDRESS_WRONG_CODES_PER_HOUR: '',
    LOG_LEVEL: 'warn',
    DATA_DIR: tempDir('cockroach-guess-'),
  });
  try {
    const host = await new Client(server.endpoint).create(ROOM_NAME, { nickname: '방장', private: true });
    host.onMessage('*', () => undefined);
    const answers = new Map<string, number>();
    const until = Date.now() + seconds * 1000;
    let sent = 0;
    while (Date.now() < until) {
      const code = String(randomInt(0, CODE_SPACE)).padStart(6, '0');
      const reply = await request(
        server.port,
        'POST',
        `/matchmake/joinById/${code}`,
        JSON.stringify({ nickname: '추측' }),
        {},
        '127.0.0.2',
      );
      const key = reply.json?.room ? 'joined' : String(reply.json?.code ?? reply.status);
      answers.set(key, (answers.get(key) ?? 0) + 1);
      sent++;
    }
    // Past its allowance the guesser cannot join even with the right id; a child elsewhere can.
    const attackerRight = await request(
      server.port,
      'POST',
      `/matchmake/joinById/${host.roomId}`,
      JSON.stringify({ nickname: '추측' }),
      {},
      '127.0.0.2',
    );
    const friend = await new Client(server.endpoint).joinById(host.roomId, { nickname: '친구' });
    friend.onMessage('*', () => undefined);
    await friend.leave();
    await host.leave();
    const perHour = answers.get('ROOM_NOT_FOUND') ?? 0; // the window is an hour: what one address got is its hourly allowance
    console.log(
      JSON.stringify({
        codeSpace: CODE_SPACE,
        defaults: {
          wrongCodesPerHourPerIdentity: DEFAULT_EDGE.wrongCodesPerHour,
          wrongCodesPerHourPerAddress: DEFAULT_EDGE.addressWrongCodesPerHour,
        },
        measured: {
          seconds,
          requests: sent,
          answers: Object.fromEntries(answers),
          guesserWithTheRightIdAfterwards: attackerRight.json?.code ?? (attackerRight.json?.room ? 'joined' : attackerRight.status),
          childOnAnotherAddressJoined: true,
        },
        guessesPerHourPerAddress: perHour,
        toFindAnyLiveRoom: LIVE_ROOMS.map((rooms) => {
          const guesses = CODE_SPACE / rooms;
          const hours = guesses / perHour;
          return {
            liveRooms: rooms,
            guesses: Math.round(guesses),
            hours: +hours.toFixed(2),
            games: +((hours * 60) / GAME_MINUTES).toFixed(1),
          };
        }),
        toFindOneChosenRoom: { guesses: CODE_SPACE, years: +(CODE_SPACE / perHour / 24 / 365).toFixed(0) },
      }),
    );
  } finally {
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
