/**
 * /play in a real browser (Debian's chromium via playwright-core): people and practice bots play
 * whole games through the page only, clicking what a person clicks, on two phone sizes at once
 * (the host on 390×844, the friend on a small Android's 360×640), once with reduced motion and
 * once with the motion real phones get (the bobbing hand, the card sliding in, the reveal). At
 * every decision the test checks, by the elements' boxes once the page's animations have played,
 * that the question, the buttons, the card in flight and the clock are inside the viewport and
 * that nothing covers the buttons; that every opponent's name reads whole and apart from the
 * others at 360 px; that the receivers' buttons come in the tiles' order with their faces; that
 * the reveal speaks from the reader's side; that 게임 시작 and 한 판 더 are in sight when they are
 * the next step. One player reloads mid-game and gets the seat back, one loses the network, then
 * 한 판 더. Screenshots go to test-artifacts/browser/ (`<size>-<motion>-<what>.png`).
 * Not part of `npm test`: run with `npm run test:browser`.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { bootTestServer, TestServer } from '../support/server';
import { findChromium } from './chromium';

const ARTIFACTS = path.resolve(__dirname, '../../test-artifacts/browser');
/** Until the server serves game records (GET /api/games/:gameId), `PLAY_TEST_WITHOUT_RECORDS=1` leaves out the fairness check. */
const WITHOUT_RECORDS = process.env.PLAY_TEST_WITHOUT_RECORDS === '1';
const LARGE = { width: 390, height: 844 };
const SMALL = { width: 360, height: 640 };

/** What the test reads inside the page (its tsconfig has no DOM types): `(globalThis as unknown as InPage)`. */
interface InPage {
  document: {
    body: { dataset: Record<string, string | undefined> } | null;
    querySelectorAll(s: string): Iterable<InPageNode>;
    elementFromPoint(x: number, y: number): InPageNode | null;
    getAnimations(): { finished: Promise<unknown>; effect: { getComputedTiming(): { endTime?: number | string } } | null }[];
  };
  scrollY: number;
  MutationObserver: new (then: () => void) => { observe(target: unknown, how: { childList: boolean; subtree: boolean }): void };
  /** The reveals this page has shown, recorded in the page as each appeared (see `recordReveals`). */
  seenReveals?: SeenReveal[];
  seenRevealNo?: string;
}
interface InPageNode {
  tagName: string;
  className: string;
  id: string;
  textContent: string | null;
  scrollHeight: number;
  clientHeight: number;
  scrollWidth: number;
  clientWidth: number;
  contains(n: InPageNode): boolean;
  getBoundingClientRect(): { x: number; y: number; width: number; height: number };
  getAttribute(name: string): string | null;
  querySelector(s: string): InPageNode | null;
  closest(s: string): InPageNode | null;
}

/** One reveal as the page showed it. */
interface SeenReveal {
  tone: string | null;
  verdict: string;
  took: string;
  /** Inside the table's middle, not laid over it. */
  inCenter: boolean;
}

/**
 * Records, in the page, each reveal as it appears. A reveal lasts a moment (the next card to me
 * replaces it at once), too short to be caught reliably by looking after the call from outside.
 * No named functions in here: the test's compiler would wrap them in a helper the page lacks.
 */
function recordReveals() {
  const w = globalThis as unknown as InPage;
  w.seenReveals = [];
  new w.MutationObserver(() => {
    const reveal = [...w.document.querySelectorAll('#reveal')][0];
    const no = w.document.body?.dataset.reveals;
    if (!reveal || !no || no === w.seenRevealNo) return;
    w.seenRevealNo = no;
    const [verdict, took] = ['.reveal-verdict', '.reveal-took'].map((q) => (reveal.querySelector(q)?.textContent ?? '').trim());
    w.seenReveals!.push({ tone: reveal.getAttribute('data-tone'), verdict, took, inCenter: reveal.closest('.center') !== null });
  }).observe(w.document, { childList: true, subtree: true });
}

type Motion = 'reduce' | 'no-preference';

/** Each element's box and what a finger on its centre would touch, read in one go (no repaint in between). */
interface Seen {
  name: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** A tap at the centre reaches the element itself (or its child). */
  reached: boolean;
  top: string;
}

/** How far the page is scrolled. */
function scrollY(p: Player): Promise<number> {
  return p.page.evaluate(() => (globalThis as unknown as InPage).scrollY);
}

class Player {
  moves = 0;
  /** Decisions whose boxes were checked on this page. */
  checked = 0;
  readonly size: string;
  constructor(
    readonly page: Page,
    readonly nickname: string,
    readonly viewport: { width: number; height: number },
    readonly motion: Motion,
  ) {
    this.size = `${viewport.width}x${viewport.height}`;
  }

  private file(name: string) {
    return path.join(ARTIFACTS, `${this.size}-${this.motion === 'reduce' ? 'still' : 'moving'}-${name}.png`);
  }

  async screen(): Promise<string> {
    return (await this.page.locator('body').getAttribute('data-screen')) ?? '';
  }

