import { GameSession, KINDS } from '../../client-sdk/index';
import { avatar } from './avatar';
import { art, el } from './dom';
import type { Page } from './page';
import { checkFairness } from './fairness';
import { kickButton, kickConfirm } from './kick';
import { doorPanel, hostLine, watchersPanel } from './door';
import { highlightLines, lastCardLines, Readers, summaryLine } from './words';

function readers(s: GameSession): Readers {
  return { me: s.snapshot.me, nickname: (id) => s.snapshot.seats.find((x) => x.id === id)?.nickname ?? '' };
}

function fairness(page: Page, s: GameSession): HTMLElement | null {
  const result = s.snapshot.result;
  if (!result?.gameId) return null;
  const out = el('p', { class: 'fair-out', id: 'fair-out' });
  const check = async () => {
    out.textContent = '확인하는 중…';
    out.className = 'fair-out';
    const v = await checkFairness(page.client, result);
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

/** The headline from the result's fields, from the reader's side and in the skin's names. */
function summaryOf(page: Page, s: GameSession): string {
  const r = s.snapshot.result;
  return r ? summaryLine(r, readers(s), page.skin.names, page.skin.group) : '게임이 끝났어요!';
}

/** The call that ended the game, told on the page itself (nothing floats over the results). */
function lastCall(page: Page, s: GameSession): HTMLElement | null {
  const r = s.snapshot.lastReveal;
  if (!r) return null;
  const lines = lastCardLines(r, readers(s), page.skin.names);
  return el(
    'section',
    { class: 'panel last-call', id: 'last-call' },
    el('div', { class: `reveal-card kind-${r.kind}` }, art(page.skin.svg[r.kind])),
    el(
      'div',
      { class: 'reveal-text' },
      el('h2', {}, '마지막 카드'),
      el('div', {}, lines.said),
      el('div', { class: 'reveal-kind' }, lines.answer),
      el('div', { class: 'reveal-took' }, lines.took),
    ),
  );
}

/**
 * Who won, as the rules score it: everyone but the loser wins (+1). The seed's ranking (fewest of
 * one kind in front, then fewest cards) is a secondary display: a small "안전 1위" beside each
 * winner, never a medal that would make a winner read as second.
 */
function ranking(page: Page, s: GameSession): HTMLElement {
  const snap = s.snapshot;
  const result = snap.result;
  const groups = result?.ranking ?? [];
  const seat = (id: string) => snap.seats.find((x) => x.id === id);
  const rows = groups.map((group, i) => {
    const last = i === groups.length - 1;
    return el(
      'li',
      { class: `rank${last ? ' loser' : ''}` },
      el(
        'span',
        { class: `outcome ${last ? 'lost' : 'won'}`, style: `grid-row: 1 / span ${group.length}` },
        el('b', {}, last ? '😵 패배' : '🏆 승리'),
        el('small', {}, last ? '0점' : '+1점'),
        last ? null : el('small', { class: 'place' }, `안전 ${i + 1}위`),
      ),
      ...group.map((id) => {
        const st = seat(id);
        const counts = result!.fronts[id] ?? {};
        return el(
          'span',
          { class: 'rank-player' },
          st ? avatar(st, snap.seats, 'small') : null,
          el('b', {}, st?.nickname ?? '', st?.isMe ? ' (나)' : ''),
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
  return el(
    'section',
    { class: 'panel' },
    el('h2', {}, '🏆 진 사람 빼고 모두 승리!'),
    el('ol', { class: 'ranking', id: 'ranking' }, ...rows),
    el(
      'p',
      { class: 'muted', id: 'ranking-note' },
      '안전 순위: 앞에 같은 그림이 적게 모인 사람부터 (같으면 앞에 놓인 카드가 적은 사람부터).',
    ),
  );
}

/** What comes next, at the bottom of the screen (main.ts docks it): 한 판 더 for the host, the wait for the others. */
export function resultsDock(page: Page, s: GameSession): HTMLElement | null {
  if (s.snapshot.isHost)
    return el('button', { class: 'big primary', id: 'rematch', onclick: () => void page.act(() => s.rematch()) }, '🔁 한 판 더!');
  return s.spectator ? null : el('p', { class: 'waiting' }, '방장이 "한 판 더"를 누르면 같이 해요!');
}

export function resultsScreen(page: Page, s: GameSession): HTMLElement {
  const snap = s.snapshot;
  const result = snap.result;
  const played = snap.gamesPlayed;
  const iLost = !snap.spectator && result?.loser === snap.me;
  const highlights = result ? highlightLines(result.stats, readers(s)) : [];
  return el(
    'main',
    { class: 'results' },
    el(
      'section',
      { class: `panel verdict ${iLost ? 'lost' : 'won'}` },
      el('div', { class: 'big-emoji' }, snap.spectator ? '🎬' : iLost ? '🙈' : '🎉'),
      el('h2', { id: 'summary' }, summaryOf(page, s)),
      snap.spectator ? null : el('p', {}, iLost ? '아쉬워요! 다음 판엔 꼭!' : '이겼어요! 거짓말 탐정 인정!'),
    ),
    lastCall(page, s),
    ranking(page, s),
    highlights.length > 0
      ? el(
          'section',
          { class: 'panel highlights', id: 'highlights' },
          el('h2', {}, '✨ 이번 판의 주인공'),
          el('ul', {}, ...highlights.map((h) => el('li', {}, h))),
        )
      : null,
    played > 0
      ? el(
          'section',
          { class: 'panel scores', id: 'scores' },
          el('h2', {}, `⭐ 누적 점수 (${played}판)`),
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
                  el('span', {}, x.nickname, x.isMe ? ' (나)' : '', x.bot ? ' 🤖' : ''),
                  el('b', {}, `${x.score}점`),
                  kickButton(page, s, x),
                  kickConfirm(page, s, x),
                ),
              ),
          ),
        )
      : null,
    watchersPanel(page, s),
    doorPanel(page, s),
    hostLine(s),
    fairness(page, s),
    el('button', { class: 'ghost leave', id: 'leave', onclick: () => void page.leave() }, '나가기'),
  );
}
