/**
 * The /play page: a whole family table on the client SDK alone (no second client). Screens:
 * entry (make / find a room), lobby, table, results; a banner while the SDK reconnects; the seat
 * is taken back after a reload through a localStorage TokenStore.
 *
 * Nothing floats over the page: the banner, whose turn it is (with its clock) and notices live in
 * one sticky stack at the top that takes its own room, and the reveal is told in the middle of the
 * table. The next step of the lobby and the results (게임 시작, 한 판 더, or who it waits for) is
 * docked at the bottom, so it is in sight on the first screen of a small phone. After each repaint
 * the buttons of the child's decision are kept in sight between the two.
 */
import { CockroachClient, GameSession, RevealSnapshot, SdkError } from '../../client-sdk/index';
import { SKINS } from './art';
import { clockPlayed } from './autoplay';
import { forgetInvite, invitedCode } from './invite';
import { el, replace } from './dom';
import { entryScreen } from './entry';
import { lobbyDock, lobbyScreen } from './lobby';
import { freshTableUi, Page } from './page';
import { resultsDock, resultsScreen } from './results';
import { bringIntoView, scrollToTop } from './scroll';
import { localSeatStore, prefs } from './store';
import { decisionZone, tableScreen, turnBar } from './table';

const REVEAL_MS = 2600;
const TOAST_MS = 4000;

