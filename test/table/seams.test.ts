import assert from 'node:assert/strict';
import { cyclesAmong, importsOf, sourcesUnder } from '../support/importGraph';

/**
 * The server's folders (and top-level files) from top to bottom, as in docs/architecture.md's
 * picture: a file may import its own folder and the rows below it, never its row or above.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['server/index.ts', 'server/cli'],
  ['server/app.ts'],
  ['server/config.ts', 'server/ops'],
  ['server/http'],
  ['server/room'],
  ['server/commands'],
  ['server/project.ts'],
  ['server/table'],
  ['server/bots', 'server/schema', 'server/store', 'server/identity'],
  ['server/fairness', 'server/base'],
  ['server/colyseus'],
  ['server/protocol.ts'],
  ['server/rules'],
];

describe('seams: what may import what (server and SDK)', () => {
  const server = sourcesUnder('server');
  const sdk = sourcesUnder('client-sdk');

  it('has no import cycle in the server or the SDK, type-only imports included', () => {
    assert.deepEqual(cyclesAmong([...server, ...sdk]), []);
  });

  it('has no cycle between folders: every import points down the layers of docs/architecture.md', () => {
    const rowOf = new Map<string, number>();
    LAYERS.forEach((row, i) => row.forEach((unit) => rowOf.set(unit, i)));
    const unitOf = (file: string) => {
      const parts = file.split('/');
      return parts[0] === 'server' && parts.length > 2 ? parts.slice(0, 2).join('/') : file;
    };
    const upward: string[] = [];
    for (const file of server) {
      const from = unitOf(file);
      assert.ok(rowOf.has(from), `${from} is in no layer: place it in LAYERS and in the picture`);
      for (const { to } of importsOf(file)) {
        if (!to.startsWith('server/')) continue;
        const target = unitOf(to);
        if (target !== from && !(rowOf.get(target)! > rowOf.get(from)!)) upward.push(`${file} → ${to}`);
      }
    }
    assert.deepEqual(upward, []);
  });

  it('keeps the table an authority without sockets or wire: nothing from the room, operations, Colyseus or server/protocol.ts', () => {
    const table = server.filter((f) => f.startsWith('server/table/'));
    assert.ok(table.length >= 4);
    for (const file of table)
      for (const { to } of importsOf(file))
        assert.ok(
          !/^(server\/(room|ops|http|store|colyseus|commands)\/|server\/protocol\.ts$|colyseus|@colyseus\/)/.test(to),
          `${file} imports ${to}`,
        );
  });

  it('keeps the rules pure and the tests of the table free of Colyseus', () => {
    for (const file of server.filter((f) => f.startsWith('server/rules/')))
      for (const { to } of importsOf(file)) assert.ok(to.startsWith('server/rules/'), `${file} imports ${to}`);
    for (const file of sourcesUnder('test/table'))
      for (const { to } of importsOf(file)) assert.ok(!/colyseus/.test(to) && !/server\/room\//.test(to), `${file} imports ${to}`);
  });

  it('the projection is the one writer of the schema: no other server file assigns it', () => {
    // The schema classes are built only in project.ts (and defined in server/schema/).
    for (const file of server.filter((f) => !f.startsWith('server/schema/') && f !== 'server/project.ts'))
      for (const { to, typeOnly } of importsOf(file))
        if (to === 'server/schema/CockroachState.ts' && !typeOnly)
          assert.ok(['server/room/CockroachRoom.ts'].includes(file), `${file} builds schema objects (${to})`);
  });
});
