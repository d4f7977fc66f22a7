/**
 * The page's Korean lines about people and cards, told from the side of whoever reads them: I am
 * "나" (내 앞, 내가), never "…님"; everyone else is "…님"; a particle follows the word it is
 * attached to (SDK `withParticle`). No pictures here, so tests import it without the bundler.
 */
import type { CockroachResult, DeepReadonly, GameStats, Kind, RevealSnapshot } from '../../client-sdk/index';
import { claimLine, withParticle } from '../../client-sdk/index';

export { claimLine };

/** The animal skin's names for the eight kinds (rules section 12: the same keys, other pictures and words). */
export const ANIMAL_NAMES: Readonly<Record<Kind, string>> = {
  cockroach: '강아지',
  bat: '고양이',
  fly: '병아리',
  toad: '토끼',
  rat: '곰',
  scorpion: '여우',
  spider: '판다',
  stinkbug: '돼지',
};

/** Who reads the line (null: a watcher) and the table's nicknames. */
export interface Readers {
  me: string | null;
  nickname(id: string): string;
}

type Result = DeepReadonly<CockroachResult>;

/** "나" or "지우님": a person named alone. */
export function person(p: Readers, id: string): string {
  return id === p.me ? '나' : `${p.nickname(id)}님`;
}

/** "내가" or "지우님이": a person as the subject. */
export function subject(p: Readers, id: string): string {
  return id === p.me ? '내가' : withParticle(`${p.nickname(id)}님`, '이/가');
}

/** "내" or "지우님": whose front or hand ("내 앞", "지우님 앞"). */
export function whose(p: Readers, id: string): string {
  return id === p.me ? '내' : `${p.nickname(id)}님`;
}

/** A bot's name in a tile or a target button: its face is already 🤖, so "로봇 별이" is "별이". */
export function tileName(seat: { nickname: string; bot: boolean }): string {
  const short = seat.bot ? seat.nickname.replace(/^로봇\s+/, '') : seat.nickname;
  return short || seat.nickname;
}

const callWord = (call: 'true' | 'false') => (call === 'true' ? '진짜!' : '거짓말!');

/** How the reveal feels for this reader: the card comes to me (bad), I judged right (good), or neither. */
export type Tone = 'good' | 'bad' | 'neutral';

/** The reveal in the middle of the table, worded for the one who reads it. */
export function revealWords(
  r: RevealSnapshot,
  p: Readers,
  names: Readonly<Record<Kind, string>>,
): { call: string; kind: string; verdict: string; tone: Tone; took: string } {
  const mine = r.takenBy === p.me;
  const judged = r.correct ? '맞혔어요' : '틀렸어요';
  return {
    call: `${r.caller === p.me ? '나' : p.nickname(r.caller)}: "${callWord(r.call)}"`,
    kind: `정답은 ${names[r.kind]}!`,
    verdict: `${subject(p, r.caller)} ${judged}${mine ? '…' : '!'}`,
    tone: mine ? 'bad' : r.caller === p.me ? 'good' : 'neutral',
    took: mine ? '카드는 내 앞으로 와요' : `카드는 ${whose(p, r.takenBy)} 앞으로 가요`,
  };
}

/** One line for the last call, under the card in flight: "지난 카드: 나 "진짜!" → 쥐, 내 앞으로" (who called, as a speaker's label). */
export function lastCallLine(r: RevealSnapshot, p: Readers, names: Readonly<Record<Kind, string>>): string {
  const caller = r.caller === p.me ? '나' : p.nickname(r.caller);
  return `지난 카드: ${caller} "${callWord(r.call)}" → ${names[r.kind]}, ${whose(p, r.takenBy)} 앞으로`;
}

