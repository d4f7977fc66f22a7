import assert from 'node:assert/strict';
import { matchMaker } from 'colyseus';
import { Client } from 'colyseus.js';
import { DEFAULT_EDGE } from '../../server/base/config';
import { CockroachRoom } from '../../server/room/CockroachRoom';
import { CockroachState } from '../../server/schema/CockroachState';
import { Tracked } from '../support/server';
import { Reply, request, ROOM_NAME, useEdge } from './support';

/**
 * Issue 32 over real HTTP and sockets, with guest identities and the production limits: the
 * family on 127.0.0.1, the stranger on 127.0.0.2 (and a third address, 127.0.0.3). The table's
 * own rules are in test/table/family.test.ts; this is what a stranger's script meets.
 */
const FAMILY = '127.0.0.1';
const STRANGER = '127.0.0.2';
const ELSEWHERE = '127.0.0.3';

describe('http: a family’s table that a stranger cannot take (issue 32)', function () {
  this.timeout(60_000);
  const ts = useEdge({ ...DEFAULT_EDGE });
  const port = () => ts.server.port;
  afterEach(async () => {
    await Promise.all(matchMaker.disconnectAll());
  });

  async function guest(from: string): Promise<string> {
    const reply = await request(port(), 'POST', '/api/guest', '{}', {}, from);
    assert.equal(reply.status, 200, reply.body);
    return reply.json.token as string;
  }

  function matchmake(path: string, options: unknown, token: string | null, from: string): Promise<Reply> {
    const headers: Record<string, string> = token === null ? {} : { authorization: `Bearer ${token}` };
    return request(port(), 'POST', `/matchmake/${path}`, JSON.stringify(options), headers, from);
  }

  async function connect(reply: Reply, label: string): Promise<Tracked> {
    assert.equal(reply.status, 200, `${label}: ${reply.body}`);
    assert.ok(reply.json.sessionId, `${label}: ${reply.body}`);
    return new Tracked(await new Client(ts.endpoint).consumeSeatReservation(reply.json, CockroachState), label);
  }

  const create = async (token: string, options: Record<string, unknown>, label: string) =>
    connect(await matchmake(`create/${ROOM_NAME}`, options, token, FAMILY), label);
  const join = async (code: string, token: string | null, options: Record<string, unknown>, from: string, label: string) =>
    connect(await matchmake(`joinById/${code}`, options, token, from), label);

  it('a kick holds: every connection of the kicked identity closes at once, and five fresh guest identities, an anonymous player and another address get in 0 times until the host unlocks', async () => {
    const momToken = await guest(FAMILY);
    const mom = await create(momToken, { nickname: '엄마', private: true }, 'mom');
    const code = mom.room.roomId;
    const kidToken = await guest(FAMILY);
    const kid = await join(code, kidToken, { nickname: '아이' }, FAMILY, 'kid');
    const badToken = await guest(STRANGER);
    const bad = await join(code, badToken, { nickname: '손님' }, STRANGER, 'stranger');
    const badWatching = await join(code, badToken, { spectator: true }, STRANGER, 'stranger watching');
    await mom.until(() => mom.state.players.size === 3 && mom.state.watchers.size === 1, 'the stranger seated and watching');

    mom.room.send('kick', { id: bad.id });
    await bad.until(() => bad.leftWith !== null, 'the stranger’s seat closed');
    await badWatching.until(() => badWatching.leftWith !== null, 'the stranger’s other connection closed');
    assert.deepEqual(
      [bad, badWatching].map((c) => c.messagesOf('error').map((e) => e.code)),
      [['KICKED'], ['KICKED']],
    );
    await mom.until(() => mom.state.locked && mom.state.players.size === 2 && mom.state.watchers.size === 0, 'locked, both places gone');

    let reentries = 0;
    const tryIn = async (token: string | null, options: Record<string, unknown>, from: string, expected: string) => {
      const reply = await matchmake(`joinById/${code}`, options, token, from);
      if (reply.json?.sessionId) reentries++;
      assert.deepEqual([reply.status, reply.json?.code], [403, expected], JSON.stringify(options));
    };
    for (let round = 0; round < 5; round++) {
      const fresh = await guest(STRANGER);
      await tryIn(fresh, { nickname: `손님${round}` }, STRANGER, 'LOCKED');
      await tryIn(fresh, { spectator: true }, STRANGER, 'LOCKED');
    }
    await tryIn(null, { nickname: '익명' }, STRANGER, 'LOCKED');
    await tryIn(await guest(ELSEWHERE), { nickname: '다른곳' }, ELSEWHERE, 'LOCKED');
    await tryIn(badToken, { nickname: '손님' }, STRANGER, 'KICKED');
    await tryIn(badToken, { spectator: true }, ELSEWHERE, 'KICKED');
    assert.equal(reentries, 0);
    assert.deepEqual([mom.state.players.size, mom.state.watchers.size], [2, 0]);

    // The family still comes back: the kid's phone drops and takes its seat back by the code.
    kid.room.connection.close();
    await mom.until(() => mom.state.players.get(kid.id)?.connected === false, 'the kid dropped');
    const kidBack = await join(code, kidToken, { nickname: '아이' }, FAMILY, 'kid back');
    assert.equal(kidBack.id, kid.id);
    await mom.until(() => mom.state.players.get(kid.id)?.connected === true, 'the kid back');

    // A stand-in cannot open it; the host can, and then grandma comes in. The kicked one never.
    const reply = kidBack.nextMessage('error');
    kidBack.room.send('unlock', {});
    assert.equal((await reply).code, 'NOT_HOST');
    mom.room.send('unlock', {});
    await mom.until(() => !mom.state.locked, 'unlocked');
    await join(code, await guest(ELSEWHERE), { nickname: '할머니' }, ELSEWHERE, 'grandma');
    await tryIn(badToken, { nickname: '손님' }, STRANGER, 'KICKED');
  });

  it('a host blip past the graces: the child’s seat is kept, a stranger stands in but kicks nobody, and the child is host again on return', async () => {
    const { lobbyGraceSeconds, reconnectGraceSeconds } = CockroachRoom.settings;
    CockroachRoom.settings.lobbyGraceSeconds = 1;
    CockroachRoom.settings.reconnectGraceSeconds = 2;
    try {
      const childToken = await guest(FAMILY);
      const child = await create(childToken, { nickname: '아이' }, 'child');
      const code = child.room.roomId;
      const bad = await join(code, await guest(STRANGER), { nickname: '손님' }, STRANGER, 'stranger');
      const sister = await join(code, await guest(FAMILY), { nickname: '언니' }, FAMILY, 'sister');
      await child.until(() => child.state.players.size === 3, 'three seated');
      assert.equal(bad.state.creatorId, child.id);

      child.room.connection.close();
      await bad.until(() => bad.state.hostId === bad.id, 'the stand-in after the grace', 10_000);
      assert.equal(bad.state.creatorId, child.id, 'the creator’s seat is kept');
      assert.equal(bad.state.players.get(child.id)?.connected, false);
      for (const [type, payload, code] of [
        ['kick', { id: sister.id }, 'NOT_CREATOR'],
        ['unlock', {}, 'NOT_CREATOR'],
      ] as const) {
        const reply = bad.nextMessage('error');
        bad.room.send(type, payload);
        assert.equal((await reply).code, code, type);
      }
      // The child comes back with the same identity: host at once, the sister still seated.
      const back = await join(code, childToken, { nickname: '아이' }, FAMILY, 'child back');
      await sister.until(() => sister.state.hostId === back.id && sister.state.creatorId === back.id, 'the child is host again');
      assert.ok(sister.state.players.has(sister.id));
      assert.ok(
        !sister.messagesOf('events').some((m) => m.events.some((e: { reason?: string }) => e.reason === 'kicked')),
        'nobody kicked',
      );
      assert.equal(sister.leftWith, null);
    } finally {
      Object.assign(CockroachRoom.settings, { lobbyGraceSeconds, reconnectGraceSeconds });
    }
  });

  it('a stranger who slips in before the creator’s socket arrives is not the creator, not the host, and the lobby is not listed meanwhile', async () => {
    const childToken = await guest(FAMILY);
    const reserved = await matchmake(`create/${ROOM_NAME}`, { nickname: '아이' }, childToken, FAMILY);
    assert.equal(reserved.status, 200, reserved.body);
    const code = reserved.json.room.roomId as string;
    const listed = async () =>
      ((await request(port(), 'GET', `/matchmake/${ROOM_NAME}`, undefined, {}, FAMILY)).json as { roomId: string }[]).some(
        (r) => r.roomId === code,
      );
    assert.equal(await listed(), false, 'not listed before its creator sits down');
    const bad = await join(code, await guest(STRANGER), { nickname: '손님' }, STRANGER, 'stranger');
    await bad.until(() => bad.state.players.size === 1, 'the stranger seated');
    assert.equal(bad.state.hostId, '', 'nobody is host while the creator is on the way');
    assert.equal(bad.state.creatorId, '');
    const refusal = bad.nextMessage('error');
    bad.room.send('lock', {});
    assert.equal((await refusal).code, 'NOT_HOST');
    const child = await connect(reserved, 'child');
    await bad.until(() => bad.state.hostId === child.id && bad.state.creatorId === child.id, 'the child is host and creator');
    assert.equal(await listed(), true, 'listed once the creator sits');
  });

  it('watchers are listed for everyone, removed by the host, and one address cannot take every place', async () => {
    const momToken = await guest(FAMILY);
    const mom = await create(momToken, { nickname: '엄마', private: true }, 'mom');
    const code = mom.room.roomId;
    const kid = await join(code, await guest(FAMILY), { nickname: '아이' }, FAMILY, 'kid');
    const grandma = await join(code, await guest(ELSEWHERE), { spectator: true, nickname: '할머니' }, ELSEWHERE, 'grandma');
    const peeker = await join(code, await guest(STRANGER), { spectator: true }, STRANGER, 'peeker');
    await kid.until(() => kid.state.watchers.size === 2, 'both watchers listed');
    assert.deepEqual(
      [...kid.state.watchers.values()].map((w) => [w.id, w.nickname]),
      [
        [grandma.id, '할머니'],
        [peeker.id, '구경꾼 1'],
      ],
    );
    mom.room.send('kick', { id: peeker.id });
    await peeker.until(() => peeker.leftWith !== null, 'the watcher removed');
    await kid.until(() => kid.state.watchers.size === 1 && kid.state.locked, 'gone, and the table locked');
    assert.equal(grandma.leftWith, null);
    mom.room.send('unlock', {});
    await mom.until(() => !mom.state.locked, 'unlocked');

    // Ten identities from one address: five places, then SPECTATORS_FULL; the family's still fits.
    const refused: string[] = [];
    for (let i = 0; i < 10; i++) {
      const reply = await matchmake(`joinById/${code}`, { spectator: true }, await guest(STRANGER), STRANGER);
      if (reply.json.sessionId) await connect(reply, `script ${i}`);
      else refused.push(reply.json.code);
    }
    assert.deepEqual(refused, Array(5).fill('SPECTATORS_FULL'));
    await join(code, await guest(FAMILY), { spectator: true, nickname: '할아버지' }, FAMILY, 'grandpa');
    await mom.until(() => mom.state.watchers.size === 7, 'grandma, five from the script, grandpa');
  });

  it('names: nobody takes a bot’s name, and two people never show the same one', async () => {
    const mom = await create(await guest(FAMILY), { nickname: '엄마' }, 'mom');
    const code = mom.room.roomId;
    for (const name of ['로봇 토리', '로봇', ' 로 봇 친구']) {
      const reply = await matchmake(`joinById/${code}`, { nickname: name }, await guest(STRANGER), STRANGER);
      assert.deepEqual([reply.status, reply.json.code], [400, 'RESERVED_NICKNAME'], name);
    }
    const copy = await join(code, await guest(STRANGER), { nickname: '엄마' }, STRANGER, 'copy');
    await mom.until(() => mom.state.players.size === 2, 'seated');
    assert.equal(mom.state.players.get(copy.id)!.nickname, '엄마 2');
    assert.equal(mom.state.players.get(mom.id)!.nickname, '엄마');
  });
});
