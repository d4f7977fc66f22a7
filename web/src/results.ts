import { GameSession, KINDS } from '../../client-sdk/index';
import { avatar } from './avatar';
import { claimLine } from './art';
import { art, el } from './dom';
import type { Page } from './page';
import { checkFairness } from './fairness';
import { kickButton, kickConfirm } from './kick';

const MEDALS = ['🥇', '🥈', '🥉'];

function fairness(s: GameSession): HTMLElement | null {
  const result = s.snapshot.result;
  if (!result?.gameId) return null;
  const out = el('p', { class: 'fair-out', id: 'fair-out' });
  const check = async () => {
    out.textContent = '확인하는 중…';
    out.className = 'fair-out';
    const v = await checkFairness(result);
    out.textContent = v.ok ? '✅ 공정한 게임이었어요! 카드 섞기와 모든 수가 기록과 딱 맞아요.' : `⚠️ ${v.why}`;
    out.className = `fair-out ${v.ok ? 'good' : 'bad'}`;
  };
  return el(
    'section',
    { class: 'panel fairness' },
    el('h2', {}, '🔍 공정했을까?'),
    el('p', { class: 'muted' }, '서버가 카드를 몰래 정하지 않았는지 이 폰에서 직접 확인해요.'),
    el('button', { class: 'big', id: 'verify', onclick: () => void check() }, '공정함 확인하기'),
    out,
  );
}

/**
 * The server's summary names the kinds as critters; in the animal skin the same sentence is
 * told with the skin's names, from the same result fields.
 */
function summaryOf(page: Page, s: GameSession): string {
  const r = s.snapshot.result;
  if (!r) return '게임이 끝났어요!';
  if (page.skin.name === 'bugs' || r.reason !== 'four' || !r.losingKind) return r.summary;
  const name = s.snapshot.seats.find((x) => x.id === r.loser)?.nickname ?? '';
  return `${name}님 앞에 ${page.skin.names[r.losingKind]} ${r.fronts[r.loser]?.[r.losingKind] ?? ''}장! ${name}님 패배, 나머지 모두 승리`;
}

/** The call that ended the game, told on the page itself (nothing floats over the results). */
function lastCall(page: Page, s: GameSession): HTMLElement | null {
  const r = s.snapshot.lastReveal;
  if (!r) return null;
  const name = (id: string) => (id === s.snapshot.me ? '나' : (s.snapshot.seats.find((x) => x.id === id)?.nickname ?? ''));
  return el(
    'section',
    { class: 'panel last-call', id: 'last-call' },
    el('div', { class: `reveal-card kind-${r.kind}` }, art(page.skin.svg[r.kind])),
    el(
      'div',
      { class: 'reveal-text' },
      el('h2', {}, '마지막 카드'),
      el('div', {}, `"${claimLine(page.skin.names[r.claim])}" → ${name(r.caller)}: "${r.call === 'true' ? '진짜!' : '거짓말!'}"`),
      el('div', { class: 'reveal-kind' }, `정답은 ${page.skin.names[r.kind]}! ${r.correct ? '맞혔어요.' : '틀렸어요.'}`),
      el('div', { class: 'reveal-took' }, `카드는 ${name(r.takenBy)}${r.takenBy === s.snapshot.me ? '' : '님'} 앞으로 갔어요`),
    ),
  );
}

export function resultsScreen(page: Page, s: GameSession): HTMLElement {
  const snap = s.snapshot;
  const result = snap.result;
  const seat = (id: string) => snap.seats.find((x) => x.id === id);
  const name = (id: string) => seat(id)?.nickname ?? '';
  const ranking = result?.ranking ?? [];
  const played = snap.gamesPlayed;
  const rows = ranking.map((group, i) => {
    const last = i === ranking.length - 1;
    return el(
      'li',
      { class: `rank${last ? ' loser' : ''}` },
      el('span', { class: `medal${last || MEDALS[i] ? '' : ' place'}` }, last ? '😵' : (MEDALS[i] ?? `${i + 1}등`)),
      ...group.map((id) => {
        const st = seat(id);
        const counts = result!.fronts[id] ?? {};
        return el(
          'span',
          { class: 'rank-player' },
          st ? avatar(st, snap.seats, 'small') : null,
          el('b', {}, name(id), st?.isMe ? ' (나)' : ''),
          el(
            'span',
            { class: 'rank-fronts' },
            ...KINDS.filter((k) => (counts[k] ?? 0) > 0).map((k) =>
              el(
                'span',
                { class: `badge ${k === result!.losingKind && last ? 'danger' : 'safe'}` },
                art(page.skin.svg[k], 'art mini'),
                el('b', {}, counts[k]),
              ),
            ),
          ),
        );
      }),
    );
  });
  const me = snap.seats.find((x) => x.isMe);
  const iLost = me && result?.loser === me.id;
  return el(
    'main',
    { class: 'results' },
    el(
      'section',
      { class: `panel verdict ${iLost ? 'lost' : 'won'}` },
      el('div', { class: 'big-emoji' }, s.spectator ? '🎬' : iLost ? '🙈' : '🎉'),
      el('h2', { id: 'summary' }, summaryOf(page, s)),
      s.spectator ? null : el('p', {}, iLost ? '아쉬워요! 다음 판엔 꼭!' : '이겼어요! 거짓말 탐정 인정!'),
    ),
    lastCall(page, s),
    el('section', { class: 'panel' }, el('h2', {}, '순위'), el('ol', { class: 'ranking', id: 'ranking' }, ...rows)),
    result && result.highlights.length > 0
      ? el(
          'section',
          { class: 'panel highlights', id: 'highlights' },
          el('h2', {}, '✨ 이번 판의 주인공'),
          el('ul', {}, ...result.highlights.map((h) => el('li', {}, h))),
        )
      : null,
    played > 0
      ? el(
          'section',
          { class: 'panel scores', id: 'scores' },
          el('h2', {}, `⭐ 누적 점수${played ? ` (${played}판)` : ''}`),
          el(
            'ul',
            {},
            ...[...snap.seats]
              .sort((a, b) => b.score - a.score)
              .map((x) =>
                el(
                  'li',
                  { 'data-player': x.id },
                  avatar(x, snap.seats, 'small'),
                  el('span', {}, x.nickname, x.bot ? ' 🤖' : ''),
                  el('b', {}, `${x.score}점`),
                  kickButton(page, s, x),
                  kickConfirm(page, s, x),
                ),
              ),
          ),
        )
      : null,
    fairness(s),
    snap.isHost
      ? el('button', { class: 'big primary', id: 'rematch', onclick: () => void page.act(() => s.rematch()) }, '🔁 한 판 더!')
      : !s.spectator
        ? el('p', { class: 'waiting' }, '방장이 "한 판 더"를 누르면 같이 해요!')
        : null,
    el('button', { class: 'ghost leave', id: 'leave', onclick: () => void page.leave() }, '나가기'),
  );
}
