/**
 * The pure parts of the /play page, without a browser (part of `npm test`): the modules form no
 * import cycle, the help's danger legend says what the badges will do, what the clock played is
 * said in words, avatar colours depend on the players only.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { GameSnapshot, SeatSnapshot } from '../../client-sdk/index';
import { KIND_NAMES_KO } from '../../server/rules/kinds';
import { dangerLevel } from '../../server/rules/danger';
import { clockPlayed } from '../../web/src/autoplay';
import { colourOf } from '../../web/src/colours';
import { badgeLabel, dangerLegend } from '../../web/src/danger';

const SRC = path.resolve(__dirname, '../../web/src');

/** web/src's own imports, `import type` included (a cycle through types still hides the order). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of fs.readdirSync(SRC).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))) {
    const text = fs.readFileSync(path.join(SRC, file), 'utf8');
    const deps = [...text.matchAll(/^(?:import|export)\b[^;]*?from '\.\/([\w-]+)'/gms)].map((m) => `${m[1]}.ts`);
    graph.set(file, deps);
  }
  return graph;
}

function seat(id: string, extra: Partial<SeatSnapshot> = {}): SeatSnapshot {
  return { id, nickname: id, isMe: false, away: false, ...extra } as SeatSnapshot;
}

function snap(extra: Partial<GameSnapshot>): GameSnapshot {
  return {
    spectator: false,
    phase: 'playing',
    me: 'me',
    myTurn: false,
    canDo: [],
    step: 10,
    seats: [seat('me', { isMe: true }), seat('bo', { nickname: '보라' })],
    round: {
      no: 1,
      starter: 'me',
      holder: null,
      lastPasser: null,
      claim: null,
      seen: [],
      claims: [],
      hasCard: false,
      cardKind: null,
      deadline: 0,
    },
    lastReveal: null,
    ...extra,
  } as GameSnapshot;
}

describe('/play page modules', () => {
  it('import no module that imports them back (main.ts → screens → page, never back)', () => {
    const graph = importGraph();
    assert.ok(graph.size >= 10 && graph.get('main.ts')!.includes('table.ts'), 'the graph was read');
    const cycles: string[] = [];
    const walk = (file: string, trail: string[]) => {
      if (trail.includes(file)) {
        cycles.push([...trail.slice(trail.indexOf(file)), file].join(' → '));
        return;
      }
      for (const dep of graph.get(file) ?? []) walk(dep, [...trail, file]);
    };
    for (const file of graph.keys()) walk(file, []);
    assert.deepEqual(cycles, []);
  });

  it('promise in the help exactly the badges the table shows, for every loseCount', () => {
    for (const loseCount of [3, 4, 5]) {
      const levels = [1, 2, 3, 4].filter((n) => n < loseCount).map((n) => dangerLevel(n, loseCount));
      const legend = dangerLegend(loseCount);
      const firstRed = levels.indexOf('danger') + 1;
      const firstYellow = levels.indexOf('warning') + 1;
      assert.match(legend, new RegExp(`${firstRed}장이면 🚨 빨간 '위험' 배지`), `${loseCount}: ${legend}`);
      if (firstYellow > 0) assert.match(legend, new RegExp(`${firstYellow}장이면 ⚠️ 노란 '조심' 배지`), `${loseCount}: ${legend}`);
      else assert.doesNotMatch(legend, /노란/, `${loseCount}: no yellow badge can show, so none is promised`);
    }
    assert.equal(badgeLabel('쥐', 1, 'safe'), '쥐 1장');
    assert.equal(badgeLabel('쥐', 3, 'danger'), '쥐 3장, 위험: 한 장만 더 오면 져요');
  });

  it('say what the clock played for the child, from the snapshot that shows it', () => {
    const offered = snap({
      step: 11,
      round: {
        ...snap({}).round,
        holder: 'bo',
        lastPasser: 'me',
        claim: 'rat',
        hasCard: true,
        claims: [{ from: 'me', to: 'bo', claim: 'rat' }],
      },
    });
    assert.equal(clockPlayed('offer', offered, KIND_NAMES_KO), '⏰ 시간이 다 돼서 자동으로 보라님에게 "이건 쥐야!" 하고 건넸어요.');
    assert.equal(clockPlayed('pass', offered, KIND_NAMES_KO), '⏰ 시간이 다 돼서 자동으로 보라님에게 넘겼어요.');
    const called = snap({
      step: 21,
      lastReveal: { kind: 'bat', claim: 'bat', call: 'false', caller: 'me', correct: false, takenBy: 'me' },
    });
    assert.equal(clockPlayed('call', called, KIND_NAMES_KO), '⏰ 시간이 다 돼서 자동으로 "거짓말!"를 골랐어요.');
    assert.equal(
      clockPlayed('call', { ...called, phase: 'ended', loser: 'me', lossReason: 'four', activePlayer: null } as GameSnapshot, KIND_NAMES_KO),
      '⏰ 시간이 다 돼서 자동으로 "거짓말!"를 골랐어요.',
      'the call that ends the game too',
    );
    assert.equal(
      clockPlayed('call', snap({}), KIND_NAMES_KO),
      '⏰ 시간이 다 돼서 내 차례를 자동으로 했어요.',
      'a snapshot that does not show it yet',
    );
  });

  it('colour each player the same on every phone, whatever the seat order, and no two alike', () => {
    const ids = ['Xa9kq1', 'b7Lm2p', 'c0Zz9Q', 'd4Tt5e', 'e8Uu1w', 'f1Ww3r'];
    const a = ids.map((id) => seat(id));
    const b = [...a].reverse();
    const fromA = ids.map((id) => colourOf(id, a));
    const fromB = ids.map((id) => colourOf(id, b));
    assert.deepEqual(fromB, fromA);
    assert.equal(new Set(fromA).size, ids.length);
  });
});
