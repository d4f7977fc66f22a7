import { CHAT_PHRASES, ChatPhrase, GameSession, Kind, KINDS, SeatSnapshot, TargetOption } from '../../client-sdk/index';
import { claimLine } from './art';
import { avatar } from './avatar';
import { art, el } from './dom';
import type { Page } from './main';

/** Where the hand-over flow is (rules section 9): card → receiver → claim → confirm. */
export interface TableUi {
  step: number;
  pick: Kind | null;
  to: string | null;
  claim: Kind | null;
}

export const freshTableUi = (): TableUi => ({ step: -1, pick: null, to: null, claim: null });

const DANGER_TIP = { safe: '', warning: '조심! 3장 모였어요', danger: '한 장만 더 오면 져요!' } as const;

/** Front counts at the last repaint: a badge that just grew pops, as the card lands there. */
const lastCounts = new Map<string, number>();

function fronts(page: Page, seat: SeatSnapshot): HTMLElement {
  const kinds = KINDS.filter((k) => seat.frontCounts[k] > 0);
  const landed = new Set<Kind>();
  for (const k of KINDS) {
    const key = `${seat.id}:${k}`;
    const before = lastCounts.get(key);
    if (before !== undefined && seat.frontCounts[k] > before) landed.add(k);
    lastCounts.set(key, seat.frontCounts[k]);
  }
  if (kinds.length === 0) return el('div', { class: 'fronts empty' }, '앞에 아직 없음');
  return el(
    'div',
    { class: 'fronts' },
    ...kinds.map((k) =>
      el(
        'span',
        {
          class: `badge ${seat.danger[k]} kind-${k}${landed.has(k) ? ' landed' : ''}`,
          'data-kind': k,
          'data-level': seat.danger[k],
          title: `${page.skin.names[k]} ${seat.frontCounts[k]}장 ${DANGER_TIP[seat.danger[k]]}`,
        },
        art(page.skin.svg[k], 'art mini'),
        el('b', {}, seat.frontCounts[k]),
      ),
    ),
    seat.oneKindFromEight ? el('span', { class: 'badge danger eight' }, '7종!') : null,
  );
}

function opponent(page: Page, s: GameSession, seat: SeatSnapshot): HTMLElement {
  const snap = s.snapshot;
  const chat = page.chats.get(seat.id);
  const seen = snap.round.hasCard && snap.round.seen.includes(seat.id);
  const status = seat.away ? '자리 비움' : !seat.connected ? '연결 끊김' : null;
  return el(
    'li',
    {
      class: `opponent${snap.activePlayer === seat.id ? ' active' : ''}${seat.away || !seat.connected ? ' offline' : ''}`,
      'data-player': seat.id,
    },
    chat && chat.until > Date.now() ? el('span', { class: 'chat-bubble' }, chat.text) : null,
    el('div', { class: 'opp-head' }, avatar(seat), seen ? el('span', { class: 'seen-eye', title: '이 카드를 봤어요' }, '👀') : null),
    el(
      'div',
      { class: 'opp-name' },
      seat.nickname,
      seat.isHost ? ' 👑' : '',
      seat.bot ? el('small', { class: 'bot-mark' }, ' 로봇') : null,
    ),
    el('div', { class: 'hand-count', title: '손에 든 카드' }, el('span', { class: 'card-icon' }), `${seat.handCount}장`),
    status ? el('div', { class: 'opp-status' }, status) : null,
    fronts(page, seat),
  );
}

function nameOf(s: GameSession, id: string | null): string {
  return s.snapshot.seats.find((x) => x.id === id)?.nickname ?? '';
}

let lastFlight = '';

function cardInFlight(page: Page, s: GameSession): HTMLElement {
  const snap = s.snapshot;
  const r = snap.round;
  const active = snap.activePlayer;
  const turnLine = el(
    'div',
    { class: 'turn-line' },
    el('span', {}, snap.myTurn ? '⭐ 내 차례!' : `${nameOf(s, active)}님 차례`),
    el('span', { class: 'countdown', title: '남은 시간(초)' }, s.secondsLeft()),
  );
  if (!r.hasCard) {
    return el(
      'section',
      { class: 'center' },
      turnLine,
      el(
        'div',
        { class: 'waiting-card' },
        snap.myTurn ? '건넬 카드를 골라 주세요 👇' : `${nameOf(s, r.starter)}님이 건넬 카드를 고르고 있어요…`,
      ),
    );
  }
  // The card slides in when it moves to someone new, not on every repaint (a chat line, a timer).
  const key = `${r.no}:${r.holder}:${r.claims.length}`;
  const moved = key !== lastFlight;
  lastFlight = key;
  const fly = moved ? ' fly' : '';
  const face = r.cardKind
    ? el('div', { class: `flight-card face${fly} kind-${r.cardKind}` }, art(page.skin.svg[r.cardKind]), el('small', {}, '내가 본 카드'))
    : el('div', { class: `flight-card back${fly}` }, el('span', {}, '?'));
  const history =
    snap.options.claimHistory && r.claims.length > 1
      ? el(
          'ol',
          { class: 'claims' },
          ...r.claims.map((c) => el('li', {}, `${nameOf(s, c.from)} → ${nameOf(s, c.to)}: ${page.skin.names[c.claim]}`)),
        )
      : null;
  return el(
    'section',
    { class: 'center' },
    turnLine,
    el(
      'div',
      { class: 'flight', 'data-claims': r.claims.length },
      face,
      el(
        'div',
        { class: `claim-bubble${fly}`, id: 'claim-bubble' },
        el('small', {}, `${nameOf(s, r.lastPasser)} → ${nameOf(s, r.holder)}`),
        el('b', {}, r.claim ? claimLine(page.skin.names[r.claim]) : ''),
        r.claim ? art(page.skin.svg[r.claim], 'art mini') : null,
      ),
    ),
    el('p', { class: 'seen-by' }, `👀 본 사람: ${r.seen.map((id) => nameOf(s, id)).join(', ')}`),
    history,
  );
}

