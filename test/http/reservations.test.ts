import assert from 'node:assert/strict';
import { matchMaker } from 'colyseus';
import { CockroachState } from '../../server/schema/CockroachState';
import { MAX_PLAYERS } from '../../server/rules';
import { MAX_SPECTATORS } from '../../server/room/constants';
import { MAX_PENDING_RESERVATIONS, pendingReservations, seatRefusal } from '../../server/room/reservations';
import { Tracked } from '../support/server';
import { reservationsOf } from '../../server/colyseus/reservations';
import { DEFAULT_EDGE } from '../../server/base/config';
import { openTable, startTable } from '../support/table';
import { post, request, roomCount, ROOM_NAME, timerCount, useEdge, waitFor } from './support';

type Reserving = { reservedSeats: Record<string, unknown>; seatReservationTime: number; locked: boolean };

describe('http: seat reservations cannot lock anyone out', function () {
  this.timeout(30000);
  const ts = useEdge({ seatReservationSeconds: 2, trustedProxies: ['127.0.0.1'], pendingSeatsPerAddress: 4 });
  const port = () => ts.server.port;
  afterEach(async () => {
    await Promise.all(matchMaker.disconnectAll());
  });

  async function lobby(): Promise<{ host: Tracked; roomId: string; room: Reserving }> {
    const host = new Tracked(await ts.client().create<CockroachState>(ROOM_NAME, { nickname: '방장' }, CockroachState), 'host');
    await host.until(() => host.state.players.size === 1, 'host seated');
    return { host, roomId: host.room.roomId, room: matchMaker.getRoomById(host.room.roomId) as unknown as Reserving };
  }

  it('gives each room the short reservation time', async () => {
    const { room } = await lobby();
    assert.equal(room.seatReservationTime, 2);
  });

  it('reservations that never open a socket keep nobody out: the friend who connects sits down, the lobby stays listed and unlocked', async () => {
    const { host, roomId, room } = await lobby();
    const replies = [];
    // Five addresses (through the trusted proxy) hold the most each may: 20 reservations, more than the 5 free seats.
    for (let a = 0; a < 5; a++) {
      for (let i = 0; i < 5; i++)
        replies.push(
          (await post(port(), `/matchmake/joinById/${roomId}`, { nickname: `자리${a}${i}` }, { 'x-forwarded-for': `198.51.100.${a}` }))
            .json,
        );
    }
    assert.equal(replies.filter((r) => r.sessionId).length, 20, 'four each');
    assert.equal(replies.filter((r) => r.code === 'TOO_MANY_REQUESTS').length, 5, 'the fifth from one address is refused');
    assert.equal(room.locked, false, 'never locked by reservations');
    const listed = (await request(port(), 'GET', `/matchmake/${ROOM_NAME}`)).json as { roomId: string }[];
    assert.deepEqual(
      listed.map((r) => r.roomId),
      [roomId],
    );
    const friends = [];
    for (let i = 0; i < MAX_PLAYERS - 1; i++) friends.push(await ts.client().joinById(roomId, { nickname: `친구${i}` }));
    await host.until(() => host.state.players.size === MAX_PLAYERS, 'five friends seated past twenty pending reservations');
    assert.equal(
      (await post(port(), `/matchmake/joinById/${roomId}`, { nickname: '일곱' })).json.code,
      'ROOM_FULL',
      'a room really full refuses at once',
    );
    const watcher = await ts.client().joinById(roomId, { spectator: true });
    await Promise.all([...friends, watcher].map((c) => c.leave()));
    await waitFor(() => reservationsOf(room).length === 0, 'the unused reservations lapse', 5000);
  });

  it('bounds pending reservations per room by withdrawing the oldest, never the newcomer; spectator places by the spectators present', async () => {
    const { host, roomId, room } = await lobby();
    const replies = [];
    for (let i = 0; i < MAX_PENDING_RESERVATIONS + 3; i++)
      replies.push(
        (await post(port(), `/matchmake/joinById/${roomId}`, { spectator: true }, { 'x-forwarded-for': `203.0.113.${i}` })).json,
      );
    assert.equal(replies.filter((r) => r.sessionId).length, MAX_PENDING_RESERVATIONS + 3, 'everyone who arrives gets a reservation');
    assert.deepEqual(pendingReservations(room as never), { players: 0, spectators: MAX_PENDING_RESERVATIONS });
    // The three oldest lost their place: their sockets are refused; the newest sits down.
    const withdrawn = replies.slice(0, 3);
    assert.ok(withdrawn.every((r) => !reservationsOf(room).some((seat) => seat.sessionId === r.sessionId)));
    const newest = replies.at(-1);
    const seated = await ts.client().consumeSeatReservation(newest);
    assert.equal(room.locked, false);
    await seated.leave();
    await waitFor(() => reservationsOf(room).length === 0, 'reservations lapsed', 5000);
    const watchers = [];
    // Watchers from many addresses (one address takes at most half the places: test/table/family.test.ts).
    for (let i = 0; i < MAX_SPECTATORS; i++) {
      const reserved = (await post(port(), `/matchmake/joinById/${roomId}`, { spectator: true }, { 'x-forwarded-for': `198.51.100.${i}` }))
        .json;
      watchers.push(await ts.client().consumeSeatReservation(reserved));
    }
    const late = await post(port(), `/matchmake/joinById/${roomId}`, { spectator: true }, { 'x-forwarded-for': '198.51.100.99' });
    assert.equal(late.json.code, 'SPECTATORS_FULL');
    const friend = await ts.client().joinById(roomId, { nickname: '친구' });
    await host.until(() => host.state.players.size === 2, 'a player still gets a seat');
    await Promise.all([...watchers, friend].map((c) => c.leave()));
  });

  it('refuses player reservations for a running game with LATE_JOIN, keeping its spectator places', async () => {
    const table = await openTable(ts, 2);
    await startTable(table);
    const roomId = table.room.roomId;
    for (let i = 0; i < 10; i++)
      assert.equal((await post(port(), `/matchmake/joinById/${roomId}`, { nickname: `늦음${i}` })).json.code, 'LATE_JOIN');
    const room = matchMaker.getRoomById(roomId) as unknown as Reserving;
    assert.deepEqual(pendingReservations(room as never), { players: 0, spectators: 0 });
    const watcher = await ts.client().joinById(roomId, { spectator: true });
    await watcher.leave();
  });

  it('explains refusals with the room codes (seatRefusal)', () => {
    const room = (phase: string, players: number, spectators: number, reserved: Record<string, unknown> = {}) => ({
      state: { phase, players: { size: players } },
      spectators: { size: spectators },
      reservedSeats: reserved as never,
    });
    assert.equal(seatRefusal(room('lobby', 1, 0), { nickname: 'a' }), null);
    assert.equal(seatRefusal(room('lobby', 6, 0), { nickname: 'a' }), 'ROOM_FULL');
    assert.equal(
      seatRefusal(room('lobby', 5, 0, { s: [{ nickname: 'b' }, undefined, false, false] }), { nickname: 'a' }),
      null,
      'a pending reservation does not take the seat',
    );
    const many = Object.fromEntries(
      Array.from({ length: MAX_PENDING_RESERVATIONS }, (_, i) => [`s${i}`, [{ spectator: true }, undefined, false, false]]),
    );
    assert.equal(seatRefusal(room('lobby', 1, 0, many), { nickname: 'a' }), null, 'pending ones never refuse: the oldest gives way');
    // An identity holding a seat takes it back whatever the phase or the count (the room says whose seats are whose).
    const holding = { ...room('playing', 6, 0), seatOfIdentity: (key: string) => (key === 'guest:me' ? 'sid' : undefined) };
    const me = { key: 'guest:me', kind: 'guest', address: '127.0.0.1' };
    assert.equal(seatRefusal(holding, { nickname: 'a' }, me), null);
    assert.equal(seatRefusal(holding, { nickname: 'a' }, { ...me, key: 'guest:other' }), 'LATE_JOIN');
    assert.equal(seatRefusal(holding, { nickname: 'a' }), 'LATE_JOIN');
    assert.equal(seatRefusal(room('playing', 2, 0), { nickname: 'a' }), 'LATE_JOIN');
    assert.equal(seatRefusal(room('playing', 2, 10), { spectator: true }), 'SPECTATORS_FULL');
    assert.equal(seatRefusal(room('lobby', 1, 0), {}), 'BAD_NICKNAME');
  });

  it('leaves no room, timer or listing behind for a create the room refuses', async () => {
    const timers = timerCount();
    for (let i = 0; i < 300; i++) {
      // Straight to the matchmaker, past the HTTP guard: the room's own refusal must be clean too.
      await assert.rejects(matchMaker.create(ROOM_NAME, { nickname: '' }, {}), /BAD_NICKNAME/);
      await assert.rejects(matchMaker.create(ROOM_NAME, { spectator: true }, {}), /SPECTATOR_CANNOT_CREATE/);
    }
    assert.equal(await roomCount(), 0);
    assert.ok(timerCount() <= timers + 2, `timers ${timers} -> ${timerCount()}`);
  });

  it('disposes a lobby whose creator never opened the socket once the reservation lapses', async () => {
    const timers = timerCount();
    const ids: string[] = [];
    for (let i = 0; i < 20; i++)
      ids.push(
        (await post(port(), `/matchmake/create/${ROOM_NAME}`, { nickname: `유령${i}` }, { 'x-forwarded-for': `192.0.2.${i}` })).json.room
          .roomId,
      );
    assert.equal(await roomCount(), 20);
    await waitFor(async () => (await roomCount()) === 0, 'ghost lobbies gone', 6000);
    assert.ok(ids.every((id) => matchMaker.getRoomById(id) === undefined));
    assert.ok(timerCount() <= timers + 2, `timers ${timers} -> ${timerCount()}`);
  });
});

