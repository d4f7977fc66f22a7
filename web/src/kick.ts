import type { GameSession } from '../../client-sdk/index';
import { el } from './dom';
import type { Page } from './page';

/** Someone the host may remove: a seated person (never a bot: 빼기 removes those) or a watcher. */
export interface Removable {
  readonly id: string;
  readonly nickname: string;
  readonly isMe: boolean;
  readonly bot?: boolean;
}

/** Only the room's creator, as host, removes people (issue 32): a stand-in host never can. */
function mayKick(s: GameSession): boolean {
  return s.snapshot.isHost && s.snapshot.isCreator;
}

/**
 * The creator's way to say no (PROTOCOL v3 `kick`; issue 32): a 내보내기 button on each other
 * person's row (players in the lobby and on the results screen, watchers any time), then, in the
 * row itself, "정말 …님을 내보낼까요?" with 내보내기 / 취소. A removed person cannot come back to this
 * room, and the door locks so nobody new comes in until the host opens it.
 */
export function kickButton(page: Page, s: GameSession, who: Removable): HTMLElement | null {
  if (!mayKick(s) || who.bot || who.isMe || page.askKick === who.id) return null;
  return el(
    'button',
    {
      class: 'small ghost kick',
      'data-kick': who.id,
      'aria-label': `${who.nickname}님 내보내기`,
      onclick: () => {
        page.askKick = who.id;
        page.render();
      },
    },
    '내보내기',
  );
}

export function kickConfirm(page: Page, s: GameSession, who: Removable): HTMLElement | null {
  if (!mayKick(s) || page.askKick !== who.id) return null;
  const close = () => {
    page.askKick = null;
    page.render();
  };
  return el(
    'div',
    { class: 'ask-kick', id: 'ask-kick', role: 'alertdialog', 'aria-label': `${who.nickname}님을 내보낼까요?` },
    el('p', {}, `정말 ${who.nickname}님을 내보낼까요? 이 방에 다시 들어올 수 없어요. 그리고 방 문이 잠겨요.`),
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
            await page.act(() => s.kick(who.id));
            page.render();
          },
        },
        '내보내기',
      ),
      el('button', { class: 'small ghost', id: 'kick-cancel', onclick: close }, '취소'),
    ),
  );
}
