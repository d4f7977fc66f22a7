/**
 * The pure parts of the /play page, without a browser (part of `npm test`): the modules form no
 * import cycle, the help's danger legend says what the badges will do, what the clock played is
 * said in words, avatar colours depend on the players only, and the Korean lines: particles by
 * the last syllable for every kind of both skins, "나" / "내" for the reader (never "…님").
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { KINDS } from '../../client-sdk/index';
import type { CockroachResult, GameSnapshot, Kind, SeatSnapshot } from '../../client-sdk/index';
import { KIND_NAMES_KO } from '../../server/rules/kinds';
import { dangerLevel } from '../../server/rules/danger';
import { clockPlayed } from '../../web/src/autoplay';
import { colourOf } from '../../web/src/colours';
import { badgeLabel, dangerLegend } from '../../web/src/danger';
import {
  ANIMAL_NAMES,
  claimLine,
  highlightLines,
  lastCallLine,
  lastCardLines,
  Readers,
  revealWords,
  summaryLine,
  tileName,
} from '../../web/src/words';

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
      clockPlayed(
        'call',
        { ...called, phase: 'ended', loser: 'me', lossReason: 'four', activePlayer: null } as GameSnapshot,
        KIND_NAMES_KO,
      ),
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

  describe('Korean lines', () => {
    const nick: Record<string, string> = { me: '엄마', kid: '지우', bot: '로봇 별이', hana: '하늘' };
    const mom: Readers = { me: 'me', nickname: (id) => nick[id] };
    const watcher: Readers = { me: null, nickname: (id) => nick[id] };
    // Each line written out by hand: 받침 → 이야, none → 야.
    const CLAIMS: [Record<string, string>, string[]][] = [
      [
        KIND_NAMES_KO,
        [
          '이건 바퀴벌레야!',
          '이건 박쥐야!',
          '이건 파리야!',
          '이건 두꺼비야!',
          '이건 쥐야!',
          '이건 전갈이야!',
          '이건 거미야!',
          '이건 노린재야!',
        ],
      ],
      [
        ANIMAL_NAMES,
        [
          '이건 강아지야!',
          '이건 고양이야!',
          '이건 병아리야!',
          '이건 토끼야!',
          '이건 곰이야!',
          '이건 여우야!',
          '이건 판다야!',
          '이건 돼지야!',
        ],
      ],
    ];

    it('say the claim with the particle its last syllable takes, for the 8 kinds of both skins', () => {
      for (const [names, lines] of CLAIMS) {
        assert.deepEqual(
          KINDS.map((k) => claimLine(k, names as Record<Kind, string>)),
          lines,
        );
      }
      assert.equal(claimLine('scorpion'), '이건 전갈이야!', "the default names are the rules' critters");
    });

    it("tell the reveal from the reader's side: a robot that judged right sends the card to me, and that is not good news", () => {
      const robotRight = revealWords(
        { kind: 'bat', claim: 'bat', call: 'true', caller: 'bot', correct: true, takenBy: 'me' },
        mom,
        KIND_NAMES_KO,
      );
      assert.deepEqual(robotRight, {
        call: '로봇 별이: "진짜!"',
        kind: '정답은 박쥐!',
        verdict: '로봇 별이님이 맞혔어요…',
        tone: 'bad',
        took: '카드는 내 앞으로 와요',
      });
      const iWasWrong = revealWords(
        { kind: 'rat', claim: 'bat', call: 'true', caller: 'me', correct: false, takenBy: 'me' },
        mom,
        KIND_NAMES_KO,
      );
      assert.deepEqual(
        [iWasWrong.call, iWasWrong.verdict, iWasWrong.tone, iWasWrong.took],
        ['나: "진짜!"', '내가 틀렸어요…', 'bad', '카드는 내 앞으로 와요'],
      );
      const iWasRight = revealWords(
        { kind: 'rat', claim: 'bat', call: 'false', caller: 'me', correct: true, takenBy: 'kid' },
        mom,
        ANIMAL_NAMES,
      );
      assert.deepEqual(
        [iWasRight.kind, iWasRight.verdict, iWasRight.tone, iWasRight.took],
        ['정답은 곰!', '내가 맞혔어요!', 'good', '카드는 지우님 앞으로 가요'],
      );
      const others = revealWords(
        { kind: 'rat', claim: 'rat', call: 'false', caller: 'hana', correct: false, takenBy: 'hana' },
        watcher,
        KIND_NAMES_KO,
      );
      assert.deepEqual([others.verdict, others.tone, others.took], ['하늘님이 틀렸어요!', 'neutral', '카드는 하늘님 앞으로 가요']);
    });

    it('say "내 앞으로" and "내가", never "나 앞으로" or the reader\'s own name with 님', () => {
      const toMe = { kind: 'scorpion', claim: 'rat', call: 'true', caller: 'me', correct: false, takenBy: 'me' } as const;
      assert.equal(lastCallLine(toMe, mom, KIND_NAMES_KO), '지난 카드: 나 "진짜!" → 전갈, 내 앞으로');
      assert.deepEqual(lastCardLines(toMe, mom, KIND_NAMES_KO), {
        said: '"이건 쥐야!" → 나: "진짜!"',
        answer: '정답은 전갈! 내가 틀렸어요.',
        took: '카드는 내 앞으로 갔어요',
      });
      assert.equal(
        lastCallLine({ ...toMe, caller: 'kid', takenBy: 'kid' }, mom, KIND_NAMES_KO),
        '지난 카드: 지우 "진짜!" → 전갈, 지우님 앞으로',
      );
      const stats = {
        me: { claims: 5, bluffs: 4, calls: 2, correctCalls: 2, peeks: 1 },
        kid: { claims: 4, bluffs: 4, calls: 3, correctCalls: 1, peeks: 0 },
        bot: { claims: 3, bluffs: 0, calls: 1, correctCalls: 0, peeks: 1 },
      };
      const lost = {
        gameId: 'x',
        loser: 'me',
        reason: 'four',
        losingKind: 'scorpion',
        ranking: [['bot'], ['kid'], ['me']],
        fronts: { me: { scorpion: 4 } },
        scores: { me: 0, kid: 1, bot: 1 },
        summary: '엄마님 앞에 전갈 4장! 엄마님 패배, 나머지 모두 승리',
        stats,
        highlights: [],
      } as unknown as CockroachResult;
      const lines = [
        summaryLine(lost, mom, KIND_NAMES_KO, '벌레'),
        ...highlightLines(stats, mom),
        summaryLine({ ...lost, loser: 'kid', fronts: { kid: { scorpion: 4 } } } as unknown as CockroachResult, mom, ANIMAL_NAMES, '동물'),
        summaryLine({ ...lost, reason: 'eightKinds', losingKind: undefined }, mom, ANIMAL_NAMES, '동물'),
        summaryLine({ ...lost, reason: 'emptyHand', losingKind: undefined }, mom, KIND_NAMES_KO, '벌레'),
        ...highlightLines({ me: stats.me }, mom),
        ...highlightLines({ bot: stats.bot, kid: stats.kid }, mom),
      ];
      assert.deepEqual(lines, [
        '내 앞에 전갈 4장! 내가 졌어요. 나머지 모두 승리',
        '나와 지우님이 거짓말을 가장 많이 했어요 (4번)!',
        '로봇 별이님은 한 번도 거짓말을 하지 않았어요.',
        '내가 판정을 가장 많이 맞혔어요 (2번)!',
        '나와 로봇 별이님이 카드를 가장 많이 몰래 봤어요 (1번).',
        '지우님 앞에 여우 4장! 지우님 패배, 나머지 모두 승리',
        '내 앞에 동물 8종이 모두 모였어요! 내가 졌어요. 나머지 모두 승리',
        '내 손에 건넬 카드가 하나도 없어요! 내가 졌어요. 나머지 모두 승리',
        '내가 거짓말을 가장 많이 했어요 (4번)!',
        '내가 판정을 가장 많이 맞혔어요 (2번)!',
        '내가 카드를 가장 많이 몰래 봤어요 (1번).',
        '지우님이 거짓말을 가장 많이 했어요 (4번)!',
        '로봇 별이님은 한 번도 거짓말을 하지 않았어요.',
        '지우님이 판정을 가장 많이 맞혔어요 (1번)!',
        '로봇 별이님이 카드를 가장 많이 몰래 봤어요 (1번).',
      ]);
      for (const line of lines) assert.doesNotMatch(line, /엄마님|나 앞으로|나님/, line);
    });

    it("name a bot's tile without 로봇 (its face is 🤖), a person's as typed", () => {
      assert.equal(tileName({ nickname: '로봇 별이', bot: true }), '별이');
      assert.equal(tileName({ nickname: '로봇 별이 2', bot: true }), '별이 2');
      assert.equal(tileName({ nickname: '로봇', bot: false }), '로봇');
      assert.equal(tileName({ nickname: '로봇 태권', bot: false }), '로봇 태권', 'only a bot');
    });
  });
});
