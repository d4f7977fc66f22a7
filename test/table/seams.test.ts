import assert from 'node:assert/strict';
import { cyclesAmong, importsOf, sourcesUnder } from '../support/importGraph';

describe('seams: what may import what (server and SDK)', () => {
  const server = sourcesUnder('server');
  const sdk = sourcesUnder('client-sdk');

  it('has no import cycle in the server or the SDK, type-only imports included', () => {
    assert.deepEqual(cyclesAmong([...server, ...sdk]), []);
  });

  it('keeps the table an authority without sockets: nothing from the room, operations or Colyseus', () => {
    const table = server.filter((f) => f.startsWith('server/table/'));
    assert.ok(table.length >= 4);
    for (const file of table)
      for (const { to } of importsOf(file))
        assert.ok(!/^(server\/(room|ops|http|store|transport|commands)\/|colyseus|@colyseus\/)/.test(to), `${file} imports ${to}`);
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
