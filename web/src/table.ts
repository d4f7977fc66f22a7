import { CHAT_PHRASES, ChatPhrase, GameSession, Kind, KINDS, othersAround, SeatSnapshot, TargetOption } from '../../client-sdk/index';
import { avatar } from './avatar';
import { watchersLine } from './door';
import { badgeLabel, DANGER_ICON, DANGER_WORD, dangerLegend } from './danger';
import { art, el } from './dom';
import { freshTableUi, Page, RevealShown, TableUi } from './page';
import { claimLine, lastCallLine, Readers, revealWords, tileName } from './words';

/** Front counts at the last repaint: a badge that just grew pops, as the card lands there. */
const lastCounts = new Map<string, number>();

function nameOf(s: GameSession, id: string | null): string {
  return s.snapshot.seats.find((x) => x.id === id)?.nickname ?? '';
}

/** A speaker's label ("민수 → 나"): the reader is 나. */
function label(s: GameSession, id: string | null): string {
  return id !== null && id === s.snapshot.me ? '나' : nameOf(s, id);
}

function readers(s: GameSession): Readers {
  return { me: s.snapshot.me, nickname: (id) => nameOf(s, id) };
}

/** One seat's face-up cards: a badge per kind, read out as "쥐 2장", danger said in words and signs too. */
function fronts(page: Page, seat: SeatSnapshot, owner: string): HTMLElement {
  const kinds = KINDS.filter((k) => seat.frontCounts[k] > 0);
  const landed = new Set<Kind>();
  for (const k of KINDS) {
    const key = `${seat.id}:${k}`;
    const before = lastCounts.get(key);
    if (before !== undefined && seat.frontCounts[k] > before) landed.add(k);
    lastCounts.set(key, seat.frontCounts[k]);
  }
  if (kinds.length === 0) return el('div', { class: 'fronts empty', 'aria-label': `${owner}: 아직 없음` }, '앞에 아직 없음');
  const mine = seat.isMe;
  return el(
    'div',
    { class: 'fronts', role: 'list', 'aria-label': owner },
    ...kinds.map((k) => {
      const level = seat.danger[k];
      const label = badgeLabel(page.skin.names[k], seat.frontCounts[k], level);
      return el(
        'span',
        {
          class: `badge ${level} kind-${k}${landed.has(k) ? ' landed' : ''}`,
          role: 'listitem',
          'aria-label': label,
          title: label,
          'data-kind': k,
          'data-level': level,
        },
        art(page.skin.svg[k], 'art mini'),
        el('b', { 'aria-hidden': 'true' }, seat.frontCounts[k]),
        level === 'safe'
          ? null
          : el(
              'span',
              { class: 'danger-sign', 'aria-hidden': 'true' },
              mine ? `${DANGER_ICON[level]}${DANGER_WORD[level]}` : DANGER_ICON[level],
            ),
      );
    }),
    seat.oneKindFromEight
      ? el('span', { class: 'badge danger eight', role: 'listitem', 'aria-label': '7종 모임, 위험: 한 종류만 더 오면 져요' }, '🚨 7종!')
      : null,
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
    el(
      'div',
      { class: 'opp-head' },
      el(
        'span',
        { class: 'opp-face' },
        avatar(seat, snap.seats),
        seen ? el('span', { class: 'seen-eye', title: '이 카드를 봤어요', 'aria-label': '이 카드를 봤어요' }, '👀') : null,
      ),
      el(
        'div',
        { class: 'opp-who' },
        // A bot's face is 🤖, so its tile names it without "로봇": at 360 px the names stay whole.
        el('div', { class: 'opp-name', title: seat.nickname }, tileName(seat), seat.isHost ? ' 👑' : ''),
        el(
          'div',
          { class: 'hand-count', 'aria-label': `손에 ${seat.handCount}장` },
          el('span', { class: 'card-icon', 'aria-hidden': 'true' }),
          `${seat.handCount}장`,
        ),
      ),
    ),
    status ? el('div', { class: 'opp-status' }, status) : null,
    fronts(page, seat, `${seat.nickname} 앞`),
  );
}

/**
 * The last call, told in the middle of the table (not over it) for a moment, in the room the card
 * in flight takes, from the reader's side: a robot that judged right sends the card to me, and
 * that is not green news ("로봇 별이님이 맞혔어요… 카드는 내 앞으로 와요").
 */
