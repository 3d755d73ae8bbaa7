// What the browser tests share: the real `snl serve` on a free loopback port with a fresh
// database and computers that play at once, and Debian's Chromium driven by playwright-core.
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, '../..');
/** Where screenshots go: $SNL_SHOTS, or target/web-screenshots. */
export const shots = process.env.SNL_SHOTS ?? path.join(root, 'target', 'web-screenshots');
mkdirSync(shots, { recursive: true });

/**
 * Starts `snl serve` (with `args` more of its options) and resolves with its address once it
 * prints its first line.
 * @param {string[]} [args]
 * @returns {Promise<{url: string, db: string | null, stop: () => void}>}
 */
export async function startServer(args = []) {
  // A server already running (e.g. dev-server.mjs in front of one), for working on the pages.
  if (process.env.SNL_URL) return { url: process.env.SNL_URL, db: process.env.SNL_DB ?? null, stop() {} };
  const bin = process.env.SNL_BIN ?? path.join(root, 'target', 'release', 'snl');
  const dir = mkdtempSync(path.join(tmpdir(), 'snl-web-'));
  const child = spawn(bin, ['serve', '--addr', '127.0.0.1:0', '--db', path.join(dir, 'games.db'), '--bot-delay-ms', '0', '--rate', '200', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: /** @type {import('node:stream').Readable} */ (child.stdout) });
  const first = await new Promise((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`snl serve exited with ${code} before listening`)));
  });
  const match = /^listening on (http:\/\/\S+)$/.exec(String(first));
  if (!match) throw new Error(`unexpected first line: ${first}`);
  return {
    url: match[1],
    /** The server's game database (`snl play --db` records into it too). @type {string | null} */
    db: path.join(dir, 'games.db'),
    stop() {
      child.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Debian's Chromium, headless. */
export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
}

/**
 * A page that fails the test on any script error.
 * @param {import('playwright-core').Browser} browser
 * @param {{reducedMotion?: 'reduce' | 'no-preference', viewport?: {width: number, height: number}, isMobile?: boolean, hasTouch?: boolean, bypassCSP?: boolean}} [options]
 */
export async function openPage(browser, options = {}) {
  const context = await browser.newContext({
    reducedMotion: options.reducedMotion ?? 'reduce',
    viewport: options.viewport ?? { width: 1280, height: 860 },
    isMobile: options.isMobile,
    hasTouch: options.hasTouch,
    bypassCSP: options.bypassCSP,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  return { context, page, errors };
}

/**
 * POST /api/… with a JSON body.
 * @param {string} url
 * @param {unknown} body
 */
export async function post(url, body) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = await response.json();
  if (!response.ok) throw new Error(JSON.stringify(json));
  return json;
}

/**
 * Waits until the page has shown every frame it received (its queue is empty).
 * @param {import('playwright-core').Page} page
 */
export async function settled(page) {
  await page.waitForFunction(() => document.body.dataset.idle === 'true');
}

/**
 * Plays the seats this page holds until the game is over: whenever Roll is enabled it clicks it,
 * whenever options are offered it takes the first. Resolves with the number of rolls made.
 * @param {import('playwright-core').Page} page
 * @param {{keyboard?: boolean, limit?: number}} [options]
 */
export async function playToEnd(page, options = {}) {
  let rolls = 0;
  const limit = options.limit ?? 2000;
  for (;;) {
    const next = await page.waitForFunction(() => {
      if (!document.getElementById('winner')?.hidden) return 'over';
      if (document.body.dataset.idle !== 'true') return false;
      const roll = /** @type {HTMLButtonElement} */ (document.getElementById('roll'));
      if (!roll.disabled) return 'roll';
      if (document.querySelector('#options button.option:not([disabled])')) return 'choose';
      return false;
    }, undefined, { timeout: 60_000 });
    const what = await next.jsonValue();
    if (what === 'over') return rolls;
    if (rolls++ > limit) throw new Error('the game did not end');
    const mark = await page.evaluate(() => `${document.body.dataset.awaited}/${document.body.dataset.refused}`);
    if (what === 'roll') {
      if (options.keyboard) await page.keyboard.press(rolls % 2 ? 'Space' : 'Enter');
      else await page.getByRole('button', { name: 'Roll', exact: true }).click();
    } else {
      // An option that moves (staying put for ever might never end the game).
      const texts = await page.locator('#options button.option').allTextContents();
      const pick = Math.max(0, texts.findIndex((t) => / Move /.test(t)));
      if (options.keyboard) await page.keyboard.press(String(pick + 1));
      else await page.locator('#options button.option').nth(pick).click();
    }
    // The intent is answered by events, then a new awaiting frame (or refused): wait for it.
    await page.waitForFunction((before) => `${document.body.dataset.awaited}/${document.body.dataset.refused}` !== before || !document.getElementById('winner')?.hidden, mark);
  }
}

/**
 * Where each token stands on the page.
 * @param {import('playwright-core').Page} page
 */
export async function tokens(page) {
  return page.$$eval('[data-player]', (nodes) => Object.fromEntries(nodes.map((n) => [n.getAttribute('data-player'), Number(n.getAttribute('data-position'))])));
}

/**
 * The lines of the page's live region.
 * @param {import('playwright-core').Page} page
 */
export async function logLines(page) {
  return page.$$eval('#log > p:not(.error)', (nodes) => nodes.map((n) => n.textContent ?? ''));
}

/**
 * A room of Ann (a person, held by a page of her own) and a computer named Robo (easy), made with
 * `extra` more of the room's request; the page opened on it, Ann's seat taken and shown.
 * @param {{url: string}} server
 * @param {import('playwright-core').Browser} browser
 * @param {Record<string, unknown>} extra
 * @param {Parameters<typeof openPage>[1]} [options] the page's (its viewport)
 */
export async function annAndRobo(server, browser, extra, options) {
  const made = await post(`${server.url}/api/rooms`, { seats: [{ kind: 'human' }, { kind: 'easy', name: 'Robo' }], ...extra });
  const { token } = await post(`${server.url}/api/rooms/${made.room}/seats/0`, { name: 'Ann' });
  const opened = await openPage(browser, options);
  await opened.page.goto(`${server.url}/room/${made.room}#token=${token}`);
  await opened.page.waitForFunction(() => document.querySelector('#players .player .badge-you'));
  await settled(opened.page);
  return { room: /** @type {string} */ (made.room), ...opened };
}

/**
 * Fills the lobby's form for Ann, Bob (a second person) and Robo (an easy computer), with a seed,
 * maybe a board and a choice rule, and presses "Play here": the game on this device begins.
 * @param {import('playwright-core').Page} page
 * @param {string} url the lobby's address
 * @param {{seed: number, choice?: string, board?: string}} game
 */
export async function playHere(page, url, game) {
  await page.goto(url);
  await page.getByLabel('Your name').fill('Ann');
  if (game.board) await page.getByLabel('Board', { exact: true }).selectOption(game.board);
  await page.locator('summary', { hasText: 'More rules' }).click();
  if (game.choice) await page.getByLabel('Decisions').selectOption(game.choice);
  await page.getByLabel('Dice seed').fill(String(game.seed));
  const kinds = page.locator('select.seat-kind');
  await kinds.nth(1).selectOption('human');
  await page.locator('input.seat-name').nth(1).fill('Bob');
  await page.getByRole('button', { name: 'Add a seat' }).click();
  await kinds.nth(2).selectOption('easy');
  await page.locator('input.seat-name').nth(2).fill('Robo');
  await page.getByRole('button', { name: 'Play here' }).click();
  await page.waitForURL(/\/local\/?$/);
  await page.waitForSelector('[data-player="Robo"]');
}