function targetButtons(page: Page, options: TargetOption[], onPick: (id: string) => void): HTMLElement {
  return el(
    'div',
    { class: 'targets' },
    ...options
      .filter((t) => t.id !== page.session?.me)
      .map((t) =>
        el(
          'button',
          { class: 'target', 'data-target': t.id, disabled: !t.allowed, title: t.reason?.message, onclick: () => onPick(t.id) },
          el('b', {}, t.nickname),
          !t.allowed && t.reason ? el('small', { class: 'reason' }, t.reason.message) : null,
        ),
      ),
  );
}

function claimButtons(page: Page, onPick: (k: Kind) => void): HTMLElement {
  return el(
    'div',
    { class: 'claim-grid' },
    ...KINDS.map((k) =>
      el(
        'button',
        { class: `claim kind-${k}`, 'data-claim': k, onclick: () => onPick(k) },
        art(page.skin.svg[k]),
        el('span', {}, page.skin.names[k]),
      ),
    ),
  );
}

/** The hand-over flow for an offer (card from my hand) or a pass (the card I peeked at). */
function handOver(page: Page, s: GameSession, mode: 'offer' | 'pass'): HTMLElement {
  const ui = page.table;
  const snap = s.snapshot;
  const card = mode === 'pass' ? snap.round.cardKind : ui.pick;
  const back = (patch: Partial<TableUi>) => () => {
    Object.assign(ui, patch);
    page.render();
  };
  if (!card)
    return el(
      'div',
      { class: 'prompt' },
      el('h3', {}, '1. 건넬 카드를 골라요'),
      el('p', { class: 'muted' }, '아래 내 카드에서 하나를 눌러요.'),
    );
  if (!ui.to) {
    const options = mode === 'pass' ? s.passOptions() : s.offerTargets();
    return el(
      'div',
      { class: 'prompt' },
      el('h3', {}, mode === 'pass' ? '누구에게 넘길까요?' : '2. 누구에게 줄까요?'),
      targetButtons(page, options, (id) => back({ to: id })()),
      mode === 'offer' ? el('button', { class: 'small ghost', onclick: back({ pick: null }) }, '카드 다시 고르기') : null,
    );
  }
  if (!ui.claim) {
    return el(
      'div',
      { class: 'prompt' },
      el('h3', {}, `${mode === 'pass' ? '' : '3. '}${nameOf(s, ui.to)}님에게 뭐라고 말할까요?`),
      el('p', { class: 'muted' }, '진짜를 말해도, 거짓말을 해도 돼요!'),
      claimButtons(page, (k) => back({ claim: k })()),
      el('button', { class: 'small ghost', onclick: back({ to: null }) }, '받을 사람 다시 고르기'),
    );
  }
  const confirm = async () => {
    const { to, claim } = ui;
    const ok = await page.act(() =>
      mode === 'pass' ? s.pass(to!, claim!) : s.offer(snap.myHand.find((g) => g.kind === card)!.cardIds[0], to!, claim!),
    );
    if (!ok) Object.assign(ui, { to: null, claim: null });
  };
  return el(
    'div',
    { class: 'prompt confirm-box' },
    el('h3', {}, '이렇게 건넬까요?'),
    el(
      'div',
      { class: 'confirm-line' },
      art(page.skin.svg[card], 'art mid'),
      el('span', { class: 'arrow' }, '➜'),
      el('span', { class: 'confirm-to' }, `${nameOf(s, ui.to)}님`),
      el(
        'span',
        { class: `claim-said ${card === ui.claim ? 'truth' : 'bluff'}` },
        `"${claimLine(page.skin.names[ui.claim])}"`,
        el('small', {}, card === ui.claim ? '(진짜)' : '(거짓말)'),
      ),
    ),
    el(
      'div',
      { class: 'row' },
      el('button', { class: 'big primary', id: 'confirm', onclick: () => void confirm() }, '확인!'),
      el('button', { class: 'big ghost', id: 'cancel', onclick: back({ claim: null }) }, '다시'),
    ),
  );
}

