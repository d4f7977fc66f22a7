import assert from 'node:assert/strict';
import { viewFor } from '../../server/rules';
import type { CockroachRoom } from '../../server/room/CockroachRoom';
import { assertChangesAllowed, assertDecodedMatchesView } from './decodedView';
import { create, joinById, TestServer, Tracked } from './server';

/** A started room: seated players in join order, one spectator, the server-side room. */
export interface Table {
  players: Tracked[];
  spectator: Tracked;
  room: CockroachRoom;
  byId(id: string): Tracked;
}

/** The table shapes a client bot is played at: two players with the pass-back, three, six. */
export const BOT_TABLES = [
  [2, { twoPlayerPass: true }],
  [3, {}],
  [6, {}],
] as const;

export async function openTable(ts: TestServer, count: number, options: Record<string, unknown> = {}): Promise<Table> {
  const host = await create(ts, { nickname: '민수', ...options }, 'p0');
  const players = [host];
  for (let i = 1; i < count; i++) players.push(await joinById(ts, host.room.roomId, { nickname: `친구${i}` }, `p${i}`));
  const spectator = await joinById(ts, host.room.roomId, { spectator: true }, 'spectator');
  await host.until(() => host.state.players.size === count, `${count} seated`);
  const room = ts.serverRoom(host.room.roomId);
  return { players, spectator, room, byId: (id) => players.find((p) => p.id === id)! };
}

export async function startTable(table: Table): Promise<void> {
  const host = table.players[0];
  host.room.send('start', {});
  await host.until(() => host.state.phase === 'playing', 'the game to start');
  await syncAndCheck(table);
}

/**
 * Waits until every client has decoded the server's current step, then checks each one against
 * the rules' view for that client: the full decoded state, and every change decoded since the
 * last check.
 */
export async function syncAndCheck(table: Table, clients: Tracked[] = [...table.players, table.spectator]): Promise<void> {
  const game = table.room.table.match!.game;
  await Promise.all(clients.map((c) => c.until(() => c.state.step === game.step && c.state.phase === game.phase, `step ${game.step}`)));
  for (const c of clients) {
    const me = c === table.spectator ? null : c.id;
    const view = viewFor(game, me);
    for (const changes of c.changes.splice(0)) assertChangesAllowed(c.state, changes, view, me, c.label, c.phaseOf.get(changes));
    assertDecodedMatchesView(c.state, view, c.label);
  }
}

export function assertNoErrors(table: Table): void {
  for (const c of [...table.players, table.spectator]) assert.deepEqual(c.messagesOf('error'), [], `${c.label} got errors`);
}
