// Games that end when the test says so, over real sockets: a host and a practice bot, watched by
// a spectator. When the host leaves, every human is away and the game plays out at once
// (PROTOCOL v2), so the spectator gets the `result` (and its gameId) within milliseconds.
import { Client } from 'colyseus.js';
import { CockroachState } from '../../server/schema/CockroachState';
import { Tracked } from '../support/server';

export const ROOM = 'cockroach-poker';

export interface RunningGame {
  host: Tracked;
  watcher: Tracked;
  /** Ends the game; resolves to the result's gameId. */
  end(): Promise<string>;
}

export async function startBotGame(endpoint: string, label: string): Promise<RunningGame> {
  const host = new Tracked(
    await new Client(endpoint).create<CockroachState>(ROOM, { nickname: label.slice(0, 12) }, CockroachState),
    label,
  );
  host.room.send('addBot', {});
  await host.until(() => host.state.players.size === 2, `${label}: bot seated`);
  host.room.send('start', {});
  await host.until(() => host.state.phase === 'playing', `${label}: playing`);
  const watcher = new Tracked(
    await new Client(endpoint).joinById<CockroachState>(host.room.roomId, { spectator: true }, CockroachState),
    `${label} watcher`,
  );
  return {
    host,
    watcher,
    end: async () => {
      await host.leave();
      await watcher.until(() => watcher.messagesOf('result').length === 1, `${label}: result`, 10000);
      return watcher.messagesOf('result')[0].gameId as string;
    },
  };
}

/** Ends each game; the gameIds in order. */
export async function endAll(games: RunningGame[]): Promise<string[]> {
  return Promise.all(games.map((g) => g.end()));
}

export async function fetchRecord(port: number, gameId: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`http://127.0.0.1:${port}/api/games/${gameId}`);
  return { status: res.status, body: await res.json() };
}
