import type { GameSession, SeatSnapshot } from '../../client-sdk/index';
import { avatar } from './avatar';
import { el } from './dom';
import { dangerLegend } from './danger';
import { copyText, groupCode, inviteLink, qrBox } from './invite';
import { kickButton, kickConfirm } from './kick';
import { doorPanel, hostLine, watchersPanel } from './door';
import type { Page } from './page';

const MAX_SEATS = 6;

function seatRow(page: Page, s: GameSession, seat: SeatSnapshot): HTMLElement {
  const snap = s.snapshot;
  return el(
    'li',
    { class: `seat${seat.isMe ? ' me' : ''}`, 'data-player': seat.id },
    avatar(seat, snap.seats),
    el('span', { class: 'seat-name' }, seat.nickname, seat.isMe ? el('small', {}, ' (나)') : null),
    seat.isHost ? el('span', { class: 'tag host' }, seat.isCreator ? '👑 방장' : '👑 방장 (잠깐)') : null,
    seat.bot ? el('span', { class: 'tag bot' }, '🤖 연습 로봇') : null,
    !seat.connected ? el('span', { class: 'tag away' }, '연결 끊김') : null,
    snap.gamesPlayed > 0 ? el('span', { class: 'tag score' }, `⭐ ${seat.score}점`) : null,
    snap.isHost && seat.bot
      ? el(
          'button',
          { class: 'small ghost remove-bot', 'data-bot': seat.id, onclick: () => void page.act(() => s.removeBot(seat.id)) },
          '빼기',
        )
      : null,
    kickButton(page, s, seat),
    kickConfirm(page, s, seat),
  );
}

/** The code large and grouped for reading aloud, a link to copy, and its QR code to scan. */
function invitePanel(page: Page, code: string): HTMLElement {
  const link = inviteLink(code);
  const field = el('input', { class: 'invite-link', id: 'invite-link', value: link, readonly: true, 'aria-label': '초대 링크' });
  const copy = async () => {
    const copied = await copyText(link, field);
    page.toast(copied ? '링크를 복사했어요! 메시지로 친구에게 보내요.' : '아래 링크를 길게 눌러 복사해요.');
  };
  return el(
    'section',
    { class: 'panel room-code invite' },
    el('p', {}, '친구에게 방 번호를 불러 주세요'),
    el(
      'div',
      { class: 'invite-row' },
      el(
        'div',
        { class: 'invite-main' },
        // Read out digit by digit by a screen reader too.
        el('div', { class: 'code', id: 'room-code', 'aria-label': `방 번호 ${[...code].join(' ')}` }, groupCode(code)),
        el('button', { class: 'small', id: 'copy-link', onclick: () => void copy() }, '🔗 링크 복사'),
      ),
      qrBox(link),
    ),
    field,
    el('p', { class: 'muted' }, '다른 폰의 카메라로 QR 코드를 찍으면 바로 들어와요.'),
  );
}

export function lobbyScreen(page: Page, s: GameSession): HTMLElement {
  const snap = s.snapshot;
  const seats = snap.seats;
  const empty = Math.max(0, MAX_SEATS - seats.length);
  const o = snap.options;
  const loseCount = o.loseCount || (seats.length === 2 ? 5 : 4);
  const rules = [
    `같은 그림 ${loseCount}장이면 져요`,
    `차례 ${o.turnSeconds}초`,
    o.claimHistory ? '주장 기록 보기' : null,
    o.quickChat ? '빠른 대화' : null,
    o.eightKindsRule ? '8종 규칙' : null,
    o.twoPlayerPass ? '둘이서도 떠넘기기' : null,
    o.private ? '🔒 초대한 사람만 들어와요' : '🌍 모두에게 보이는 방',
  ].filter(Boolean) as string[];
  const played = snap.gamesPlayed;
  return el(
    'main',
    { class: 'lobby' },
    snap.locked && !snap.isHost ? null : invitePanel(page, snap.code),
    doorPanel(page, s),
    played > 0 ? el('p', { class: 'games-played' }, `이 방에서 ${played}판 했어요. 점수는 계속 쌓여요!`) : null,
    el(
      'section',
      { class: 'panel' },
      el('h2', {}, `모인 사람 ${seats.length}/${MAX_SEATS}`),
      el(
        'ul',
        { class: 'seats' },
        ...seats.map((seat) => seatRow(page, s, seat)),
        ...Array.from({ length: empty }, () => el('li', { class: 'seat empty' }, '빈 자리')),
      ),
      hostLine(s),
    ),
    watchersPanel(page, s),
    el('section', { class: 'panel rules-chips' }, ...rules.map((r) => el('span', { class: 'chip' }, r))),
    el(
      'details',
      { class: 'panel help' },
      el('summary', {}, '❓ 어떻게 놀아요?'),
      el(
        'ol',
        {},
        el('li', {}, '내 차례에는 카드 한 장을 골라 친구에게 건네며 무슨 그림인지 말해요. 거짓말을 해도 돼요!'),
        el('li', {}, '받은 친구는 "진짜!" 또는 "거짓말!"을 눌러요. 맞히면 건넨 사람이, 틀리면 받은 사람이 카드를 앞에 놓아요.'),
        el('li', {}, '자신 없으면 "몰래 보고 넘기기": 카드를 혼자 보고 아직 안 본 친구에게 다시 건네요.'),
        el('li', {}, `같은 그림이 ${loseCount}장 내 앞에 모이면 져요. ${dangerLegend(loseCount)}`),
      ),
    ),
    snap.isHost
      ? el(
          'section',
          { class: 'panel bots' },
          el('h2', {}, '🤖 연습 로봇'),
          el('p', { class: 'muted' }, '사람이 모자라면 로봇과 함께 해요. 처음이면 다정한 로봇이 좋아요.'),
          el(
            'div',
            { class: 'row' },
            // Gentlest first: a child's practice table (issue 34); `easy`/`smart` are older names kept off the page.
            ...(
              [
                ['gentle', '다정한 로봇'],
                ['normal', '보통 로봇'],
                ['sharp', '영리한 로봇'],
              ] as const
            ).map(([level, label]) =>
              el(
                'button',
                { class: 'big', id: `add-bot-${level}`, disabled: empty === 0, onclick: () => void page.act(() => s.addBot(level)) },
                label,
              ),
            ),
          ),
        )
      : null,
    el('button', { class: 'ghost leave', id: 'leave', onclick: () => void page.leave() }, '방에서 나가기'),
  );
}

/**
 * What comes next, docked at the bottom of the screen (main.ts): 게임 시작 for the host, the wait
 * for everyone else. It is in sight from the first screen on, on a small phone too, and after 한 판 더.
 */
export function lobbyDock(page: Page, s: GameSession): HTMLElement {
  const seats = s.snapshot.seats.length;
  if (s.snapshot.isHost)
    return el(
      'button',
      { class: 'big primary start', id: 'start', disabled: seats < 2, onclick: () => void page.act(() => s.start()) },
      seats < 2 ? '2명 이상 모이면 시작해요' : '🎉 게임 시작!',
    );
  return el('p', { class: 'waiting' }, s.spectator ? '👀 구경하는 중이에요. 게임이 시작되면 보여요.' : '방장이 시작하기를 기다려요…');
}