  async attr(name: string): Promise<string> {
    return (await this.page.locator('body').getAttribute(`data-${name}`)) ?? '';
  }

  waitScreen(screen: string, timeout = 20000) {
    return this.page.waitForSelector(`body[data-screen="${screen}"]`, { timeout });
  }

  /** The whole page, top to bottom. */
  shot(name: string) {
    return this.page.screenshot({ path: this.file(name), fullPage: true });
  }

  /** What the phone shows now, no more. */
  view(name: string) {
    return this.page.screenshot({ path: this.file(name) });
  }
}

/** What one pass of the suite (one motion setting) has seen so far. */
const freshRun = () => ({ shots: new Set<string>(), peeked: false, toastTried: false, targetsChecked: 0 });
let run = freshRun();

/**
 * A control's size, measured in the page on the element the locator finds. The lookup and the
 * measure are two steps, and the page's next render (a bot's move) may replace the element in
 * between: a detached element measures 0×0, so it is looked up again.
 */
async function sizeOf(locator: Locator): Promise<{ width: number; height: number }> {
  for (let tries = 0; ; tries++) {
    const seen = await locator.evaluate((el) => {
      const { width, height } = el.getBoundingClientRect();
      return { width, height, connected: el.isConnected };
    });
    if (seen.connected || tries >= 10) return { width: seen.width, height: seen.height };
  }
}

async function shotOnce(p: Player, name: string) {
  const key = `${p.size}-${name}`;
  if (run.shots.has(key)) return;
  run.shots.add(key);
  await p.view(name);
}

async function look(p: Player, selector: string): Promise<Seen[]> {
  return p.page.evaluate((selector) => {
    const { document } = globalThis as unknown as InPage;
    return [...document.querySelectorAll(selector)].map((e) => {
      const r = e.getBoundingClientRect();
      const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
      return {
        name: e.id || (e.textContent ?? '').trim().slice(0, 16),
        x: r.x,
        y: r.y,
        width: r.width,
        height: r.height,
        reached: !!top && (top === e || e.contains(top)),
        top: top ? `${top.tagName.toLowerCase()}.${top.className}` : 'nothing',
      };
    });
  }, selector);
}

/** Every element the selector finds lies wholly inside the viewport; with `tap`, nothing covers it either. */
async function inView(p: Player, selector: string, what: string, tap = false): Promise<number> {
  const seen = await look(p, selector);
  assert.ok(seen.length > 0, `${p.size} ${what}: ${selector} is on the page`);
  const { width, height } = p.viewport;
  for (const e of seen) {
    const where = `${Math.round(e.x)},${Math.round(e.y)} ${Math.round(e.width)}×${Math.round(e.height)}`;
    assert.ok(
      e.x >= 0 && e.y >= 0 && e.x + e.width <= width + 0.5 && e.y + e.height <= height + 0.5,
      `${p.size} ${what}: ${selector} "${e.name}" is inside the ${width}×${height} viewport (box ${where})`,
    );
    if (tap) assert.ok(e.reached, `${p.size} ${what}: "${e.name}" is not covered (a tap at its centre reaches ${e.top})`);
  }
  return seen.length;
}

/**
 * Waits for the page's animations that end (a card sliding in, a pop) to have played, so boxes are
 * measured where a child sees them settle; the endless ones (a glow, a bobbing picture) go on.
 */
async function settle(p: Player) {
  await p.page.evaluate(async () => {
    const { document } = globalThis as unknown as InPage;
    const ending = document.getAnimations().filter((a) => {
      const end = a.effect?.getComputedTiming().endTime;
      return typeof end === 'number' && Number.isFinite(end);
    });
    await Promise.all(ending.map((a) => a.finished.catch(() => undefined)));
  });
}

/** At the table: every opponent's name reads whole (not cut to "로봇 …") and no two tiles read the same. */
async function namesApart(p: Player) {
  const names = await p.page.evaluate(() => {
    const { document } = globalThis as unknown as InPage;
    return [...document.querySelectorAll('.opponent .opp-name')].map((n) => ({
      text: (n.textContent ?? '').trim(),
      cut: n.scrollHeight > n.clientHeight + 1 || n.scrollWidth > n.clientWidth + 1,
    }));
  });
  assert.ok(names.length > 0, `${p.size}: opponents at the table`);
  for (const n of names) assert.ok(!n.cut && !n.text.includes('…'), `${p.size}: "${n.text}" reads whole`);
  const texts = names.map((n) => n.text);
  assert.equal(new Set(texts).size, texts.length, `${p.size}: no two tiles read the same (${texts.join(' / ')})`);
}

