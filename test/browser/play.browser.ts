/**
 * /play in a real browser (Debian's chromium via playwright-core): two people and practice bots
 * play a whole game through the page only, clicking what a person clicks; one reloads mid-game
 * and gets the seat back; then 한 판 더. Screenshots go to test-artifacts/browser/.
 * Not part of `npm test`: run with `npm run test:browser`.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, Browser, BrowserContext, Page } from 'playwright-core';
import { bootTestServer, TestServer } from '../support/server';
import { findChromium } from './chromium';

const ARTIFACTS = path.resolve(__dirname, '../../test-artifacts/browser');
/** Until the server serves game records (GET /api/games/:gameId), `PLAY_TEST_WITHOUT_RECORDS=1` leaves out the fairness check. */
const WITHOUT_RECORDS = process.env.PLAY_TEST_WITHOUT_RECORDS === '1';
const PHONE = { width: 390, height: 844 };

class Player {
  moves = 0;
  constructor(
    readonly page: Page,
    readonly nickname: string,
  ) {}

  body(selector = '') {
    return this.page.locator(`body${selector}`);
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

  shot(name: string) {
    return this.page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
  }
}

const shots = new Set<string>();
let peeked = false;
async function shotOnce(p: Player, name: string) {
  if (shots.has(name)) return;
  shots.add(name);
  await p.shot(name);
}

/** The hand-over flow as a person taps it: (card →) receiver → one of the 8 kinds → 확인. */
async function handOver(p: Player, turn: number, withCard: boolean) {
  const { page } = p;
  let kind: string | null = null;
  if (withCard) {
    const cards = page.locator('.hand-card:not([disabled])');
    const n = await cards.count();
    assert.ok(n > 0, `${p.nickname}: no card to offer`);
    const card = cards.nth(turn % n);
    kind = await card.getAttribute('data-kind');
    await card.click();
  }
  const targets = page.locator('button.target:not([disabled])');
  await targets.first().waitFor();
  if (!withCard) {
    // Whoever has seen the card (the starter at least) is greyed out, saying why.
    const greyed = page.locator('button.target[disabled] .reason');
    assert.ok((await greyed.count()) >= 1, 'someone who saw the card is greyed out');
    assert.match((await greyed.first().textContent()) ?? '', /봤어요/);
    await shotOnce(p, 'turn-pass-greyed');
  }
  await targets.nth(turn % (await targets.count())).click();
  await page.locator('.claim-grid button.claim').first().waitFor();
  assert.equal(await page.locator('.claim-grid button.claim').count(), 8);
  const box = await page.locator('.claim-grid button.claim').first().boundingBox();
  assert.ok(box && box.width >= 64 && box.height >= 64, `kind buttons are at least 64 px (${box?.width}×${box?.height})`);
  await shotOnce(p, 'turn-claim');
  // Every other claim is a bluff, so calls can go either way.
  const all = ['cockroach', 'bat', 'fly', 'toad', 'rat', 'scorpion', 'spider', 'stinkbug'];
  const truth = kind ?? (await page.locator('.flight-card.face').getAttribute('class'))!.match(/kind-(\w+)/)![1];
  const claim = turn % 2 === 0 ? truth : all[(all.indexOf(truth) + 1 + (turn % 7)) % 8];
  await page.locator(`button.claim[data-claim="${claim}"]`).click();
  await page.locator('#confirm').waitFor();
  await shotOnce(p, 'turn-confirm');
  await page.locator('#confirm').click();
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
    await shotOnce(p, 'turn-judge');
    const peek = p.page.locator('#peek');
    if (can.includes('peek') && (!peeked || turn % 3 === 1)) {
      peeked = true;
      await peek.click();
      await p.page.waitForSelector('body[data-can="pass"]');
      await handOver(p, turn, false);
    } else {
      if (!can.includes('peek')) assert.ok(await peek.isDisabled(), 'peek is greyed out when not allowed');
      const reveals = (await p.page.locator('#reveal').getAttribute('data-count')) ?? '0';
      await p.page.locator(turn % 2 ? '#call-false' : '#call-true').click();
      // The reveal shows for a moment only: wait on its counter, photograph it while it is up.
      await p.page.waitForSelector(`#reveal:not([data-count="${reveals}"])`, { state: 'attached' });
      if (!shots.has('reveal') && (await p.page.locator('#reveal.show').isVisible())) await shotOnce(p, 'reveal');
    }
  }
  // Selectors, not script predicates: the page's CSP forbids the eval a string predicate needs.
  await p.page.waitForSelector(`body:not([data-step="${step}"]), body:not([data-screen="table"])`, { state: 'attached' });
}