describe('http: lobbies that never start', function () {
  this.timeout(20000);
  const ts = useEdge({ idleLobbySeconds: 1 });
  afterEach(async () => {
    await Promise.all(matchMaker.disconnectAll());
  });

  it('are closed after IDLE_LOBBY_SECONDS with LOBBY_EXPIRED; a game in progress is not', async () => {
    const idle = new Tracked(await ts.client().create<CockroachState>(ROOM_NAME, { nickname: '대기' }, CockroachState), 'idle');
    const table = await openTable(ts, 2);
    await startTable(table);
    const told = await idle.nextMessage('error', 5000);
    assert.equal(told.code, 'LOBBY_EXPIRED');
    assert.match(told.message, /[\uAC00-\uD7A3]/);
    await idle.until(() => idle.leftWith !== null, 'closed', 5000);
    assert.equal(matchMaker.getRoomById(idle.room.roomId), undefined);
    assert.ok(matchMaker.getRoomById(table.room.roomId), 'the started game goes on');
  });
});

describe('http: seat reservations at the default limits', function () {
  this.timeout(30000);
  const defaults = useEdge({ ...DEFAULT_EDGE, trustedProxies: ['127.0.0.1'] });

  it('lets six friends in while a dozen addresses keep topping up pending reservations (issue 21)', async () => {
    const host = new Tracked(await defaults.client().create<CockroachState>(ROOM_NAME, { nickname: '방장' }, CockroachState), 'host');
    await host.until(() => host.state.players.size === 1, 'host seated');
    const roomId = host.room.roomId;
    const room = matchMaker.getRoomById(roomId) as never;
    // Twelve addresses reserve as fast as they are answered, renewing what lapses or is withdrawn.
    let topping = true;
    const topUp = Array.from({ length: 12 }, async (_, a) => {
      for (let n = 0; topping; n++)
        await post(
          defaults.server.port,
          `/matchmake/joinById/${roomId}`,
          { nickname: `자리${n % 100}` },
          { 'x-forwarded-for': `198.51.100.${a}` },
        );
    });
    await waitFor(() => pendingReservations(room).players >= MAX_PENDING_RESERVATIONS - 1, 'the room full of pending reservations');
    const friends = [];
    for (let i = 0; i < MAX_PLAYERS - 1; i++) friends.push(await defaults.client().joinById(roomId, { nickname: `친구${i}` }));
    topping = false;
    await Promise.all(topUp);
    await host.until(() => host.state.players.size === MAX_PLAYERS, 'every friend seated');
    await Promise.all([...friends, host.room].map((c) => c.leave()));
  });
});
