import assert from 'node:assert/strict';
import path from 'node:path';
import { ESLint } from 'eslint';

const ROOT = path.resolve(__dirname, '../..');

/** One use of each kind of name the lint keeps behind the door (eslint.config.mjs, BEHIND_THE_DOOR). */
const REACHING_PAST = [
  'export function f(room: any, state: any, redis: any, server: any, matchMaker: any) {',
  '  room._reconnectionToken = "x";', // a private member
  '  const refs = state.$changes.root.refs;', // a private member starting with $
  "  const seats = room['reservedSeats'];", // a private member, computed
  '  room.connection.transport.ws.terminate();', // colyseus.js's socket
  '  room.listing.save();', // re-publishing a listing
  '  const local = matchMaker.stats.local;', // the matchmaker's stats
  "  server.removeAllListeners('request');", // Colyseus's request listener
  "  redis.hgetall('roomcaches');", // a Redis name
  '  return / is locked$/.test(String(refs)) || [seats, local];', // an error text
  '}',
  '',
].join('\n');

async function messagesFor(file: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(REACHING_PAST, { filePath: path.join(ROOT, file) });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => `${m.line}: ${m.message}`);
}

describe('colyseus: the one door (lint)', function () {
  this.timeout(30000);

  it('reports each private name used outside server/colyseus/', async () => {
    const messages = await messagesFor('server/ops/reachingPast.ts');
    const lines = new Set(messages.map((m) => Number(m.split(':')[0])));
    assert.deepEqual(
      [...lines].sort((a, b) => a - b),
      [2, 3, 4, 5, 6, 7, 8, 9, 10],
      messages.join('\n'),
    );
    assert.ok(
      messages.every((m) => m.includes('server/colyseus/')),
      'each message says where such code goes',
    );
  });

  it('reports them in the SDK, the load tools and tests not exempted too', async () => {
    for (const file of ['client-sdk/reachingPast.ts', 'loadtest/reachingPast.ts', 'test/http/reachingPast.test.ts'])
      assert.ok((await messagesFor(file)).length >= 9, file);
  });

  it('allows them inside server/colyseus/', async () => {
    assert.deepEqual(await messagesFor('server/colyseus/reachingPast.ts'), []);
  });
});