function revealView(page: Page, s: GameSession, shown: RevealShown): HTMLElement {
  const r = shown.r;
  const words = revealWords(r, readers(s), page.skin.names);
  return el(
    'div',
    { class: 'reveal', id: 'reveal', 'data-kind': r.kind, 'data-tone': words.tone, role: 'status' },
    el('div', { class: `reveal-card kind-${r.kind}` }, art(page.skin.svg[r.kind])),
    el(
      'div',
      { class: 'reveal-text' },
      el('div', { class: 'reveal-call' }, words.call),
      el('div', { class: 'reveal-kind' }, words.kind),
      el('div', { class: `reveal-verdict ${words.tone}` }, words.verdict),
      el('div', { class: 'reveal-took' }, words.took),
    ),
  );
}

let lastFlight = '';

/**
 * One line for the last call, under the card, for a child who looked away during the reveal. It
 * keeps its room while the reveal itself tells the same (hidden then), so nothing below moves.
 */
function lastCall(page: Page, s: GameSession, revealing: boolean): HTMLElement | null {
  const r = s.snapshot.lastReveal;
  if (!r) return null;
  return el(
    'p',
    { class: `last-line${revealing ? ' hidden' : ''}`, 'aria-hidden': revealing ? 'true' : null },
    lastCallLine(r, readers(s), page.skin.names),
  );
}

/** The middle of the table: the card in flight and its claim, or the last reveal, or who is choosing. */
function center(page: Page, s: GameSession): HTMLElement {
  const snap = s.snapshot;
  const r = snap.round;
  // The reveal keeps its moment even when the next card is already on its way to someone else;
  // a child who must judge that card gets it at once.
  const shown = page.reveal && page.reveal.until > Date.now() && !(r.hasCard && snap.myTurn) ? page.reveal : null;
  if (!r.hasCard || shown) {
    // Once a card is picked, the question is just below ("… 카드를 누구에게 줄까요?"): say what was picked, not "pick one".
    const picked = snap.myTurn ? page.table.pick : null;
    return el(
      'section',
      { class: 'center' },
      shown ? revealView(page, s, shown) : null,
      shown && r.hasCard
        ? null
        : picked
          ? el(
              'div',
              { class: 'waiting-card picked' },
              art(page.skin.svg[picked], 'art mini'),
              ` ${page.skin.names[picked]} 카드를 골랐어요 👇`,
            )
          : el(
              'div',
              { class: 'waiting-card' },
              snap.myTurn ? '⭐ 건넬 카드를 아래 내 카드에서 골라요 👇' : `${nameOf(s, r.starter)}님이 건넬 카드를 고르고 있어요…`,
            ),
      lastCall(page, s, !!shown),
    );
  }
  // The card slides in when it moves to someone new, not on every repaint (a chat line, a timer).
  const key = `${r.no}:${r.holder}:${r.claims.length}`;
  const moved = key !== lastFlight;
  lastFlight = key;
  const fly = moved ? ' fly' : '';
  const face = r.cardKind
    ? el(
        'div',
        { class: `flight-card face${fly} kind-${r.cardKind}`, 'aria-label': `내가 본 카드: ${page.skin.names[r.cardKind]}` },
        art(page.skin.svg[r.cardKind]),
        el('small', {}, '내가 본 카드'),
      )
    : el('div', { class: `flight-card back${fly}`, 'aria-label': '뒤집힌 카드' }, el('span', { 'aria-hidden': 'true' }, '?'));
  const history =
    snap.options.claimHistory && r.claims.length > 1
      ? el(
          'ol',
          { class: 'claims' },
          ...r.claims.map((c) => el('li', {}, `${label(s, c.from)} → ${label(s, c.to)}: ${page.skin.names[c.claim]}`)),
        )
      : null;
  return el(
    'section',
    { class: 'center' },
    el(
      'div',
      { class: 'flight', 'data-claims': r.claims.length },
      face,
      el(
        'div',
        { class: `claim-bubble${fly}`, id: 'claim-bubble' },
        el('small', {}, `${label(s, r.lastPasser)} → ${label(s, r.holder)}`),
        el('b', {}, r.claim ? claimLine(r.claim, page.skin.names) : ''),
        r.claim ? art(page.skin.svg[r.claim], 'art mini') : null,
      ),
    ),
    el('p', { class: 'seen-by' }, `👀 본 사람: ${r.seen.map((id) => label(s, id)).join(', ')}`),
    history,
    lastCall(page, s, false),
  );
}