function judge(page: Page, s: GameSession): HTMLElement {
  const r = s.snapshot.round;
  const peek = s.peekAvailability();
  return el(
    'div',
    { class: 'prompt judge' },
    el('h3', {}, `${nameOf(s, r.lastPasser)}님이 "${r.claim ? claimLine(page.skin.names[r.claim]) : ''}"라고 했어요`),
    el(
      'div',
      { class: 'row' },
      el('button', { class: 'huge call-true', id: 'call-true', onclick: () => void page.act(() => s.call(true)) }, '진짜!'),
      el('button', { class: 'huge call-false', id: 'call-false', onclick: () => void page.act(() => s.call(false)) }, '거짓말!'),
    ),
    el(
      'button',
      { class: 'big peek', id: 'peek', disabled: !peek.allowed, onclick: () => void page.act(() => s.peek()) },
      '🤫 몰래 보고 넘기기',
    ),
    !peek.allowed && peek.reason ? el('p', { class: 'reason', id: 'peek-reason' }, peek.reason.message) : null,
  );
}

function actions(page: Page, s: GameSession): HTMLElement {
  const snap = s.snapshot;
  if (s.spectator) return el('div', { class: 'prompt muted' }, '👀 구경하는 중이에요');
  if (!snap.myTurn) {
    const me = snap.seats.find((x) => x.isMe);
    return el(
      'div',
      { class: 'prompt waiting' },
      me?.away ? '자리를 비워서 자동으로 두고 있어요.' : `${nameOf(s, snap.activePlayer)}님을 기다려요…`,
    );
  }
  if (snap.canDo.includes('offer')) return handOver(page, s, 'offer');
  if (snap.canDo.includes('pass')) return handOver(page, s, 'pass');
  return judge(page, s);
}

function myHand(page: Page, s: GameSession): HTMLElement {
  const snap = s.snapshot;
  const picking = snap.canDo.includes('offer');
  return el(
    'div',
    { class: `hand${picking ? ' picking' : ''}` },
    ...snap.myHand.map((g) =>
      el(
        'button',
        {
          class: `hand-card kind-${g.kind}${page.table.pick === g.kind ? ' selected' : ''}`,
          'data-kind': g.kind,
          disabled: !picking,
          title: page.skin.names[g.kind],
          onclick: () => {
            Object.assign(page.table, { pick: g.kind, to: null, claim: null });
            page.render();
          },
        },
        art(page.skin.svg[g.kind]),
        el('span', { class: 'hand-name' }, page.skin.names[g.kind]),
        el('span', { class: 'count' }, g.count),
      ),
    ),
    snap.myHand.length === 0 ? el('p', { class: 'muted' }, '손에 카드가 없어요') : null,
  );
}

function quickChat(page: Page, s: GameSession): HTMLElement | null {
  if (s.spectator || !s.snapshot.options.quickChat) return null;
  return el(
    'div',
    { class: 'quick-chat' },
    ...(Object.keys(CHAT_PHRASES) as ChatPhrase[]).map((p) =>
      el('button', { class: 'chat', 'data-phrase': p, onclick: () => void page.act(() => s.chat(p)) }, CHAT_PHRASES[p]),
    ),
  );
}

export function tableScreen(page: Page, s: GameSession): HTMLElement {
  const snap = s.snapshot;
  if (page.table.step !== snap.step) Object.assign(page.table, freshTableUi(), { step: snap.step });
  const mine = snap.seats.findIndex((x) => x.isMe);
  // Opponents start from the seat after mine, so the order around the table reads the same.
  const others = mine < 0 ? snap.seats : [...snap.seats.slice(mine + 1), ...snap.seats.slice(0, mine)];
  const me = mine >= 0 ? snap.seats[mine] : null;
  const myChat = me ? page.chats.get(me.id) : undefined;
  return el(
    'main',
    { class: 'table' },
    el('ul', { class: `opponents n${others.length}` }, ...others.map((seat) => opponent(page, s, seat))),
    cardInFlight(page, s),
    el('section', { class: 'actions' }, actions(page, s)),
    me
      ? el(
          'section',
          { class: `mine${snap.activePlayer === me.id ? ' active' : ''}` },
          myChat && myChat.until > Date.now() ? el('span', { class: 'chat-bubble mine-bubble' }, myChat.text) : null,
          el(
            'div',
            { class: 'mine-head' },
            el('b', {}, `${me.nickname} (나)`),
            el('span', { class: 'hand-total' }, `손에 ${snap.myHandCount}장`),
            el('span', { class: 'mine-front-label' }, '내 앞:'),
            fronts(page, me),
          ),
          myHand(page, s),
        )
      : null,
    quickChat(page, s),
    el('p', { class: 'tip' }, `같은 그림 ${snap.options.loseCount}장이 내 앞에 모이면 져요. 노랑은 조심, 빨강은 위험!`),
  );
}
