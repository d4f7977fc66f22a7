import type { CreateOptions, RoomListing } from '../../client-sdk/index';
import { KINDS } from './art';
import { art, el, replace } from './dom';
import type { Page } from './page';
import { groupCode, normalizeCode } from './invite';
import { prefs } from './store';
import { claimLine } from './words';

const MAX_NICK = 12;

/** 1–12 characters after trimming, as the server checks (it has the final word). */
function nicknameFrom(input: HTMLInputElement, page: Page): string | null {
  const nick = input.value.trim();
  const length = [...nick].length;
  if (length < 1 || length > MAX_NICK) {
    page.toast('이름은 1~12글자로 정해요.');
    input.focus();
    return null;
  }
  prefs.setNickname(nick);
  return nick;
}

function toggle(id: string, label: string, checked: boolean, hint: string) {
  return el(
    'label',
    { class: 'toggle', for: id },
    el('input', { type: 'checkbox', id, checked }),
    el('span', { class: 'toggle-text' }, label, el('small', {}, hint)),
  );
}

function choice(id: string, label: string, values: [string, string][], selected: string) {
  const select = el('select', { id }, ...values.map(([v, text]) => el('option', { value: v, selected: v === selected }, text)));
  return el('label', { class: 'choice', for: id }, el('span', {}, label), select);
}

