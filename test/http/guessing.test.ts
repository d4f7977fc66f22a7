import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { matchMaker } from 'colyseus';
import { Client } from 'colyseus.js';
import { DEFAULT_EDGE } from '../../server/base/config';
import { ROOM_MESSAGES } from '../../server/protocol';
import { request, ROOM_NAME, useEdge } from './support';

/**
 * Issue 22 "guessing is slow", at the default limits: wrong room codes are counted per identity and
 * per address; past either every joinById of theirs is refused, the right code included, while a
 * player on another address joins by the same code. docs/operations.md "Room codes and guessing".
 */
const join = (port: number, code: string, from: string, headers: Record<string, string> = {}) =>
  request(port, 'POST', `/matchmake/joinById/${encodeURIComponent(code)}`, JSON.stringify({ nickname: '추측' }), headers, from);
const randomCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

describe('http: guessing room codes is refused past its limit', function () {
  this.timeout(60_000);
  const ts = useEdge({ ...DEFAULT_EDGE });
  const port = () => ts.server.port;
  afterEach(async () => {
    await Promise.all(matchMaker.disconnectAll());
  });

  it('refuses an address past ADDRESS_WRONG_CODES_PER_HOUR, the right code too; a child on another address joins', async () => {
    const host = await new Client(ts.endpoint).create(ROOM_NAME, { nickname: '방장', private: true });
    host.onMessage('*', () => undefined);
    const attacker = '127.0.0.2';
    const answers: string[] = [];
    for (let i = 0; i < DEFAULT_EDGE.addressWrongCodesPerHour + 20; i++)
      answers.push((await join(port(), randomCode(), attacker)).json.code);
    assert.deepEqual(
      answers.slice(0, DEFAULT_EDGE.addressWrongCodesPerHour),
      Array(DEFAULT_EDGE.addressWrongCodesPerHour).fill('ROOM_NOT_FOUND'),
    );
    assert.deepEqual(new Set(answers.slice(DEFAULT_EDGE.addressWrongCodesPerHour)), new Set(['TOO_MANY_GUESSES']));
    const right = await join(port(), host.roomId, attacker);
    assert.equal(right.status, 429);
    assert.equal(right.json.error, `TOO_MANY_GUESSES: ${ROOM_MESSAGES.TOO_MANY_GUESSES}`);
    // Spaces, dashes and nonsense cost the guesser the same and tell it nothing either.
    assert.equal((await join(port(), '12 34', attacker)).json.code, 'TOO_MANY_GUESSES');
    // The innocent player (127.0.0.1) joins the private room by its code meanwhile.
    const friend = await new Client(ts.endpoint).joinById(host.roomId, { nickname: '친구' });
    friend.onMessage('*', () => undefined);
    assert.equal(friend.roomId, host.roomId);
    await friend.leave();
    await host.leave();
  });

  it('refuses an identity past WRONG_CODES_PER_HOUR, whatever address it comes from; another identity on the same address goes on', async () => {
    const guest = async () => ({
      authorization: `Bearer ${(await request(port(), 'POST', '/api/guest', '', {}, '127.0.0.3')).json.token}`,
    });
    const first = await guest();
    const answers: string[] = [];
    for (let i = 0; i < DEFAULT_EDGE.wrongCodesPerHour; i++)
      answers.push((await join(port(), randomCode(), i % 2 ? '127.0.0.3' : '127.0.0.4', first)).json.code);
    assert.deepEqual(new Set(answers), new Set(['ROOM_NOT_FOUND']));
    assert.equal(
      (await join(port(), randomCode(), '127.0.0.5', first)).json.code,
      'TOO_MANY_GUESSES',
      'the identity, from a third address',
    );
    assert.equal(
      (await join(port(), randomCode(), '127.0.0.3', await guest())).json.code,
      'ROOM_NOT_FOUND',
      'another identity on the same address',
    );
  });
});