/** Plays until the results screen, each page acting when the page says it is its turn. */
async function playToEnd(players: Player[], during?: (moves: number) => Promise<void>) {
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
    if (during) await during(moves);
    assert.ok(moves < 600, 'the game should end');
  }
}

describe('/play in Chromium', function () {
  let ts: TestServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let base: string;
  const players: Player[] = [];

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

  after(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await ts?.server.close();
  });

  async function open(nickname: string): Promise<Player> {
    const context = await browser.newContext({
      viewport: PHONE,
      locale: 'ko-KR',
      reducedMotion: 'reduce',
      hasTouch: true,
      isMobile: true,
      deviceScaleFactor: 2,
    });
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (e) => console.error(`[${nickname}] page error:`, e.message));
    await page.goto(`${base}/play`);
    const player = new Player(page, nickname);
    players.push(player);
    return player;
  }

  it('two people and bots play a whole game through the page, one reloads and comes back, then 한 판 더', async () => {
    const host = await open('민수');
    const friend = await open('지우');

    // --- lobby: the host makes a room with options, the friend joins by its id ---
    await host.waitScreen('entry');
    await host.page.fill('#nickname', host.nickname);
    await host.page.locator('#create-panel summary').click();
    await host.shot('entry');
    await host.page.selectOption('#opt-lose', '3');
    await host.page.selectOption('#opt-turn', '60');
    await host.page.locator('#create-room').click();
    await host.waitScreen('lobby');
    const roomId = (await host.page.locator('#room-code').textContent())!.trim();
    assert.match(roomId, /^\S+$/);

    await friend.waitScreen('entry');
    await friend.page.locator('#skin-switch').click(); // this child prefers animals
    assert.equal(await friend.attr('skin'), 'animals');
    await friend.page.fill('#nickname', friend.nickname);
    // A mistyped room id is told apart from a network problem, in words a child reads.
    await friend.page.fill('#room-id', 'nosuchroom');
    await friend.page.locator('#join-room').click();
    await friend.page.locator('#toast.show:has-text("방 번호")').waitFor();
    assert.equal(await friend.screen(), 'entry');
    await friend.page.fill('#room-id', roomId);
    await friend.page.locator('#join-room').click();
    await friend.waitScreen('lobby');
    await host.page.locator(`.seat:has-text("${friend.nickname}")`).waitFor();

    const watcher = await open('구경꾼');
    await watcher.waitScreen('entry');
    await watcher.page.fill('#room-id', roomId);
    await watcher.page.locator('#watch-room').click();
    await watcher.waitScreen('lobby');

    // Practice bots fill the table: add two, take one out, add it back.
    await host.page.locator('#add-bot-smart').click();
    await host.page.waitForSelector('.seat .tag.bot');
    await host.page.locator('#add-bot-easy').click();
    await host.page.locator('.seat .tag.bot').nth(1).waitFor();
    await host.page.locator('.remove-bot').last().click();
    await host.page.locator('.seat .tag.bot').nth(1).waitFor({ state: 'detached' });
    await host.page.locator('#add-bot-easy').click();
    await host.page.locator('.seat .tag.bot').nth(1).waitFor();
    await friend.page.locator('.seat .tag.bot').nth(1).waitFor();
    await host.shot('lobby-host');
    await friend.shot('lobby-friend-animals');
    await host.page.locator('#start').click();
    await Promise.all([host.waitScreen('table'), friend.waitScreen('table'), watcher.waitScreen('table')]);
    assert.equal(await watcher.page.locator('.hand-card').count(), 0, 'a watcher holds no cards');
    await watcher.page.locator('.opponent').nth(3).waitFor();
    await watcher.shot('watching');

    // --- quick chat reaches the other player ---
    await host.page.locator('button.chat[data-phrase="really"]').click();
    await friend.page.locator('.chat-bubble:has-text("정말이야!")').waitFor();

    // --- the whole game, with a reload in the middle ---
    let reloaded = false;
    let dropped = false;
    const moves = await playToEnd([host, friend], async (n) => {
      if (reloaded && !dropped && n >= 6 && (await friend.screen()) === 'table') {
        // The network goes away without a close: the SDK notices the silence, the banner says so.
        dropped = true;
        await friend.page.context().setOffline(true);
        await friend.page.locator('#banner.show').waitFor({ timeout: 20000 });
        await friend.shot('reconnecting');
        await friend.page.context().setOffline(false);
        await friend.page.waitForSelector('#banner:not(.show)', { state: 'attached', timeout: 30000 });
        await friend.waitScreen('table');
        return;
      }
      if (reloaded || n < 4 || (await friend.screen()) !== 'table') return;
      reloaded = true;
      const before = await friend.page.locator('.hand-total').textContent();
      await friend.shot('before-reload');
      await friend.page.reload();
      await friend.waitScreen('table');
      await friend.page.waitForSelector('#banner:not(.show)', { state: 'attached' });
      assert.match((await friend.page.locator('.mine-head').textContent()) ?? '', new RegExp(friend.nickname));
      assert.equal(await friend.page.locator('.hand-total').textContent(), before, 'the same seat, the same hand');
      assert.equal(await friend.attr('skin'), 'animals', 'the skin is remembered too');
    });
    assert.ok(reloaded, 'the friend reloaded during the game');
    assert.ok(shots.has('reveal'), 'a reveal was on screen after a call');
    assert.ok(peeked, 'someone peeked and passed the card on');
    assert.ok(dropped, 'the friend lost the network during the game and came back');
    assert.ok(moves > 2);

    // --- results ---
    await Promise.all([host.waitScreen('results'), friend.waitScreen('results'), watcher.waitScreen('results')]);
    await host.page.locator('#ranking li').first().waitFor();
    const summary = (await host.page.locator('#summary').textContent()) ?? '';
    assert.match(summary, /패배/);
    assert.match((await friend.page.locator('#summary').textContent()) ?? '', /패배/);
    const loserName = async (p: Player) =>
      ((await p.page.locator('#ranking .rank.loser .rank-player > b').textContent()) ?? '').replace(' (나)', '');
    assert.equal(await loserName(friend), await loserName(host), 'both see the same loser');
    await host.page.locator('#scores').waitFor();
    await host.page.locator('#highlights li').first().waitFor();
    const points = await host.page.locator('#scores li b').allTextContents();
    assert.deepEqual([...points].sort(), ['0점', '1점', '1점', '1점'], 'one point for each winner, none for the loser');
    if (!WITHOUT_RECORDS) {
      await host.page.locator('#verify').click();
      await host.page.locator('#fair-out.good, #fair-out.bad').waitFor();
      assert.match((await host.page.locator('#fair-out').textContent()) ?? '', /공정한 게임/, 'the fairness check passes');
    }
    // The last reveal fades on its own; the results underneath are the screenshot.
    await host.page.waitForSelector('#reveal:not(.show)', { state: 'attached' });
    await friend.page.waitForSelector('#reveal:not(.show)', { state: 'attached' });
    await host.shot('results-host');
    await friend.shot('results-friend-animals');

    // --- 한 판 더: back to the lobby with the running score, then a second game ---
    assert.match((await friend.page.locator('.waiting').textContent()) ?? '', /한 판 더/, 'the others wait for the host');
    await host.page.locator('#rematch').click();
    await Promise.all([host.waitScreen('lobby'), friend.waitScreen('lobby'), watcher.waitScreen('lobby')]);
    assert.match((await host.page.locator('.games-played').textContent()) ?? '', /1판/);
    assert.equal(await host.page.locator('.seat:not(.empty)').count(), 4, 'both people and both bots keep their seats');
    assert.equal(await host.page.locator('.seat .tag.score').count(), 4, 'every seat shows its running score');
    await host.shot('lobby-rematch');
    await host.page.locator('#start').click();
    await Promise.all([host.waitScreen('table'), friend.waitScreen('table'), watcher.waitScreen('table')]);
  });
});