/** The receivers' buttons: in the tiles' order, each with its tile's face (colour) and name. */
async function targetsLikeTiles(p: Player) {
  const read = (selector: string, face: string, name: string) =>
    p.page.evaluate(
      ([selector, face, name]) => {
        const { document } = globalThis as unknown as InPage;
        return [...document.querySelectorAll(selector)].map((n) => ({
          id: n.getAttribute('data-player') ?? n.getAttribute('data-target'),
          colour: n.querySelector(face)?.getAttribute('data-colour') ?? null,
          name: (n.querySelector(name)?.textContent ?? '').replace('👑', '').trim(),
        }));
      },
      [selector, face, name] as const,
    );
  const tiles = await read('.opponent[data-player]', '.avatar', '.opp-name');
  const targets = await read('button.target', '.avatar', '.target-who b');
  assert.deepEqual(targets, tiles, `${p.size}: the receivers' buttons follow the tiles, with their faces and names`);
  run.targetsChecked++;
}

/** Nowhere does my own page call me "…님", or say "나 앞으로". */
async function speaksToMe(p: Player, where: string) {
  const text = (await p.page.locator('#screen').textContent()) ?? '';
  assert.ok(!text.includes(`${p.nickname}님`), `${p.size} ${where}: my own page calls me ${p.nickname}님`);
  assert.ok(!/나 앞으로|(^|[\s:"(])나님/.test(text), `${p.size} ${where}: "나 앞으로" or "나님"`);
}

/** Every reveal this page showed, from its reader's side: whoever judged is named, and the card coming to me is never green news. */
async function revealsFromMySide(p: Player): Promise<number> {
  const seen = await p.page.evaluate(() => (globalThis as unknown as InPage).seenReveals ?? []);
  for (const { tone, verdict, took, inCenter } of seen) {
    assert.ok(inCenter, `${p.size}: the reveal is inside the table, not over it (${verdict})`);
    assert.match(verdict, /^(내가|.+님이) (맞혔어요|틀렸어요)/, `the verdict names who judged: ${verdict}`);
    if (took.includes('내 앞으로')) assert.equal(tone, 'bad', `the card comes to me: not good news (${verdict} ${took})`);
    else assert.notEqual(tone, 'bad', `${verdict} ${took}`);
    assert.ok(!took.includes('나 앞으로'));
  }
  return seen.length;
}

/**
 * The decision on screen, checked as a child would meet it once the page has scrolled itself: the
 * question, its buttons (and, when judging or passing, the card in flight) inside the viewport and
 * uncovered, and the clock in sight.
 */
async function checkDecision(p: Player, what: string) {
  await settle(p);
  const can = await p.attr('can');
  await inView(p, '.countdown', `${what}: the clock`);
  if (can.includes('call') || can === 'pass') await inView(p, '.flight-card', `${what}: the card in flight`);
  // Choosing a card: the cards in my hand. Later steps: the step's own buttons (진짜!/거짓말!/몰래 보고,
  // receivers, the 8 kinds, 확인).
  const prompt = (await p.page.locator('.actions .prompt').count()) > 0;
  if (prompt) await inView(p, '.actions .prompt h3', `${what}: the question`);
  await inView(p, prompt ? '.actions button:not([disabled])' : '.hand-card:not([disabled])', what, true);
  if (can.includes('call')) await inView(p, '#call-true, #call-false, #peek', what, true);
  p.checked++;
}

/** The hand-over flow as a person taps it: (card →) receiver → one of the 8 kinds → 확인. */
async function handOver(p: Player, turn: number, withCard: boolean) {
  const { page } = p;
  let kind: string | null = null;
  if (withCard) {
    await checkDecision(p, 'choosing a card');
    await shotOnce(p, 'turn-offer');
    const cards = page.locator('.hand-card:not([disabled])');
    const n = await cards.count();
    assert.ok(n > 0, `${p.nickname}: no card to offer`);
    const card = cards.nth(turn % n);
    kind = await card.getAttribute('data-kind');
    await card.click();
  }
  const targets = page.locator('button.target:not([disabled])');
  await targets.first().waitFor();
  await checkDecision(p, withCard ? 'choosing whom to give' : 'choosing whom to pass to');
  await targetsLikeTiles(p);
  if (withCard) assert.doesNotMatch((await page.locator('.center').textContent()) ?? '', /골라요/, 'the middle no longer asks for a card');
  if (!withCard) {
    // Whoever has seen the card (the starter at least) is greyed out, saying why.
    const greyed = page.locator('button.target[disabled] .reason');
    assert.ok((await greyed.count()) >= 1, 'someone who saw the card is greyed out');
    assert.match((await greyed.first().textContent()) ?? '', /봤어요/);
    await shotOnce(p, 'turn-pass-greyed');
  } else {
    await shotOnce(p, 'turn-targets');
  }
  await targets.nth(turn % (await targets.count())).click();
  await page.locator('.claim-grid button.claim').first().waitFor();
  assert.equal(await page.locator('.claim-grid button.claim').count(), 8);
  const box = await sizeOf(page.locator('.claim-grid button.claim').first());
  assert.ok(box.width >= 64 && box.height >= 64, `kind buttons are at least 64 px (${box.width}×${box.height})`);
  await checkDecision(p, 'choosing what to say');
  await shotOnce(p, 'turn-claim');
  // Every other claim is a bluff, so calls can go either way.
  const all = ['cockroach', 'bat', 'fly', 'toad', 'rat', 'scorpion', 'spider', 'stinkbug'];
  const truth = kind ?? (await page.locator('.flight-card.face').getAttribute('class'))!.match(/kind-(\w+)/)![1];
  const claim = turn % 2 === 0 ? truth : all[(all.indexOf(truth) + 1 + (turn % 7)) % 8];
  await page.locator(`button.claim[data-claim="${claim}"]`).click();
  await page.locator('#confirm').waitFor();
  await checkDecision(p, 'confirming');
  await shotOnce(p, 'turn-confirm');
  await page.locator('#confirm').click();
}

/**
 * A notice while the child is deciding (chat sent too fast: RATE_LIMITED) takes its own room at
 * the top and covers none of the buttons; a tap on it folds it.
 */
async function noticeDuringDecision(p: Player) {
  const chats = p.page.locator('button.chat[data-phrase="nice"]');
  // A tap from outside (see `tapAside`): the page must keep the decision in sight by itself.
  for (let i = 0; i < 12 && !(await p.page.locator('#toast.show').isVisible()); i++) await tapAside(chats);
  await p.page.locator('#toast.show').waitFor();
  await checkDecision(p, 'a notice is up');
  await shotOnce(p, 'notice-while-judging');
  await p.page.locator('#toast.show').click();
  await p.page.waitForSelector('#toast:not(.show)', { state: 'attached' });
  await checkDecision(p, 'the notice folded');
}

/**
 * A tap on something away from the decision (a quick-chat line), made without Playwright's scroll
 * to the element: a test that scrolls the page itself after the page brought a decision into view
 * would find the decision gone from sight through its own doing.
 */
function tapAside(target: Locator) {
  return target.dispatchEvent('click');
}

/** What the games so far have not yet shown and checked (every reveal seen is checked again on each call). */
async function unmet(host: Player, friend: Player): Promise<string[]> {
  const out: string[] = [];
  if (host.checked === 0 || friend.checked === 0) out.push('a decision checked on each phone size');
  if (run.targetsChecked === 0) out.push("the receivers' buttons compared with the tiles");
  if (!run.peeked) out.push('a peek, then the card passed on');
  if (!run.toastTried) out.push('a notice during a decision on the small phone');
  for (const p of [host, friend]) if ((await revealsFromMySide(p)) === 0) out.push(`a reveal read on ${p.size}`);
  return out;
}

/** One move of whoever's turn it is on this page, then wait for the server's patch of it. */
async function move(p: Player) {
  const turn = p.moves++;
  const step = await p.attr('step');
  const can = await p.attr('can');
  if (can === 'offer') {
    await handOver(p, turn, true);
  } else if (can === 'pass') {
    await handOver(p, turn, false);
  } else {
    await checkDecision(p, 'judging');
    await shotOnce(p, 'turn-judge');
    if (!run.toastTried && p.viewport === SMALL) {
      run.toastTried = true;
      await noticeDuringDecision(p);
    }
    const peek = p.page.locator('#peek');
    if (can.includes('peek') && (!run.peeked || turn % 3 === 1)) {
      run.peeked = true;
      await peek.click();
      await p.page.waitForSelector('body[data-can="pass"]');
      await handOver(p, turn, false);
    } else {
      if (!can.includes('peek')) assert.ok(await peek.isDisabled(), 'peek is greyed out when not allowed');
      const reveals = (await p.attr('reveals')) || '0';
      await p.page.locator(turn % 2 ? '#call-false' : '#call-true').click();
      // The reveal is told in the middle of the table for a moment: wait on its counter.
      await p.page.waitForSelector(`body:not([data-reveals="${reveals}"])`, { state: 'attached' });
      // A picture of it when it is still up (its words are checked from the page's record).
      if ((await p.screen()) === 'table' && (await p.page.locator('#reveal').isVisible())) await shotOnce(p, 'reveal');
    }
  }
  // Selectors, not script predicates: the page's CSP forbids the eval a string predicate needs.
  await p.page.waitForSelector(`body:not([data-step="${step}"]), body:not([data-screen="table"])`, { state: 'attached' });
}

/** Plays until the results screen, each page acting when the page says it is its turn. */
async function playToEnd(players: Player[]) {
  let moves = 0;
  for (;;) {
    const ready = await Promise.race(
      players.map((p) =>
        p.page
          .waitForSelector('body[data-screen="results"], body[data-screen="table"][data-myturn="true"]', { timeout: 60000 })
          .then(() => p)
          .catch(() => null),
      ),
    );
    assert.ok(ready, 'nobody was ever on turn: the game stalled');
    if ((await ready.screen()) === 'results') return moves;
    await move(ready);
    moves++;
    assert.ok(moves < 600, 'the game should end');
  }
}

/** Each seat's avatar colour on this page, by player id. */
async function colours(p: Player, selector: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const row of await p.page.locator(selector).all()) {
    const id = (await row.getAttribute('data-player'))!;
    out[id] = (await row.locator('.avatar').first().getAttribute('data-colour'))!;
  }
  return out;
}

describe('/play in Chromium', function () {
  let ts: TestServer;
  let browser: Browser;
  let contexts: BrowserContext[] = [];
  let base: string;
  let players: Player[] = [];
  let motion: Motion = 'reduce';

  before(async function () {
    const executablePath = findChromium();
    if (!executablePath) {
      if (process.env.CI) throw new Error('CI must run the browser test, but `which chromium` found nothing (apt install chromium)');
      this.skip();
    }
    fs.rmSync(ARTIFACTS, { recursive: true, force: true });
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    ts = await bootTestServer({ botThinkMs: 30 }); // bots answer at once: the test waits on people
    base = `http://127.0.0.1:${ts.server.port}`;
    browser = await chromium.launch({ executablePath: executablePath!, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  });

  afterEach(async function () {
    if (this.currentTest?.state !== 'failed') return;
    for (const p of players) await p.shot(`failed-${p.nickname}`).catch(() => undefined);
  });

  async function closeContexts() {
    for (const c of contexts) await c.close().catch(() => undefined);
    contexts = [];
    players = [];
  }

  after(async () => {
    await closeContexts();
    await browser?.close();
    await ts?.server.close();
  });

  async function open(nickname: string, viewport = LARGE, url = `${base}/play`): Promise<Player> {
    const context = await browser.newContext({
      viewport,
      locale: 'ko-KR',
      reducedMotion: motion,
      hasTouch: true,
      isMobile: true,
      deviceScaleFactor: 2,
    });
    contexts.push(context);
    await context.addInitScript(recordReveals);
    const page = await context.newPage();
    page.on('pageerror', (e) => console.error(`[${nickname}] page error:`, e.message));
    await page.goto(url);
    const player = new Player(page, nickname, viewport, motion);
    players.push(player);
    return player;
  }

  for (const setting of ['reduce', 'no-preference'] as const) {
    describe(setting === 'reduce' ? 'with reduced motion' : 'with motion on, as phones have it', function () {
      before(() => {
        motion = setting;
        run = freshRun();
      });
      after(closeContexts);

      it('two people (390×844 and 360×640) and four bots play a whole game through the page, one reloads and comes back, then 한 판 더', async () => {
        const host = await open('민수', LARGE);
        const friend = await open('지우', SMALL);

        // --- lobby: the host makes a room with options, the friend joins by its id ---
        await host.waitScreen('entry');
        await host.page.fill('#nickname', host.nickname);
        await host.page.locator('#create-panel summary').click();
        await host.shot('entry');
        assert.equal(await host.page.isChecked('#opt-public'), false, 'a new table is private unless the host opens it');
        await host.page.selectOption('#opt-lose', '4');
        await host.page.selectOption('#opt-turn', '60');
        await host.page.locator('#create-room').click();
        await host.waitScreen('lobby');
        // A new screen starts at its top: the room code is in sight without scrolling.
        assert.equal(await scrollY(host), 0, 'the lobby opens scrolled to the top');
        await inView(host, '#room-code', 'the lobby');
        assert.match((await host.page.locator('.rules-chips').textContent()) ?? '', /초대한 사람만/);
        const roomId = (await host.page.locator('#room-code').textContent())!.trim();
        assert.ok(roomId.length > 0);
        // The invite: a link that opens /play with the code, and its QR code drawn in the page as SVG.
        const link = await host.page.locator('#invite-link').inputValue();
        assert.equal(link, `${base}/play/?code=${encodeURIComponent(roomId.replace(/\s/g, ''))}`);
        await host.page.locator('#invite-qr svg').waitFor();

        await friend.waitScreen('entry');
        await friend.page.locator('#skin-switch').click(); // this child prefers animals
        assert.equal(await friend.attr('skin'), 'animals');
        assert.match(await friend.page.title(), /^동물 블러핑/, 'the animal skin has its own title');
        assert.match((await friend.page.locator('h1').textContent()) ?? '', /동물 블러핑/);
        await friend.page.fill('#nickname', friend.nickname);
        // A mistyped room id is told apart from a network problem, in words a child reads.
        await friend.page.fill('#room-id', 'nosuchroom');
        await friend.page.locator('#join-room').click();
        await friend.page.locator('#toast.show:has-text("방")').waitFor();
        assert.equal(await friend.screen(), 'entry');
        await friend.page.fill('#room-id', roomId);
        await friend.page.locator('#join-room').click();
        await friend.waitScreen('lobby');
        assert.equal(await scrollY(friend), 0, 'the lobby opens scrolled to the top');
        // The joined child reads what comes next on the first screen of a small phone.
        await inView(friend, '#dock .waiting', 'the lobby: whom the child waits for');
        assert.match((await friend.page.locator('#dock .waiting').textContent()) ?? '', /방장이 시작하기를 기다려요/);
        await host.page.locator(`.seat:has-text("${friend.nickname}")`).waitFor();

        const watcher = await open('구경꾼');
        await watcher.waitScreen('entry');
        await watcher.page.fill('#room-id', roomId);
        await watcher.page.locator('#watch-room').click();
        await watcher.waitScreen('lobby');

        // Practice bots fill the table: add them, take one out, add it back.
        for (const level of ['sharp', 'gentle', 'normal', 'gentle']) {
          const before = await host.page.locator('.seat .tag.bot').count();
          await host.page.locator(`#add-bot-${level}`).click();
          await host.page.locator('.seat .tag.bot').nth(before).waitFor();
        }
        const remove = host.page.locator('.remove-bot').last();
        const removeBox = await sizeOf(remove);
        assert.ok(removeBox.height >= 44 && removeBox.width >= 44, `빼기 is thumb-sized (${removeBox.width}×${removeBox.height})`);
        await remove.click();
        await host.page.locator('.seat .tag.bot').nth(3).waitFor({ state: 'detached' });
        await host.page.locator('#add-bot-gentle').click();
        await host.page.locator('.seat .tag.bot').nth(3).waitFor();
        await friend.page.locator('.seat .tag.bot').nth(3).waitFor();
        // The same colour for each player on both phones.
        assert.deepEqual(
          await colours(friend, '.seat[data-player]'),
          await colours(host, '.seat[data-player]'),
          'avatar colours match across phones',
        );
        // The help promises exactly the badges this game shows (4 to lose: red from the 3rd card, no yellow).
        await friend.page.locator('details.help summary').click();
        const help = (await friend.page.locator('details.help').textContent()) ?? '';
        assert.match(help, /3장이면 🚨 빨간 '위험' 배지/);
        assert.doesNotMatch(help, /노란/);
        await host.shot('lobby-host');
        await friend.shot('lobby-friend-animals');
        await friend.view('lobby-friend-first-screen');
        // The next step, 게임 시작, is in sight where the host's finger already is, without a hunt.
        await inView(host, '#start:not([disabled])', 'the lobby: 게임 시작', true);
        await host.view('lobby-host-first-screen');
        await host.page.locator('#start').click();
        await Promise.all([host.waitScreen('table'), friend.waitScreen('table'), watcher.waitScreen('table')]);
        assert.equal(await watcher.page.locator('.hand-card').count(), 0, 'a watcher holds no cards');
        await watcher.page.locator('.opponent').nth(5).waitFor();
        await watcher.shot('watching');
        const seenByHost = await colours(host, '.opponent[data-player]');
        const seenByFriend = await colours(friend, '.opponent[data-player]');
        for (const [id, colour] of Object.entries(seenByFriend))
          if (id in seenByHost) assert.equal(colour, seenByHost[id], 'the same colour at the table on both phones');
        assert.equal(new Set(Object.values(seenByHost)).size, 5, 'five opponents, five colours');
        // Five opponents on a 360 px phone: every name whole, no two tiles alike.
        await namesApart(friend);
        await namesApart(host);
        await speaksToMe(host, 'the table');
        await speaksToMe(friend, 'the table');

        // --- quick chat reaches the other player; its buttons are thumb-sized ---
        const chat = host.page.locator('button.chat[data-phrase="really"]');
        assert.ok((await sizeOf(chat)).height >= 44, 'quick-chat buttons are at least 44 px tall');
        await tapAside(chat);
        await friend.page.locator('.chat-bubble:has-text("정말이야!")').waitFor();

        // --- a reload, then a network gone silent, once the cards are dealt ---
        const before = await friend.page.locator('.hand-total').textContent();
        await friend.shot('before-reload');
        await friend.page.reload();
        await friend.waitScreen('table');
        await friend.page.waitForSelector('#banner:not(.show)', { state: 'attached' });
        assert.match((await friend.page.locator('.mine-head').textContent()) ?? '', new RegExp(friend.nickname));
        assert.equal(await friend.page.locator('.hand-total').textContent(), before, 'the same seat, the same hand');
        assert.equal(await friend.attr('skin'), 'animals', 'the skin is remembered too');
        // The network goes away without a close: the SDK notices the silence, the banner says so.
        await friend.page.context().setOffline(true);
        await friend.page.locator('#banner.show').waitFor({ timeout: 20000 });
        await friend.view('reconnecting');
        await friend.page.context().setOffline(false);
        await friend.page.waitForSelector('#banner:not(.show)', { state: 'attached', timeout: 30000 });
        await friend.waitScreen('table');

        // --- the whole game ---
        await playToEnd([host, friend]);

        // --- results ---
        await Promise.all([host.waitScreen('results'), friend.waitScreen('results'), watcher.waitScreen('results')]);
        await host.page.locator('#ranking li').first().waitFor();
        assert.equal(await scrollY(host), 0, 'the results open at the top');
        // 한 판 더 is the host's next step: in sight at once, on the first screen.
        await inView(host, '#rematch', 'the results: 한 판 더', true);
        await inView(friend, '#dock .waiting', 'the results: whom the child waits for');
        await host.view('results-host-first-screen');
        await friend.view('results-friend-first-screen');
        for (const p of [host, friend]) await speaksToMe(p, 'the results');
        // Everyone but the loser won: no medals that make a winner read as second.
        const ranks = (await host.page.locator('#ranking').textContent()) ?? '';
        assert.doesNotMatch(ranks, /[🥇🥈🥉]/u);
        assert.equal(await host.page.locator('#ranking .outcome.won').count(), (await host.page.locator('#ranking .rank').count()) - 1);
        const summary = (await host.page.locator('#summary').textContent()) ?? '';
        assert.match(summary, /패배|내가 졌어요/);
        assert.match((await friend.page.locator('#summary').textContent()) ?? '', /패배|내가 졌어요/);
        await host.page.locator('#last-call').waitFor();
        const loserName = async (p: Player) =>
          ((await p.page.locator('#ranking .rank.loser .rank-player > b').textContent()) ?? '').replace(' (나)', '');
        assert.equal(await loserName(friend), await loserName(host), 'both see the same loser');
        await host.page.locator('#scores').waitFor();
        await host.page.locator('#highlights li').first().waitFor();
        const points = await host.page.locator('#scores li b').allTextContents();
        assert.deepEqual([...points].sort(), ['0점', '1점', '1점', '1점', '1점', '1점'], 'one point for each winner, none for the loser');
        if (!WITHOUT_RECORDS) {
          await host.page.locator('#verify').click();
          await host.page.locator('#fair-out.good, #fair-out.bad').waitFor();
          assert.match((await host.page.locator('#fair-out').textContent()) ?? '', /공정한 게임/, 'the fairness check passes');
        }
        await host.shot('results-host');
        await friend.shot('results-friend-animals');

        // --- 한 판 더: back to the lobby with the running score, then a second game ---
        assert.match((await friend.page.locator('#dock .waiting').textContent()) ?? '', /한 판 더/, 'the others wait for the host');
        await host.page.locator('#rematch').click();
        await Promise.all([host.waitScreen('lobby'), friend.waitScreen('lobby'), watcher.waitScreen('lobby')]);
        assert.match((await host.page.locator('.games-played').textContent()) ?? '', /1판/);
        assert.equal(await host.page.locator('.seat:not(.empty)').count(), 6, 'both people and the bots keep their seats');
        assert.equal(await host.page.locator('.seat .tag.score').count(), 6, 'every seat shows its running score');
        await host.shot('lobby-rematch');
        // Back in the lobby, 게임 시작 is in sight at once, not two screens down.
        await inView(host, '#start:not([disabled])', 'the lobby after 한 판 더: 게임 시작', true);
        await host.page.locator('#start').click();
        await Promise.all([host.waitScreen('table'), friend.waitScreen('table'), watcher.waitScreen('table')]);

        // Each kind of decision met on each phone: the deal is random and a short first game may
        // not offer them all, so the games go on until it has (two more at most).
        for (let extra = 0; (await unmet(host, friend)).length > 0 && extra < 2; extra++) {
          await playToEnd([host, friend]);
          await Promise.all([host.waitScreen('results'), friend.waitScreen('results')]);
          await host.page.locator('#rematch').click();
          await Promise.all([host.waitScreen('lobby'), friend.waitScreen('lobby')]);
          await host.page.locator('#start:not([disabled])').click();
          await Promise.all([host.waitScreen('table'), friend.waitScreen('table')]);
        }
        assert.deepEqual(await unmet(host, friend), [], 'every kind of decision was met and checked');
      });

      it("an invite link brings a parent in, the host removes them (told in Korean), the clock's move is told, badges read out, leaving asks first", async () => {
        const kid = await open('하준', SMALL);
        await kid.waitScreen('entry');
        await kid.page.fill('#nickname', kid.nickname);
        await kid.page.locator('#create-panel summary').click();
        await kid.page.selectOption('#opt-turn', '15');
        await kid.page.locator('#create-room').click();
        await kid.waitScreen('lobby');

        // --- the invite: the code large and grouped, a link with it, the link as a QR code ---
        assert.match(
          (await kid.page.locator('#room-code').textContent()) ?? '',
          /^[0-9]{3} [0-9]{3}$/,
          'six digits, grouped for reading aloud',
        );
        const code = ((await kid.page.locator('#room-code').textContent()) ?? '').replace(' ', '');
        const link = await kid.page.locator('#invite-link').inputValue();
        assert.equal(link, `${base}/play/?code=${code}`);
        await kid.page.locator('#invite-qr svg').waitFor();
        await kid.view('invite');
        // A parent scans it on a phone that never played: asked for a name, then in the same room.
        const parent = await open('엄마', LARGE, link);
        await parent.page.locator('#invited').waitFor();
        assert.match((await parent.page.locator('#invited').textContent()) ?? '', new RegExp(`${code.slice(0, 3)} ${code.slice(3)}`));
        await parent.view('invited');
        await parent.page.fill('#nickname', parent.nickname);
        await parent.page.locator('#invite-join').click();
        await parent.waitScreen('lobby');
        assert.equal(((await parent.page.locator('#room-code').textContent()) ?? '').replace(' ', ''), code, 'the invite joined that room');
        assert.doesNotMatch(parent.page.url(), /code=/, 'the address bar forgets the invite once in');
        const parentRow = kid.page.locator(`.seat:has-text("${parent.nickname}")`);
        await parentRow.waitFor();
        // The host removes them, after a confirmation; their screen says so in Korean.
        await parentRow.locator('button.kick').click();
        await kid.page.locator('#ask-kick').waitFor();
        await kid.view('kick-ask');
        await kid.page.locator('#kick-confirm').click();
        await parent.waitScreen('entry');
        const farewell = (await parent.page.locator('#farewell').textContent()) ?? '';
        assert.match(farewell, /[가-힣]/, `the removed player is told in Korean: ${farewell}`);
        assert.match(farewell, /내보냈/);
        await parent.view('kicked');
        await parentRow.waitFor({ state: 'detached' });
        // The same link again (the phone now knows the name): refused, said in Korean, nothing joined.
        await parent.page.goto(link);
        await parent.page.locator('#toast.show:has-text("내보냈")').waitFor();
        assert.equal(await parent.screen(), 'entry');

        // --- the kick locked the door (issue 32): a second phone, a new person, is refused ---
        await kid.page.locator('#door.locked').waitFor();
        assert.match((await kid.page.locator('#door-state').textContent()) ?? '', /잠겼/);
        assert.match((await kid.page.locator('#host-why').textContent()) ?? '', /방을 만든 내가 방장/);
        await kid.view('door-locked');
        const grandpa = await open('할아버지', SMALL, link);
        await grandpa.page.locator('#invited').waitFor();
        await grandpa.page.fill('#nickname', grandpa.nickname);
        await grandpa.page.locator('#invite-join').click();
        await grandpa.page.locator('#toast.show:has-text("잠가서")').waitFor();
        assert.equal(await grandpa.screen(), 'entry');
        await grandpa.view('refused-locked');
        // The host opens the door; grandma comes to watch and everyone sees her; the host removes her.
        await kid.page.locator('#unlock').click();
        await kid.page.locator('#door:not(.locked) #lock').waitFor();
        const grandma = await open('할머니', LARGE);
        await grandma.waitScreen('entry');
        await grandma.page.fill('#nickname', grandma.nickname);
        await grandma.page.fill('#room-id', code);
        await grandma.page.locator('#watch-room').click();
        await grandma.waitScreen('lobby');
        const watcherRow = kid.page.locator(`.watcher:has-text("${grandma.nickname}")`);
        await watcherRow.waitFor();
        await grandma.page.locator('.watcher.me:has-text("나")').waitFor();
        await kid.view('watchers');
        await watcherRow.locator('button.kick').click();
        await kid.page.locator('#kick-confirm').click();
        await grandma.waitScreen('entry');
        await watcherRow.waitFor({ state: 'detached' });
        await kid.page.locator('#door.locked').waitFor();
        // The host may open and lock again at any time.
        await kid.page.locator('#unlock').click();
        await kid.page.locator('#lock').click();
        await kid.page.locator('#door.locked #unlock').waitFor();

        await kid.page.locator('#add-bot-gentle').click();
        await kid.page.locator('.seat .tag.bot').waitFor();
        await kid.page.locator('#start').click();
        await kid.waitScreen('table');
        // Wait for a turn of mine and let the clock run out (15 s): the page says what was played.
        await kid.page.waitForSelector('body[data-myturn="true"]', { timeout: 30000 });
        await checkDecision(kid, 'a two-player turn');
        await kid.page.locator('#toast.show:has-text("시간이 다 돼서")').waitFor({ timeout: 25000 });
        await kid.view('clock-played');
        // Front badges say what they hold ("쥐 1장"), not a bare number.
        await kid.page.locator('.fronts .badge').first().waitFor({ timeout: 30000 });
        for (const label of await kid.page.locator('.fronts .badge').evaluateAll((all) => all.map((b) => b.getAttribute('aria-label')))) {
          assert.match(label ?? '', /^\S+ \d+장/, `a front badge reads out its kind and count: ${label}`);
        }
        assert.match((await kid.page.locator('.mine .fronts').getAttribute('aria-label')) ?? '', /내 앞/);
        // Leaving asks first; 계속하기 keeps the seat, 나가기 goes back to the start.
        await kid.page.locator('#leave-table').click();
        await kid.page.locator('#ask-leave').waitFor();
        await kid.view('leave-ask');
        await kid.page.locator('#leave-cancel').click();
        await kid.page.locator('#ask-leave').waitFor({ state: 'detached' });
        assert.equal(await kid.screen(), 'table');
        await kid.page.locator('#leave-table').click();
        await kid.page.locator('#leave-confirm').click();
        await kid.waitScreen('entry');
      });
    });
  }
});
