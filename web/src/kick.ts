import type { GameSession, SeatSnapshot } from '../../client-sdk/index';
import { el } from './dom';
import type { Page } from './page';

/**
 * The host's way to say no (PROTOCOL v3 `kick`, in the lobby and on the results screen): a
 * 내보내기 button on each other person's row, then, in the row itself, "정말 …님을 내보낼까요?" with
 * 내보내기 / 취소. Bots keep their 빼기 (removeBot). A removed player cannot come back to this room.
 */
export function kickButton(page: Page, s: GameSession, seat: SeatSnapshot): HTMLElement | null {
  if (!s.snapshot.isHost || seat.bot || seat.isMe || page.askKick === seat.id) return null;
  return el(
    'button',
    {
      class: 'small ghost kick',
      'data-kick': seat.id,
      'aria-label': `${seat.nickname}님 내보내기`,
      onclick: () => {
        page.askKick = seat.id;
        page.render();
      },
    },
    '내보내기',
  );
}

export function kickConfirm(page: Page, s: GameSession, seat: SeatSnapshot): HTMLElement | null {
  if (!s.snapshot.isHost || page.askKick !== seat.id) return null;
  const close = () => {
    page.askKick = null;
    page.render();
  };
  return el(
    'div',
    { class: 'ask-kick', id: 'ask-kick', role: 'alertdialog', 'aria-label': `${seat.nickname}님을 내보낼까요?` },
    el('p', {}, `정말 ${seat.nickname}님을 내보낼까요? 이 방에 다시 들어올 수 없어요.`),
    el(
      'div',
      { class: 'row' },
      el(
        'button',
        {
          class: 'small danger-button',
          id: 'kick-confirm',
          onclick: async () => {
            page.askKick = null;
            await page.act(() => s.kick(seat.id));
            page.render();
          },
        },
        '내보내기',
      ),
      el('button', { class: 'small ghost', id: 'kick-cancel', onclick: close }, '취소'),
    ),
  );
}