/** The results' last card, in three lines. */
export function lastCardLines(
  r: RevealSnapshot,
  p: Readers,
  names: Readonly<Record<Kind, string>>,
): { said: string; answer: string; took: string } {
  return {
    said: `"${claimLine(r.claim, names)}" → ${person(p, r.caller)}: "${callWord(r.call)}"`,
    answer: `정답은 ${names[r.kind]}! ${subject(p, r.caller)} ${r.correct ? '맞혔어요.' : '틀렸어요.'}`,
    took: `카드는 ${whose(p, r.takenBy)} 앞으로 갔어요`,
  };
}

/**
 * The results' headline, from the result's fields (the server's `summary` names everyone "…님",
 * the reader too, and the critters of the bugs skin): "내 앞에 전갈 4장! 내가 졌어요. 나머지 모두 승리".
 * `group` is what the skin calls its eight kinds ("벌레", "동물").
 */
export function summaryLine(result: Result, p: Readers, names: Readonly<Record<Kind, string>>, group: string): string {
  const loser = result.loser;
  const front = `${whose(p, loser)} 앞에`;
  const count = result.losingKind ? (result.fronts[loser]?.[result.losingKind] ?? '') : '';
  const what =
    result.reason === 'four' && result.losingKind
      ? `${front} ${names[result.losingKind]} ${count}장!`
      : result.reason === 'eightKinds'
        ? `${front} ${group} 8종이 모두 모였어요!`
        : `${whose(p, loser)} 손에 건넬 카드가 하나도 없어요!`;
  const tail = loser === p.me ? '내가 졌어요. 나머지 모두 승리' : `${person(p, loser)} 패배, 나머지 모두 승리`;
  return `${what} ${tail}`;
}

/** "나", "나와 지우님", "지우님, 민수님, 하늘님": me first, so the particle after the list follows "…님". */
function people(ids: readonly string[], p: Readers): string {
  const sorted = [...ids].sort((a, b) => Number(b === p.me) - Number(a === p.me));
  const list = sorted.map((id) => person(p, id));
  return list.length === 2 ? `${withParticle(list[0], '과/와')} ${list[1]}` : list.join(', ');
}

/** The list as the subject: "내가", "나와 지우님이", "지우님이". */
function peopleAsSubject(ids: readonly string[], p: Readers): string {
  return ids.length === 1 ? subject(p, ids[0]) : withParticle(people(ids, p), '이/가');
}

function leaders(stats: DeepReadonly<GameStats>, field: 'bluffs' | 'correctCalls' | 'peeks'): { ids: string[]; value: number } {
  const value = Math.max(0, ...Object.values(stats).map((s) => s[field]));
  return { ids: Object.keys(stats).filter((id) => stats[id][field] === value), value };
}

/**
 * The results' highlights from `result.stats`, as the server's `highlights` say them but from the
 * reader's side ("내가 거짓말을 가장 많이 했어요", never "엄마님이" on 엄마's own phone).
 */
export function highlightLines(stats: DeepReadonly<GameStats>, p: Readers): string[] {
  const out: string[] = [];
  const bluffers = leaders(stats, 'bluffs');
  if (bluffers.value > 0) {
    out.push(`${peopleAsSubject(bluffers.ids, p)} 거짓말을 가장 많이 했어요 (${bluffers.value}번)!`);
    const honest = Object.keys(stats).filter((id) => stats[id].claims >= 2 && stats[id].bluffs === 0);
    if (honest.length > 0) {
      const who = honest.length === 1 && honest[0] === p.me ? '나는' : withParticle(people(honest, p), '은/는');
      out.push(`${who} 한 번도 거짓말을 하지 않았어요.`);
    }
  } else {
    out.push('아무도 거짓말을 하지 않았어요. 모두 정직했어요!');
  }
  const callers = leaders(stats, 'correctCalls');
  if (callers.value > 0) out.push(`${peopleAsSubject(callers.ids, p)} 판정을 가장 많이 맞혔어요 (${callers.value}번)!`);
  const peekers = leaders(stats, 'peeks');
  if (peekers.value > 0) out.push(`${peopleAsSubject(peekers.ids, p)} 카드를 가장 많이 몰래 봤어요 (${peekers.value}번).`);
  return out;
}
