import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';

const SDK = path.resolve(__dirname, '../../client-sdk/index').replace(/\\/g, '/');

/**
 * An app's code with typos. Every line marked `// typo` must fail to compile; every other line
 * (the same calls spelled right) must compile.
 */
const APP = `import { CockroachClient, SdkError } from '${SDK}';
import type { GameSession, GameSnapshot, Kind, SdkErrorCode } from '${SDK}';

export async function app(session: GameSession, snapshot: GameSnapshot, e: SdkError): Promise<void> {
  if (e.code === 'ROOM_NOT_FOUND') return;
  if (e.code === 'ROOM_NOT_FOUN') return; // typo
  if (e.code === 'KICKED' || e.code === 'AUTH_INVALID' || e.code === 'NOT_YOUR_TURN' || e.code === 'CONNECTION_LOST') return;
  if (e.code === 'CONECTION_LOST') return; // typo
  const known: SdkErrorCode = 'SEAT_GONE';
  const unknown: SdkErrorCode = 'SEAT_GONNE'; // typo
  session.on('change', (s) => s.phase);
  session.on('chnage', () => undefined); // typo
  session.once('reconnectFailed', (error) => error.code);
  session.once('reconectFailed', () => undefined); // typo
  session.on('myTurn', (turn) => turn.canDo.includes('offer'));
  session.on('myTurn', (turn) => turn.canDo.includes('ofer')); // typo
  const lose: 3 | 4 | 5 = snapshot.options.loseCount;
  const seconds: 15 | 30 | 60 = snapshot.options.turnSeconds;
  if (snapshot.options.loseCount === 6) return; // typo
  if (snapshot.options.turnSeconds === 45) return; // typo
  if (snapshot.phase === 'ended') return;
  if (snapshot.phase === 'finished') return; // typo
  const client = new CockroachClient('wss://game.example.com');
  await client.create('민수', { loseCount: 3, turnSeconds: 15 });
  await client.create('민수', { loseCount: 7 }); // typo
  await client.create('민수', { turnSecond: 30 }); // typo
  await session.addBot('easy');
  await session.addBot('hard'); // typo
  await session.chat('nice');
  await session.chat('hello'); // typo
  await session.offer(1, 'x', 'rat');
  await session.offer(1, 'x', 'mouse'); // typo
  void [known, unknown, lose, seconds];
}

export function reads(snapshot: GameSnapshot): void {
  // The snapshot is read-only, and narrowed where the state guarantees a value (no \`!\`).
  const claimed: Kind = snapshot.round.claim; // typo
  if (snapshot.round.hasCard) {
    const claim: Kind = snapshot.round.claim;
    const holder: string = snapshot.round.holder;
    const seenKind: Kind = snapshot.round.cardKind; // typo
    if (snapshot.round.seenByMe) void [claim, holder, seenKind, snapshot.round.cardKind satisfies Kind];
  }
  const me: string = snapshot.me; // typo
  if (!snapshot.spectator) void [snapshot.me satisfies string, snapshot.mySeat.nickname];
  if (snapshot.phase === 'playing') void (snapshot.activePlayer satisfies string);
  if (snapshot.phase === 'ended') void [snapshot.loser satisfies string, snapshot.lossReason satisfies 'four' | 'emptyHand' | 'eightKinds'];
  // Last: an assignment, even a refused one, narrows what follows it.
  snapshot.phase = 'ended'; // typo
  snapshot.seats[0].nickname = '지우'; // typo
  snapshot.seats.push(snapshot.seats[0]); // typo
  snapshot.round.seen.length = 0; // typo
  void [claimed, me];
}
`;

describe('SDK types: typos fail to compile (closed unions)', function () {
  this.timeout(60000);

  it('refuses every misspelt error code, event name and option value and every write to the snapshot, and accepts the right spellings and the narrowed reads', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sdk-types-'));
    try {
      const file = path.join(dir, 'app.ts');
      writeFileSync(file, APP);
      const program = ts.createProgram([file], {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2020,
        module: ts.ModuleKind.CommonJS,
        moduleResolution: ts.ModuleResolutionKind.Node10,
        lib: ['lib.es2020.d.ts', 'lib.dom.d.ts'],
        types: [],
        experimentalDecorators: true,
        useDefineForClassFields: false,
        esModuleInterop: true,
        skipLibCheck: true,
      });
      const source = program.getSourceFile(file)!;
      const errorLines = new Set<number>();
      const elsewhere: string[] = [];
      for (const d of ts.getPreEmitDiagnostics(program)) {
        const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
        if (d.file !== source || d.start === undefined) elsewhere.push(`${d.file?.fileName ?? ''}: ${text}`);
        else errorLines.add(source.getLineAndCharacterOfPosition(d.start).line);
      }
      assert.deepEqual(elsewhere, [], 'the SDK itself compiles');
      const lines = APP.split('\n');
      const typos = lines.flatMap((line, i) => (line.endsWith('// typo') ? [i] : []));
      assert.equal(typos.length, 21);
      const missed = typos.filter((i) => !errorLines.has(i)).map((i) => lines[i].trim());
      const wrong = [...errorLines].filter((i) => !lines[i].endsWith('// typo')).map((i) => lines[i].trim());
      assert.deepEqual(missed, [], 'typos that compiled');
      assert.deepEqual(wrong, [], 'right spellings that did not compile');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