const endpoint = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}`;
const byId = (id: string) => document.getElementById(id)!;
const top = byId('top');
const turnbar = byId('turnbar');
const screenHost = byId('screen');
const dock = byId('dock');
const banner = byId('banner');
const toastBox = byId('toast');
let toastTimer: ReturnType<typeof setTimeout> | undefined;
let unbind: (() => void)[] = [];

const page: Page = {
  client: new CockroachClient(endpoint, { store: localSeatStore }),
  session: null,
  skin: SKINS[prefs.skin()],
  table: freshTableUi(),
  reveal: null,
  chats: new Map(),
  askLeave: false,
  askKick: null,
  invite: invitedCode(),
  farewell: null,
  render,
  toast(text, ms = TOAST_MS) {
    toastBox.textContent = text;
    toastBox.classList.remove('held');
    toastBox.classList.add('show');
    clearTimeout(toastTimer);
    toastTimer = setTimeout(hideToast, ms);
    keepInView(true);
  },
  async act(run) {
    try {
      await run();
      return true;
    } catch (e) {
      page.toast(e instanceof SdkError || e instanceof Error ? e.message : '잘 안 됐어요. 다시 해 봐요.');
      return false;
    }
  },
  async enter(connect) {
    let session: GameSession;
    page.farewell = null;
    try {
      session = await connect();
    } catch (e) {
      page.toast(e instanceof Error ? e.message : '방에 들어가지 못했어요.');
      // An invite that did not work (no such room, a full one) is not offered again.
      if (page.invite) {
        page.invite = null;
        forgetInvite();
        render();
      }
      return;
    }
    page.invite = null;
    forgetInvite();
    bind(session);
  },
  async leave() {
    const s = page.session;
    page.askLeave = false;
    if (!s) return;
    drop();
    await s.leave().catch(() => undefined);
    render();
  },
  setSkin(name) {
    page.skin = SKINS[name];
    prefs.setSkin(name);
    render();
  },
};

/**
 * A notice (or the banner) that goes away while the child is deciding keeps its room until the
 * decision changes, so the buttons do not jump up under a finger; otherwise it folds at once.
 */
function fold(box: HTMLElement) {
  box.classList.remove('show');
  if (decisionKey()) box.classList.add('held');
}

function hideToast() {
  clearTimeout(toastTimer);
  fold(toastBox);
}

toastBox.addEventListener('click', hideToast);

function bind(session: GameSession) {
  drop();
  page.session = session;
  page.table = freshTableUi();
  page.reveal = null;
  let phase = session.snapshot.phase;
  unbind = [
    session.on('change', (snap) => {
      // The call that ends the game starts no new round, so no `revealed`: show it from the end.
      if (phase === 'playing' && snap.phase === 'ended' && snap.lastReveal) showReveal(snap.lastReveal);
      phase = snap.phase;
      render();
    }),
    // An away player's turns are played at once, and the table says so already.
    session.on('movePlayedForMe', ({ move, reason }) => {
      if (reason === 'clock') page.toast(clockPlayed(move, session.snapshot, page.skin.names), 6000);
    }),
    session.on('revealed', (r) => showReveal(r)),
    session.on('chat', (c) => {
      page.chats.set(c.from, { text: c.text, until: Date.now() + 4000 });
      render();
      setTimeout(render, 4100);
    }),
    // KICKED is told by the start screen that follows (the session's `left` reason), not twice.
    session.on('error', (e) => e.code !== 'KICKED' && page.toast(e.message)),
    session.on('connectionLost', () => showBanner('연결이 끊겼어요. 다시 연결하는 중이에요…')),
    session.on('reconnected', () => {
      showBanner(null);
      render();
    }),
    session.on('reconnectFailed', (e) => {
      // The seat is gone (or the network stayed away): back to the start, saying why.
      if (page.session !== session) return;
      page.farewell = e.message;
      drop();
      render();
    }),
    session.on('left', ({ reason }) => {
      // Not my own leave (that one drops the session first): the room closed, or the host removed me.
      if (page.session !== session) return;
      page.farewell = reason.message;
      drop();
      render();
    }),
  ];
  render();
}

function drop() {
  for (const off of unbind) off();
  unbind = [];
  page.session = null;
  page.reveal = null;
  showBanner(null);
}

function showBanner(text: string | null) {
  if (text === null) {
    if (banner.classList.contains('show')) fold(banner);
    return;
  }
  banner.textContent = text;
  banner.classList.remove('held');
  banner.classList.add('show');
  keepInView(true);
}

let revealStep = -1;
let revealCount = 0;

function showReveal(r: RevealSnapshot) {
  const s = page.session;
  if (!s || revealStep === s.snapshot.step) return;
  revealStep = s.snapshot.step;
  page.reveal = { r, until: Date.now() + REVEAL_MS };
  // How many reveals this page has told (tests wait on it).
  document.body.dataset.reveals = String(++revealCount);
  render();
  setTimeout(() => {
    if (page.reveal && page.reveal.until <= Date.now()) {
      page.reveal = null;
      render();
    }
  }, REVEAL_MS + 50);
}

type Screen = 'entry' | 'lobby' | 'table' | 'results';

function screenOf(s: GameSession | null): Screen {
  return !s ? 'entry' : s.snapshot.phase === 'lobby' ? 'lobby' : s.snapshot.phase === 'playing' ? 'table' : 'results';
}

function render() {
  const s = page.session;
  const screen = screenOf(s);
  const fresh = document.body.dataset.screen !== screen;
  if (fresh) {
    page.askLeave = false;
    page.askKick = null;
  }
  document.body.dataset.screen = screen;
  document.body.dataset.skin = page.skin.name;
  document.body.dataset.myturn = String(!!s?.snapshot.myTurn);
  document.body.dataset.can = s?.snapshot.canDo.join(' ') ?? '';
  document.body.dataset.step = String(s?.snapshot.step ?? '');
  document.title = `${page.skin.title} — 진짜일까, 거짓말일까?`;
  byId('icon').setAttribute('href', page.skin.icon);
  replace(top, ...header(screen));
  replace(turnbar, screen === 'table' ? turnBar(s!) : null);
  replace(
    screenHost,
    screen === 'entry'
      ? entryScreen(page)
      : screen === 'lobby'
        ? lobbyScreen(page, s!)
        : screen === 'table'
          ? tableScreen(page, s!)
          : resultsScreen(page, s!),
  );
  replace(dock, screen === 'lobby' ? lobbyDock(page, s!) : screen === 'results' ? resultsDock(page, s!) : null);
  // A new screen starts at its top (the lobby's room code, the results' verdict).
  if (fresh) scrollToTop();
  keepInView(fresh);
}

function header(screen: Screen): HTMLElement[] {
  const skin = page.skin;
  const other = skin.name === 'bugs' ? SKINS.animals : SKINS.bugs;
  const compact = screen === 'table';
  const row = el(
    'div',
    { class: 'top-row' },
    el('h1', {}, el('span', { class: 'logo', 'aria-hidden': 'true' }, skin.logo), ` ${skin.title}`),
    el(
      'button',
      {
        class: 'skin-switch',
        id: 'skin-switch',
        title: `${other.label} 그림으로 바꾸기`,
        'aria-label': `${other.label} 그림으로 바꾸기`,
        onclick: () => page.setSkin(other.name),
      },
      compact ? other.logo : `${other.logo} ${other.label} 그림으로`,
    ),
    compact && page.session && !page.askLeave
      ? el(
          'button',
          {
            class: 'leave-table ghost',
            id: 'leave-table',
            onclick: () => {
              page.askLeave = true;
              render();
            },
          },
          '나가기',
        )
      : null,
  );
  if (!compact || !page.askLeave) return [row];
  const spectator = page.session?.spectator;
  return [
    row,
    el(
      'div',
      { class: 'ask-leave panel', id: 'ask-leave', role: 'alertdialog', 'aria-label': '정말 나갈까요?' },
      el('p', {}, spectator ? '구경을 그만할까요?' : '정말 나갈까요? 게임은 계속되고, 내 차례는 자동으로 두어져요.'),
      el(
        'div',
        { class: 'row' },
        el('button', { class: 'big danger-button', id: 'leave-confirm', onclick: () => void page.leave() }, '나가기'),
        el(
          'button',
          {
            class: 'big ghost',
            id: 'leave-cancel',
            onclick: () => {
              page.askLeave = false;
              render();
            },
          },
          '계속하기',
        ),
      ),
    ),
  ];
}

/** What the child is deciding now, as a key; '' when nothing is asked of them. */
function decisionKey(): string {
  const s = page.session;
  if (!s || !decisionZone(s)) return '';
  const ui = page.table;
  return `${s.snapshot.step}:${s.snapshot.canDo.join()}:${ui.pick}:${ui.to}:${ui.claim}`;
}

let shownKey = '';

/**
 * Brings the decision into view when it changes (a new turn, the next step of a hand-over), or
 * when the sticky stack grew (`force`). Other repaints (a chat line, the clock) never scroll, so
 * a child looking at the others' cards is left alone.
 */
function keepInView(force: boolean) {
  const key = decisionKey();
  if (key !== shownKey) for (const box of [toastBox, banner]) box.classList.remove('held');
  if (!key || (!force && key === shownKey)) {
    shownKey = key;
    return;
  }
  shownKey = key;
  const zone = decisionZone(page.session!);
  if (zone) bringIntoView(zone.zone, zone.fallback);
}

setInterval(() => {
  const s = page.session;
  const clock = document.querySelector<HTMLElement>('.countdown');
  if (!s || !clock) return;
  const left = s.secondsLeft();
  clock.textContent = String(left);
  clock.setAttribute('aria-label', `남은 시간 ${left}초`);
  clock.classList.toggle('hurry', left <= 5);
}, 250);

async function boot() {
  render();
  const saved = localSeatStore.load();
  // An invite to another room than my saved seat's: the invite is what this visit is for.
  if (page.invite && saved?.roomId !== page.invite) {
    const nickname = prefs.nickname();
    // A phone that played before knows its name: straight in. A new one asks for it first.
    if (nickname) await page.enter(() => page.client.join(page.invite!, nickname));
    return;
  }
  if (!saved) return;
  showBanner('내 자리로 돌아가는 중이에요…');
  // The SDK keeps the seat when the server could not be reached (CONNECTION_FAILED): try again
  // a few times; any other answer (ROOM_CLOSED, SEAT_GONE, ...) is final and goes to the lobby.
  for (let attempt = 0; ; attempt++) {
    try {
      bind(await page.client.resume());
      page.invite = null;
      forgetInvite();
      return;
    } catch (e) {
      const retry = e instanceof SdkError && e.code === 'CONNECTION_FAILED' && attempt < 3;
      if (!retry) {
        showBanner(null);
        if (e instanceof SdkError && e.code !== 'NO_SAVED_SEAT') page.toast(e.message);
        render();
        return;
      }
      await new Promise((r) => setTimeout(r, 1000 * (attempt + 1)));
    }
  }
}

void boot();
