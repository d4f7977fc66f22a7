import assert from 'node:assert/strict';
import { useTestServer, Tracked } from '../support/server';
import { openTable, startTable, syncAndCheck, Table } from '../support/table';

const HANGUL = /[\uAC00-\uD7A3]/;

/** Sends a message that must be refused with `code`, and proves nothing changed. */
async function expectRefusal(table: Table, from: Tracked, type: string, payload: unknown, code: string) {
  const before = JSON.stringify(table.room.table.match?.toJSON() ?? null);
  const stateBefore = JSON.stringify(table.room.state.toJSON());
  const reply = from.nextMessage('error');
  from.room.send(type, payload);
  const error = await reply;
  assert.equal(error.code, code, `${type} ${JSON.stringify(payload)}`);
  assert.equal(error.action, type);
  assert.match(error.message, HANGUL);
  assert.deepEqual(Object.keys(error).sort(), ['action', 'code', 'message']);
  assert.equal(JSON.stringify(table.room.table.match?.toJSON() ?? null), before, 'the game did not change');
  assert.equal(JSON.stringify(table.room.state.toJSON()), stateBefore, 'the state did not change');
}

async function act(table: Table, from: Tracked, type: string, payload: unknown = {}) {
  const step = table.room.table.match!.game.step;
  from.room.send(type, payload);
  await from.until(() => table.room.table.match!.game.step > step, `${type} applied`);
  await syncAndCheck(table);
}

describe('room: every refusal answered with its code, changing nothing', function () {
  this.timeout(20000);
  // One client sends dozens of refused messages here; flood control has its own tests (hostile, rateLimit).
  const ts = useTestServer({ messageBurst: 1000 });

  it('walks a three-player round through each rule refusal', async () => {
    const table = await openTable(ts, 3);
    await startTable(table);
    const game = table.room.table.match!.game;
    const [a, b, c] = game.order.map((id) => table.byId(id));
    const aCard = game.hands[a.id][0];
    const bCard = game.hands[b.id][0];

    await expectRefusal(table, b, 'offer', { cardId: bCard, to: c.id, claim: 'rat' }, 'NOT_YOUR_TURN');
    await expectRefusal(table, a, 'call', { call: 'true' }, 'MUST_OFFER');
    await expectRefusal(table, a, 'offer', { cardId: bCard, to: b.id, claim: 'rat' }, 'CARD_NOT_IN_HAND');
    await expectRefusal(table, a, 'offer', { cardId: aCard, to: a.id, claim: 'rat' }, 'CANNOT_TARGET_SELF');
    await expectRefusal(table, a, 'offer', { cardId: aCard, to: 'nobody', claim: 'rat' }, 'UNKNOWN_PLAYER');
    await expectRefusal(table, a, 'offer', { cardId: aCard, to: b.id, claim: 'rat', step: game.step + 1 }, 'STALE_ACTION');
    await expectRefusal(table, table.spectator, 'offer', { cardId: aCard, to: b.id, claim: 'rat' }, 'SPECTATOR');

    await act(table, a, 'offer', { cardId: aCard, to: b.id, claim: 'rat', step: game.step });
    await expectRefusal(table, a, 'offer', { cardId: game.hands[a.id][0], to: b.id, claim: 'rat' }, 'NOT_YOUR_TURN');
    await expectRefusal(table, b, 'offer', { cardId: bCard, to: c.id, claim: 'rat' }, 'CARD_IN_FLIGHT');
    await expectRefusal(table, b, 'pass', { to: c.id, claim: 'rat' }, 'MUST_PEEK_FIRST');
    await act(table, b, 'peek');
    await expectRefusal(table, b, 'call', { call: 'false' }, 'ALREADY_PEEKED');
    await expectRefusal(table, b, 'peek', {}, 'ALREADY_PEEKED');
    await expectRefusal(table, b, 'pass', { to: a.id, claim: 'bat' }, 'TARGET_ALREADY_SEEN');
    await expectRefusal(table, b, 'pass', { to: b.id, claim: 'bat' }, 'CANNOT_TARGET_SELF');
    await act(table, b, 'pass', { to: c.id, claim: 'bat' });
    await expectRefusal(table, c, 'peek', undefined, 'NO_PASS_TARGET');
    await act(table, c, 'call', { call: 'true' });
    assert.equal(table.room.table.match!.game.round.no, 2);
  });

  it('refuses peek in a two-player game', async () => {
    const table = await openTable(ts, 2);
    await startTable(table);
    const game = table.room.table.match!.game;
    const [a, b] = game.order.map((id) => table.byId(id));
    await act(table, a, 'offer', { cardId: game.hands[a.id][0], to: b.id, claim: 'fly' });
    await expectRefusal(table, b, 'peek', {}, 'TWO_PLAYER_NO_PEEK');
  });

  it('answers malformed payloads of every message type with BAD_PAYLOAD', async () => {
    const table = await openTable(ts, 3);
    await startTable(table);
    const game = table.room.table.match!.game;
    const a = table.byId(game.order[0]);
    const b = game.order[1];
    const card = game.hands[a.id][0];
    const bad: [string, unknown][] = [
      ['offer', {}],
      ['offer', { cardId: String(card), to: b, claim: 'rat' }],
      ['offer', { cardId: card + 0.5, to: b, claim: 'rat' }],
      ['offer', { cardId: 64, to: b, claim: 'rat' }],
      ['offer', { cardId: -1, to: b, claim: 'rat' }],
      ['offer', { cardId: Number.NaN, to: b, claim: 'rat' }],
      ['offer', { cardId: Number.POSITIVE_INFINITY, to: b, claim: 'rat' }],
      ['offer', { cardId: card, to: b, claim: 'dragon' }],
      ['offer', { cardId: card, to: b, claim: 'rat', extra: 1 }],
      ['offer', { cardId: card, to: 'x'.repeat(65), claim: 'rat' }],
      ['offer', { cardId: card, to: b, claim: 'rat', step: -1 }],
      ['offer', [card, b, 'rat']],
      ['offer', 'offer'],
      ['call', { call: true }],
      ['call', { call: 'maybe' }],
      ['call', {}],
      ['peek', { look: true }],
      ['pass', { to: 5, claim: 'rat' }],
      ['pass', { to: b }],
      ['start', { now: true }],
      ['chat', { phrase: 'hello' }],
      ['chat', { phrase: '__proto__' }],
      ['chat', { text: '안녕' }],
    ];
    for (const [type, payload] of bad) await expectRefusal(table, a, type, payload, 'BAD_PAYLOAD');
  });

  it('refuses start from anyone but the host, twice, or from a spectator', async () => {
    const table = await openTable(ts, 3);
    await expectRefusal(table, table.players[1], 'start', {}, 'NOT_HOST');
    await expectRefusal(table, table.spectator, 'start', {}, 'SPECTATOR');
    await expectRefusal(table, table.players[0], 'offer', { cardId: 1, to: table.players[1].id, claim: 'rat' }, 'NOT_PLAYING');
    await startTable(table);
    await expectRefusal(table, table.players[0], 'start', {}, 'ALREADY_STARTED');
  });
});
