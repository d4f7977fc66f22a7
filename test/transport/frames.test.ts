import assert from 'node:assert/strict';
import { isWellFormedFrame as checkFrame } from '../../server/colyseus/transport/frameGuard';
import { seedRng, randInt } from '../../server/rules';
import { useTestServer, Tracked } from '../support/server';
import { openTable, startTable } from '../support/table';

const TYPES: ReadonlySet<string> = new Set(['start', 'offer', 'call', 'peek', 'pass', 'chat']);
const isWellFormedFrame = (data: unknown, isBinary: boolean) => checkFrame(data, isBinary, TYPES);
const frame = (...bytes: number[]) => Buffer.from(bytes);
const typed = (type: string, ...payload: number[]) => Buffer.from([13, 0xa0 | type.length, ...Buffer.from(type), ...payload]);

describe('transport: frames are checked before Colyseus decodes them', function () {
  this.timeout(20000);

  describe('isWellFormedFrame', () => {
    it('accepts the frames a colyseus.js client sends', () => {
      assert.equal(isWellFormedFrame(frame(10), true), true, 'join ack');
      assert.equal(isWellFormedFrame(frame(12), true), true, 'leave');
      assert.equal(isWellFormedFrame(typed('peek'), true), true, 'message without payload');
      assert.equal(isWellFormedFrame(typed('call', 0x81, 0xa4, ...Buffer.from('call'), 0xa4, ...Buffer.from('true')), true), true);
    });

    it('refuses a message-type length that runs past the frame (the 4 GB string header)', () => {
      assert.equal(isWellFormedFrame(frame(13, 0xdb, 0xff, 0xff, 0xff, 0xff), true), false);
      assert.equal(isWellFormedFrame(frame(13, 0xda, 0xff, 0xff), true), false);
      assert.equal(isWellFormedFrame(frame(13, 0xd9, 0xff, 0x61), true), false);
      assert.equal(isWellFormedFrame(frame(13, 0xa5, 0x61, 0x62), true), false);
      assert.equal(isWellFormedFrame(frame(13), true), false);
    });

    it('refuses text frames, numeric types, byte messages and server-only codes', () => {
      assert.equal(isWellFormedFrame(typed('peek'), false), false);
      assert.equal(isWellFormedFrame(frame(13, 0x05), true), false);
      assert.equal(isWellFormedFrame(frame(17, 0xa4, 0x70, 0x65, 0x65, 0x6b), true), false);
      for (const code of [0, 11, 14, 15, 16, 255]) assert.equal(isWellFormedFrame(frame(code), true), false, `code ${code}`);
      assert.equal(isWellFormedFrame(frame(10, 0), true), false, 'join ack with trailing bytes');
      assert.equal(isWellFormedFrame('peek', true), false);
    });

    it('refuses message types that are not ours, prototype keys included', () => {
      for (const type of ['dance', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'Offer', 'offer ']) {
        assert.equal(isWellFormedFrame(typed(type), true), false, type);
      }
      assert.equal(isWellFormedFrame(frame(13, 0xd9, 4, ...Buffer.from('peek')), true), true, 'str8 header');
    });

    it('refuses a payload that is not valid msgpack (Colyseus would print a stack per frame)', () => {
      assert.equal(isWellFormedFrame(typed('peek', 0xd9, 0x05, 0x61), true), false, 'string cut short');
      assert.equal(isWellFormedFrame(typed('peek', 0x92, 0x01), true), false, 'array cut short');
      assert.equal(isWellFormedFrame(typed('peek', 0x80), true), true, 'empty map');
    });

    it('never throws on random garbage, and passes only frames whose type fits', () => {
      const rng = seedRng('garbage');
      for (let i = 0; i < 5000; i++) {
        const bytes = Buffer.from(Array.from({ length: randInt(rng, 12) }, () => randInt(rng, 256)));
        if (i % 3 === 0 && bytes.length) bytes[0] = 13;
        const ok = isWellFormedFrame(bytes, true);
        if (ok && bytes[0] === 13) {
          const length = bytes[1] === 0xd9 ? bytes[2] : bytes[1] & 0x1f;
          assert.ok((bytes[1] === 0xd9 ? 3 : 2) + length <= bytes.length);
        }
      }
    });
  });

  describe('over real sockets', () => {
    const ts = useTestServer();

    async function sendRaw(client: Tracked, data: Buffer | string) {
      const ws = (client.room.connection.transport as unknown as { ws: { send(d: unknown): void } }).ws;
      ws.send(data);
      await client.until(() => client.leftWith !== null, 'the socket to close');
      assert.equal(client.leftWith, 4002);
    }

    async function stillServes(bystander: Tracked) {
      const heard = bystander.nextMessage('chat');
      bystander.room.send('chat', { phrase: 'nice' });
      assert.equal((await heard).phrase, 'nice');
    }

    it('closes the sender of the 4 GB string frame; the room and the process keep serving', async () => {
      const table = await openTable(ts, 3);
      await startTable(table);
      const [attacker, bystander] = table.players;
      await sendRaw(attacker, frame(13, 0xdb, 0xff, 0xff, 0xff, 0xff));
      await stillServes(bystander);
    });

    it('closes on unknown and prototype-key message types, sent as colyseus.js would', async () => {
      const table = await openTable(ts, 3);
      await startTable(table);
      for (const [i, type] of ['__proto__', 'constructor'].entries()) {
        const client = table.players[i + 1];
        client.room.send(type, {});
        await client.until(() => client.leftWith !== null, 'the socket to close');
        assert.equal(client.leftWith, 4002);
      }
      await stillServes(table.players[0]);
    });

    it('closes on text frames and byte messages', async () => {
      const table = await openTable(ts, 3);
      await sendRaw(table.players[1], 'hello');
      await sendRaw(table.players[2], frame(17, 0xa4, ...Buffer.from('peek')));
      await stillServes(table.players[0]);
    });
  });
});