/** The receivers, in the order of the tiles above (the SDK lists them from the seat after mine), each with its tile's face and name. */
function targetButtons(s: GameSession, options: readonly TargetOption[], onPick: (id: string) => void): HTMLElement {
  const seats = s.snapshot.seats;
  return el(
    'div',
    { class: 'targets' },
    ...options.map((t) => {
      const seat = seats.find((x) => x.id === t.id);
      return el(
        'button',
        {
          class: 'target',
          'data-target': t.id,
          disabled: !t.allowed,
          title: t.reason?.message,
          'aria-label': t.nickname,
          onclick: () => onPick(t.id),
        },
        el('span', { class: 'target-who' }, seat ? avatar(seat, seats) : null, el('b', {}, seat ? tileName(seat) : t.nickname)),
        !t.allowed && t.reason ? el('small', { class: 'reason' }, t.reason.message) : null,
      );
    }),
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
function handOver(page: Page, s: GameSession, mode: 'offer' | 'pass'): HTMLElement | null {
  const ui = page.table;
  const snap = s.snapshot;
  const card = mode === 'pass' ? snap.round.cardKind : ui.pick;
  const back = (patch: Partial<TableUi>) => () => {
    Object.assign(ui, patch);
    page.render();
  };
  // The first step (a card from my hand) is asked in the middle of the table, right above the hand.
  if (!card) return null;
  const name = page.skin.names[card];
  if (!ui.to) {
    const options = mode === 'pass' ? s.passOptions() : s.offerTargets();
    return el(
      'div',
      { class: 'prompt' },
      el(
        'h3',
        {},
        art(page.skin.svg[card], 'art mini'),
        mode === 'pass' ? ` ${name} 카드를 누구에게 넘길까요?` : ` ${name} 카드를 누구에게 줄까요?`,
      ),
      targetButtons(s, options, (id) => back({ to: id })()),
      mode === 'offer' ? el('button', { class: 'small ghost', onclick: back({ pick: null }) }, '카드 다시 고르기') : null,
    );
  }
  if (!ui.claim) {
    return el(
      'div',
      { class: 'prompt' },
      el('h3', {}, `${nameOf(s, ui.to)}님에게 뭐라고 말할까요?`),
      el('p', { class: 'muted center-text' }, '진짜를 말해도, 거짓말을 해도 돼요!'),
      claimButtons(page, (k) => back({ claim: k })()),
      el('button', { class: 'small ghost', onclick: back({ to: null }) }, '받을 사람 다시 고르기'),
    );
  }
  const shown = snap.step;
  const confirm = async () => {
    const { to, claim } = ui;
    const ok = await page.act(() =>
      mode === 'pass' ? s.pass(to!, claim!, shown) : s.offer(snap.myHand.find((g) => g.kind === card)!.cardIds[0], to!, claim!, shown),
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
        `"${claimLine(ui.claim, page.skin.names)}"`,
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
  const shown = s.snapshot.step;
  return el(
    'div',
    { class: 'prompt judge' },
    el('h3', {}, `${nameOf(s, r.lastPasser)}님 말이 진짜일까?`),
    el(
      'div',
      { class: 'row' },
      el('button', { class: 'huge call-true', id: 'call-true', onclick: () => void page.act(() => s.call(true, shown)) }, '진짜!'),
      el('button', { class: 'huge call-false', id: 'call-false', onclick: () => void page.act(() => s.call(false, shown)) }, '거짓말!'),
    ),
    el(
      'button',
      { class: 'big peek', id: 'peek', disabled: !peek.allowed, onclick: () => void page.act(() => s.peek(shown)) },
      '🤫 몰래 보고 넘기기',
    ),
    !peek.allowed && peek.reason ? el('p', { class: 'reason', id: 'peek-reason' }, peek.reason.message) : null,
  );
}

function actions(page: Page, s: GameSession): HTMLElement | null {
  const snap = s.snapshot;
  if (snap.spectator) return el('div', { class: 'prompt muted' }, '👀 구경하는 중이에요');
  if (!snap.myTurn) {
    if (snap.mySeat.away) return el('div', { class: 'prompt waiting' }, '자리를 비워서 자동으로 두고 있어요.');
    // With no card in flight the middle already says who is choosing one: not said twice.
    if (!snap.round.hasCard) return null;
    return el('div', { class: 'prompt waiting' }, `${nameOf(s, snap.activePlayer)}님을 기다려요…`);
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
          'aria-label': `${page.skin.names[g.kind]} ${g.count}장`,
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

/** "🚨 쥐가 한 장만 더 오면 져요!" under my name, for each kind one card from losing. */
function myDanger(page: Page, me: SeatSnapshot): HTMLElement | null {
  const close = KINDS.filter((k) => me.danger[k] === 'danger');
  if (close.length === 0 && !me.oneKindFromEight) return null;
  const names = close.map((k) => page.skin.names[k]).join(', ');
  return el(
    'p',
    { class: 'my-danger' },
    close.length > 0 ? `🚨 ${names}: 한 장만 더 오면 져요!` : '',
    me.oneKindFromEight ? ' 🚨 7종이 모였어요: 한 종류만 더 오면 져요!' : '',
  );
}

/** Whose turn it is and the clock: the sticky bar at the top of the table (main.ts keeps it in sight). */
export function turnBar(s: GameSession): HTMLElement {
  const snap = s.snapshot;
  const can = snap.canDo;
  const hint = !snap.myTurn
    ? ''
    : can.includes('offer')
      ? '카드를 건네요'
      : can.includes('pass')
        ? '다른 친구에게 넘겨요'
        : '진짜일까, 거짓말일까?';
  return el(
    'div',
    { class: `turn-line${snap.myTurn ? ' my-turn' : ''}`, id: 'turn-line' },
    el(
      'span',
      { class: 'turn-text' },
      snap.myTurn ? el('b', {}, '⭐ 내 차례! ') : el('b', {}, `${nameOf(s, snap.activePlayer)}님 차례`),
      hint ? el('span', { class: 'turn-hint' }, hint) : null,
    ),
    el(
      'span',
      { class: 'countdown', title: '남은 시간(초)', role: 'timer', 'aria-label': `남은 시간 ${s.secondsLeft()}초` },
      s.secondsLeft(),
    ),
  );
}

/**
 * What the child must see to act now, for main.ts to keep in view: the card in flight with the
 * buttons when judging or passing, the hand when choosing a card, else the step's buttons.
 * The second list is what matters most when the first does not fit.
 */
export function decisionZone(s: GameSession): { zone: (Element | null)[]; fallback: (Element | null)[] } | null {
  const snap = s.snapshot;
  if (s.spectator || !snap.myTurn || snap.phase !== 'playing') return null;
  const q = (selector: string) => document.querySelector(selector);
  const prompt = q('.actions .prompt');
  if (snap.canDo.includes('offer') && !prompt) return { zone: [q('.center'), q('.mine')], fallback: [q('.mine .hand')] };
  if (snap.canDo.includes('offer')) return { zone: [prompt], fallback: [] };
  return { zone: [q('.flight'), prompt], fallback: [prompt] };
}

export function tableScreen(page: Page, s: GameSession): HTMLElement {
  const snap = s.snapshot;
  if (page.table.step !== snap.step) Object.assign(page.table, freshTableUi(), { step: snap.step });
  // Opponents start from the seat after mine, so the order around the table reads the same (and the receivers' buttons follow it).
  const others = othersAround(snap.seats);
  const me = snap.mySeat;
  const myChat = me ? page.chats.get(me.id) : undefined;
  const prompt = actions(page, s);
  return el(
    'main',
    { class: 'table' },
    el('ul', { class: `opponents n${others.length}` }, ...others.map((seat) => opponent(page, s, seat))),
    center(page, s),
    prompt ? el('section', { class: 'actions' }, prompt) : null,
    me
      ? el(
          'section',
          { class: `mine${snap.activePlayer === me.id ? ' active' : ''}` },
          el(
            'div',
            { class: 'mine-head' },
            el('b', {}, `${me.nickname} (나)`),
            el('span', { class: 'hand-total' }, `손에 ${snap.myHandCount}장`),
            el('span', { class: 'mine-front-label', 'aria-hidden': 'true' }, '내 앞:'),
            fronts(page, me, '내 앞'),
          ),
          // Over the section's top edge, where there is no button, so the hand never moves for it.
          myChat && myChat.until > Date.now() ? el('span', { class: 'chat-bubble mine-bubble' }, myChat.text) : null,
          myDanger(page, me),
          myHand(page, s),
        )
      : null,
    quickChat(page, s),
    watchersLine(s),
    el('p', { class: 'tip' }, `같은 그림 ${snap.options.loseCount}장이 앞에 모이면 져요. ${dangerLegend(snap.options.loseCount)}`),
  );
}
