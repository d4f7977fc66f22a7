import type { GameSession } from '../../client-sdk/index';
import { el } from './dom';
import { kickButton, kickConfirm } from './kick';
import type { Page } from './page';

/**
 * Who may come in (issue 32): the door's state for everyone, and the host's switch. Anyone who is
 * host may lock; only the room's creator opens it again, so a stand-in cannot let strangers in.
 */
export function doorPanel(page: Page, s: GameSession): HTMLElement {
  const snap = s.snapshot;
  const locked = snap.locked;
  const canOpen = snap.isHost && snap.isCreator;
  const toggle = !snap.isHost
    ? null
    : locked
      ? canOpen
        ? el('button', { class: 'small', id: 'unlock', onclick: () => void page.act(() => s.unlock()) }, '🔓 문 열기')
        : null
      : el('button', { class: 'small', id: 'lock', onclick: () => void page.act(() => s.lock()) }, '🔒 문 잠그기');
  return el(
    'section',
    { class: `panel door${locked ? ' locked' : ''}`, id: 'door' },
    el(
      'p',
      { id: 'door-state' },
      locked ? '🔒 문이 잠겼어요. 지금 있는 사람만 들어올 수 있어요.' : '🚪 방 번호를 아는 친구는 들어올 수 있어요.',
    ),
    toggle,
    locked && snap.isHost && !canOpen ? el('p', { class: 'muted' }, '문은 방을 만든 사람만 열 수 있어요.') : null,
  );
}

/** Why the host is the host, in a line a child reads (issue 32 "Show the rule in /play"). */
export function hostLine(s: GameSession): HTMLElement | null {
  const snap = s.snapshot;
  const host = snap.seats.find((seat) => seat.isHost);
  if (!host) return el('p', { class: 'host-why muted', id: 'host-why' }, '👑 방장이 돌아오기를 기다려요.');
  const who = host.isMe ? '내가' : `${host.nickname}님이`;
  if (host.isCreator) return el('p', { class: 'host-why muted', id: 'host-why' }, `👑 방을 만든 ${who} 방장이에요.`);
  return el(
    'p',
    { class: 'host-why muted', id: 'host-why' },
    `👑 방을 만든 사람이 자리에 없어서 ${who} 잠깐 방장을 맡았어요. 방을 만든 사람이 돌아오면 다시 방장이 돼요.`,
  );
}

/** Who is watching: everyone sees them; the creator may remove one. */
export function watchersPanel(page: Page, s: GameSession): HTMLElement | null {
  const watchers = s.snapshot.watchers;
  if (watchers.length === 0) return null;
  return el(
    'section',
    { class: 'panel watchers', id: 'watchers' },
    el('h2', {}, `👀 구경하는 사람 ${watchers.length}명`),
    el(
      'ul',
      { class: 'watcher-list' },
      ...watchers.map((w) =>
        el(
          'li',
          { class: `watcher${w.isMe ? ' me' : ''}`, 'data-watcher': w.id },
          el('span', { class: 'watcher-name' }, w.isMe ? '나' : w.nickname),
          kickButton(page, s, w),
          kickConfirm(page, s, w),
        ),
      ),
    ),
  );
}

/** On the table: one short line of who watches (the list with its buttons is in the lobby and the results). */
export function watchersLine(s: GameSession): HTMLElement | null {
  const watchers = s.snapshot.watchers;
  if (watchers.length === 0) return null;
  const names = watchers.map((w) => (w.isMe ? '나' : w.nickname)).join(', ');
  return el('p', { class: 'watchers-line muted', id: 'watchers-line' }, `👀 구경: ${names}`);
}
