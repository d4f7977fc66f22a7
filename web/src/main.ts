/**
 * The /play page: a whole family table on the client SDK alone (no second client). Screens:
 * entry (make / find a room), lobby, table, results; a banner while the SDK reconnects; the seat
 * is taken back after a reload through a localStorage TokenStore.
 */
import { CockroachClient, GameSession, SdkError } from '../../client-sdk/index';
import { claimLine, SKINS } from './art';
import { el, replace } from './dom';
import { entryScreen } from './entry';
import { lobbyScreen } from './lobby';
import { resultsScreen } from './results';
import { localSeatStore, prefs } from './store';
import { tableScreen, TableUi, freshTableUi } from './table';

export interface Page {
  client: CockroachClient;
  session: GameSession | null;
  skin: (typeof SKINS)[keyof typeof SKINS];
  table: TableUi;
  /** Recent quick-chat lines per player id, shown as bubbles. */
  chats: Map<string, { text: string; until: number }>;
  render(): void;
  toast(text: string): void;
  /** Runs an SDK call; a refusal becomes a toast with the server's Korean sentence. */
  act(run: () => Promise<unknown>): Promise<boolean>;
  enter(connect: () => Promise<GameSession>): Promise<void>;
  leave(): Promise<void>;
  setSkin(name: keyof typeof SKINS): void;
}

const endpoint = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}`;
const root = document.getElementById('app')!;
const banner = document.getElementById('banner')!;
const toastBox = document.getElementById('toast')!;
let toastTimer: ReturnType<typeof setTimeout> | undefined;
let unbind: (() => void)[] = [];

const page: Page = {
  client: new CockroachClient(endpoint, { store: localSeatStore }),
  session: null,
  skin: SKINS[prefs.skin()],
  table: freshTableUi(),
  chats: new Map(),
  render,
  toast(text) {
    toastBox.textContent = text;
    toastBox.classList.add('show');
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => toastBox.classList.remove('show'), 3200);
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
    try {
      session = await connect();
    } catch (e) {
      page.toast(e instanceof Error ? e.message : '방에 들어가지 못했어요.');
      return;
    }
    bind(session);
  },
  async leave() {
    const s = page.session;
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

function bind(session: GameSession) {
  drop();
  page.session = session;
  page.table = freshTableUi();
  let phase = session.snapshot.phase;
  unbind = [
    session.on('change', (snap) => {
      // The call that ends the game starts no new round, so no `revealed`: show it from the end.
      if (phase === 'playing' && snap.phase === 'ended' && snap.lastReveal) showReveal(snap.lastReveal);
      phase = snap.phase;
      render();
    }),
    session.on('revealed', (r) => showReveal(r)),
    session.on('chat', (c) => {
      page.chats.set(c.from, { text: c.text, until: Date.now() + 4000 });
      render();
      setTimeout(render, 4100);
    }),
    session.on('error', (e) => page.toast(e.message)),
    session.on('connectionLost', () => showBanner('연결이 끊겼어요. 다시 연결하는 중이에요…')),
    session.on('reconnected', () => {
      showBanner(null);
      render();
    }),
    session.on('reconnectFailed', (e) => {
      // The seat is gone (or the network stayed away): back to the start, saying why.
      page.toast(e.message);
      if (page.session !== session) return;
      drop();
      render();
    }),
    session.on('left', () => {
      if (page.session !== session) return;
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
  showBanner(null);
}

function showBanner(text: string | null) {
  banner.textContent = text ?? '';
  banner.classList.toggle('show', text !== null);
}

let revealShownAt = -1;
let revealCount = 0;

function showReveal(r: { kind: string; claim: string; call: 'true' | 'false'; caller: string; correct: boolean; takenBy: string }) {
  const s = page.session;
  if (!s || revealShownAt === s.snapshot.step) return;
  revealShownAt = s.snapshot.step;
  const name = (id: string) => s.snapshot.seats.find((x) => x.id === id)?.nickname ?? '';
  const skin = page.skin;
  const box = document.getElementById('reveal')!;
  const kind = r.kind as keyof typeof skin.svg;
  const card = el('div', { class: `reveal-card kind-${kind}` });
  card.innerHTML = skin.svg[kind];
  replace(
    box,
    el(
      'div',
      { class: 'reveal-inner' },
      el('div', { class: 'reveal-claim' }, `"${claimLine(skin.names[r.claim as keyof typeof skin.names])}"`),
      el('div', { class: 'reveal-call' }, `${name(r.caller)}: "${r.call === 'true' ? '진짜!' : '거짓말!'}"`),
      card,
      el('div', { class: 'reveal-kind' }, `정답은 ${skin.names[kind]}!`),
      el('div', { class: `reveal-verdict ${r.correct ? 'good' : 'bad'}` }, r.correct ? '맞혔어요!' : '틀렸어요!'),
      el('div', { class: 'reveal-took' }, `카드는 ${name(r.takenBy)}님 앞으로 가요`),
    ),
  );
  box.classList.remove('show');
  void box.offsetWidth; // restart the flip animation
  box.classList.add('show');
  box.dataset.round = String(s.snapshot.round.no);
  box.dataset.count = String(++revealCount); // how many reveals this page has shown (tests wait on it)
  setTimeout(() => {
    if (box.dataset.round === String(s.snapshot.round.no)) box.classList.remove('show');
  }, 2600);
}

function render() {
  const s = page.session;
  const screen = !s ? 'entry' : s.snapshot.phase === 'lobby' ? 'lobby' : s.snapshot.phase === 'playing' ? 'table' : 'results';
  document.body.dataset.screen = screen;
  document.body.dataset.skin = page.skin.name;
  document.body.dataset.myturn = String(!!s?.snapshot.myTurn);
  document.body.dataset.can = s?.snapshot.canDo.join(' ') ?? '';
  document.body.dataset.step = String(s?.snapshot.step ?? '');
  replace(
    root,
    header(),
    screen === 'entry'
      ? entryScreen(page)
      : screen === 'lobby'
        ? lobbyScreen(page, s!)
        : screen === 'table'
          ? tableScreen(page, s!)
          : resultsScreen(page, s!),
  );
}

function header(): HTMLElement {
  const other = page.skin.name === 'bugs' ? 'animals' : 'bugs';
  return el(
    'header',
    { class: 'top' },
    el('h1', {}, el('span', { class: 'logo' }, '🐞'), ' 벌레 블러핑'),
    el(
      'button',
      { class: 'skin-switch', id: 'skin-switch', title: '그림 바꾸기', onclick: () => page.setSkin(other) },
      page.skin.name === 'bugs' ? '🐶 동물 그림으로' : '🐞 벌레 그림으로',
    ),
  );
}

setInterval(() => {
  const s = page.session;
  const clock = document.querySelector<HTMLElement>('.countdown');
  if (!s || !clock) return;
  const left = s.secondsLeft();
  clock.textContent = String(left);
  clock.classList.toggle('hurry', left <= 5);
}, 250);

async function boot() {
  render();
  if (!localSeatStore.load()) return;
  showBanner('내 자리로 돌아가는 중이에요…');
  // The SDK keeps the seat when the server could not be reached (CONNECTION_FAILED): try again
  // a few times; any other answer (ROOM_CLOSED, SEAT_GONE, ...) is final and goes to the lobby.
  for (let attempt = 0; ; attempt++) {
    try {
      bind(await page.client.resume());
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
