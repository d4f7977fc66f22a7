/**
 * The examples of docs/client-sdk.md and client-sdk/README.md, as an app would paste them: every
 * `ts` block is written out whole as a file, compiled with strict TypeScript against the SDK, then
 * run against a live server, in the order the documents give them. The app's own module they
 * import (`./app`) is test/sdk/docsApp.ts. Only two things change in a block: the package's name
 * becomes the SDK's path here, and the example address becomes the test server's.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { CockroachClient, CockroachResult } from '../../client-sdk/index';
import { useTestServer } from '../support/server';

const ROOT = path.resolve(__dirname, '../..');
const SDK = path.join(ROOT, 'client-sdk/index').replace(/\\/g, '/');
const DOCS = ['docs/client-sdk.md', 'client-sdk/README.md'];
const EXAMPLE_ADDRESS = 'wss://game.example.com';

interface Block {
  name: string;
  source: string;
  file: string;
}

/** Every ```ts block of a Markdown file, fenced at the start of a line. */
function blocksOf(doc: string): string[] {
  const text = readFileSync(path.join(ROOT, doc), 'utf8');
  assert.doesNotMatch(text, /^[ \t]+```ts/m, `${doc}: an indented ts block is a fragment, not a file an app can paste`);
  return [...text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
}

type App = typeof import('./docsApp');

describe('SDK docs: every example compiles and runs against a live server', function () {
  this.timeout(120000);
  const server = useTestServer({ botThinkMs: 5 });
  let dir: string;
  let blocks: Block[] = [];

  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sdk-docs-'));
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    const app = readFileSync(path.join(__dirname, 'docsApp.ts'), 'utf8').replaceAll("'../../client-sdk/index'", `'${SDK}'`);
    writeFileSync(path.join(dir, 'app.ts'), app);
    blocks = DOCS.flatMap((doc) =>
      blocksOf(doc).map((source, i) => {
        const name = `${path.basename(doc, '.md')}-${String(i + 1).padStart(2, '0')}`;
        const file = path.join(dir, `${name}.ts`);
        assert.ok(source.includes("from '@cockroach-poker/client'"), `${name} imports the package by its name`);
        const pasted = source
          .replaceAll("'@cockroach-poker/client'", `'${SDK}'`)
          .replaceAll(`'${EXAMPLE_ADDRESS}'`, `'${server.endpoint}'`);
        writeFileSync(file, pasted);
        return { name, source, file };
      }),
    );
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('finds the examples: each document has some, and every one is a whole file', () => {
    assert.ok(blocks.filter((b) => b.name.startsWith('client-sdk-')).length >= 10, 'docs/client-sdk.md');
    assert.equal(blocks.filter((b) => b.name.startsWith('README-')).length, 1, 'client-sdk/README.md');
  });

  it('compiles every example with strict TypeScript, as an app (ES modules, a bundler, no Node types)', () => {
    const program = ts.createProgram(
      blocks.map((b) => b.file),
      {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
        types: [],
        // The SDK is compiled here from its source, whose schema classes use decorators (the package has them compiled away).
        experimentalDecorators: true,
        useDefineForClassFields: false,
        esModuleInterop: true,
        skipLibCheck: true,
      },
    );
    const mine = new Set([...blocks.map((b) => b.file), path.join(dir, 'app.ts')]);
    const errors = ts
      .getPreEmitDiagnostics(program)
      .map((d) => {
        const where = d.file ? `${path.basename(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : '';
        return { file: d.file?.fileName ?? '', text: `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}` };
      })
      .filter((e) => mine.has(e.file) || !e.file.startsWith(dir));
    assert.deepEqual(
      errors.map((e) => e.text),
      [],
    );
  });

  it("runs every example to its end, in the documents' order; the README's program plays a whole game on myTurn alone, with peeks and no move by the clock", async () => {
    const app = (await import(pathToFileURL(path.join(dir, 'app.ts')).href)) as App;
    for (const block of blocks) {
      const before = app.calls.length;
      try {
        await import(pathToFileURL(block.file).href);
      } catch (error) {
        assert.fail(`${block.name} threw: ${error instanceof Error ? error.stack : String(error)}\n${block.source}`);
      }
      const shown = app.calls.slice(before);
      if (block.source.includes("session.on('left'")) {
        assert.deepEqual(
          shown.filter((c) => c.name === 'backToStart').map((c) => c.args[0]),
          ['방에서 나왔어요.'],
          `${block.name}: my own leave() is told as such`,
        );
      }
      if (block.source.includes('await client.resume()'))
        assert.ok(
          shown.some((c) => c.name === 'goToStart'),
          `${block.name}: no seat saved: back to the start`,
        );
    }
    const results = app.calls.filter((c) => c.name === 'showResults');
    assert.equal(results.length, 1, "the README's game reached its results");
    const [result, fair] = results[0].args as [CockroachResult, boolean];
    assert.equal(fair, true, 'its record checks out');
    const record = await new CockroachClient(server.endpoint).fetchRecord(result.gameId);
    const person = record.players.find((p) => !p.bot)!;
    const mine = record.log.filter((entry) => entry.player === person.id);
    assert.deepEqual(
      mine.filter((entry) => entry.auto),
      [],
      'the clock never played for the program: every move of its came on myTurn',
    );
    // A fresh card handed to it at a table of three can always be peeked at: the program does so every time.
    const handed = record.log.flatMap((entry, i) => (entry.action.type === 'offer' && entry.action.to === person.id ? [i] : []));
    const peeked = handed.filter((i) => record.log[i + 1]?.player === person.id && record.log[i + 1].action.type === 'peek');
    assert.deepEqual(peeked, handed, 'it peeked at every card offered to it, and passed each on when myTurn said so');
    assert.ok(mine.length > 0);
  });
});