export function entryScreen(page: Page): HTMLElement {
  const nick = el('input', {
    id: 'nickname',
    maxlength: 24,
    placeholder: '예: 민수',
    value: prefs.nickname(),
    autocomplete: 'nickname',
    oninput: (e: Event) => prefs.setNickname((e.target as HTMLInputElement).value.trim()),
  });
  const roomInput = el('input', {
    id: 'room-id',
    placeholder: '예: 123 456',
    inputmode: 'numeric',
    autocapitalize: 'off',
    autocomplete: 'off',
    spellcheck: 'false',
    value: page.invite ? groupCode(page.invite) : '',
  });
  const rooms = el('div', { class: 'room-list', id: 'room-list' }, el('p', { class: 'muted' }, '열린 방을 찾는 중…'));

  const create = () => {
    const nickname = nicknameFrom(nick, page);
    if (!nickname) return;
    const v = (id: string) => (document.getElementById(id) as HTMLSelectElement).value;
    const on = (id: string) => (document.getElementById(id) as HTMLInputElement).checked;
    const options: CreateOptions = {
      turnSeconds: Number(v('opt-turn')) as 15 | 30 | 60,
      claimHistory: on('opt-history'),
      quickChat: on('opt-chat'),
      eightKindsRule: on('opt-eight'),
      twoPlayerPass: on('opt-twopass'),
      private: !on('opt-public'),
    };
    if (v('opt-lose') !== 'auto') options.loseCount = Number(v('opt-lose')) as 3 | 4 | 5;
    void page.enter(() => page.client.create(nickname, options));
  };
  const quick = () => {
    const nickname = nicknameFrom(nick, page);
    if (nickname) void page.enter(() => page.client.quickMatch(nickname));
  };
  // Six digits, however a child typed them ("123 456", "123-456"); the server has the last word.
  const roomId = () => {
    const id = normalizeCode(roomInput.value);
    if (!id) {
      page.toast('방 번호는 숫자 6개예요. 다시 확인해 주세요.');
      roomInput.focus();
      return null;
    }
    return id;
  };
  const join = (id = roomId()) => {
    const nickname = id && nicknameFrom(nick, page);
    if (id && nickname) void page.enter(() => page.client.join(id, nickname));
  };
  // A watcher shows a name too when one is filled in (everyone at the table sees who is watching).
  const watch = (id = roomId()) => {
    const nickname = nick.value.trim() === '' ? undefined : nicknameFrom(nick, page);
    if (id && nickname !== null) void page.enter(() => page.client.spectate(id, nickname));
  };

  const refresh = async () => {
    let list: RoomListing[];
    try {
      list = await page.client.listRooms();
    } catch {
      replace(rooms, el('p', { class: 'muted' }, '방 목록을 불러오지 못했어요.'));
      return;
    }
    if (list.length === 0) {
      replace(rooms, el('p', { class: 'muted' }, '지금 열린 방이 없어요. 방을 만들어 친구를 불러요!'));
      return;
    }
    replace(
      rooms,
      ...list
        .slice(0, 8)
        .map((r) =>
          el(
            'div',
            { class: 'room-row' },
            el('span', { class: 'room-host' }, `${r.host || '?'}님의 방`),
            el('span', { class: 'room-seats' }, `${r.seats}/${r.maxSeats}명`),
            el('button', { class: 'small', onclick: () => join(r.roomId) }, '참여'),
            el('button', { class: 'small ghost', onclick: () => watch(r.roomId) }, '구경'),
          ),
        ),
    );
  };
  void refresh();

  const invited = page.invite;
  const farewell = page.farewell;
  const start = el(
    'section',
    { class: `panel${invited ? ' invited' : ''}` },
    invited ? el('h2', { id: 'invited' }, `🎉 방 ${groupCode(invited)}에 초대받았어요!`) : null,
    el('label', { class: 'field', for: 'nickname' }, el('span', {}, invited ? '내 이름을 적고 들어가요' : '내 이름'), nick),
    invited
      ? el('button', { class: 'big primary', id: 'invite-join', onclick: () => join(invited) }, '방에 들어가기')
      : el('button', { class: 'big primary', id: 'quick-match', onclick: quick }, '⚡ 빠른 시작'),
  );
  return el(
    'main',
    { class: 'entry' },
    farewell
      ? el(
          'section',
          { class: 'panel farewell', id: 'farewell', role: 'status' },
          el('p', {}, `👋 ${farewell}`),
          el(
            'button',
            {
              class: 'small ghost',
              onclick: () => {
                page.farewell = null;
                page.render();
              },
            },
            '알겠어요',
          ),
        )
      : null,
    // Invited: the way in comes first, the welcome after it.
    invited ? start : null,
    el(
      'section',
      { class: 'hero' },
      el('div', { class: 'hero-art' }, ...KINDS.map((k) => art(page.skin.svg[k], `art hero-${k}`))),
      el('p', { class: 'tagline' }, `카드를 건네며 "${claimLine('rat', page.skin.names)}" 진짜일까, 거짓말일까?`),
      el('p', { class: 'tip' }, '같은 그림이 4장(둘이서 하면 5장) 내 앞에 모이면 져요.'),
    ),
    invited ? null : start,
    el(
      'details',
      { class: 'panel', id: 'create-panel' },
      el('summary', {}, '🏠 방 만들기'),
      el(
        'div',
        { class: 'options' },
        choice(
          'opt-lose',
          '지는 장수',
          [
            ['auto', '기본 (4장, 둘이면 5장)'],
            ['3', '3장 (짧게)'],
            ['4', '4장'],
            ['5', '5장 (길게)'],
          ],
          'auto',
        ),
        choice(
          'opt-turn',
          '차례 시간',
          [
            ['15', '15초'],
            ['30', '30초'],
            ['60', '60초'],
          ],
          '30',
        ),
        toggle('opt-history', '주장 기록 보기', true, '카드가 지나온 말을 보여줘요'),
        toggle('opt-chat', '빠른 대화', true, '"정말이야!" 같은 말 보내기'),
        toggle('opt-eight', '8종 규칙', false, '8가지가 모두 모여도 져요'),
        toggle('opt-twopass', '둘이서도 떠넘기기', false, '2명일 때도 몰래 보기 허용'),
        // A family's table is private: joined by its code or an invite. Opening it to strangers is a choice.
        toggle(
          'opt-public',
          '🌍 모두에게 보이기',
          false,
          "켜면 '열린 방'에 나와서 모르는 사람도 들어올 수 있어요. 끄면 방 번호를 아는 사람만 들어와요.",
        ),
        el('button', { class: 'big primary', id: 'create-room', onclick: create }, '방 만들기'),
      ),
    ),
    el(
      'section',
      { class: 'panel' },
      el('label', { class: 'field', for: 'room-id' }, el('span', {}, '친구 방 번호'), roomInput),
      el(
        'div',
        { class: 'row' },
        el('button', { class: 'big', id: 'join-room', onclick: () => join() }, '들어가기'),
        el('button', { class: 'big ghost', id: 'watch-room', onclick: () => watch() }, '👀 구경하기'),
      ),
    ),
    el(
      'section',
      { class: 'panel' },
      el(
        'div',
        { class: 'panel-head' },
        el('h2', {}, '열린 방'),
        el('button', { class: 'small ghost', onclick: () => void refresh() }, '새로고침'),
      ),
      rooms,
    ),
  );
}
