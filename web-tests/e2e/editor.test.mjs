// The board editor in real Chromium: snakes, ladders and cell effects placed by clicking cells,
// problems shown as the validator lists them, the exact analysis and shortest path the server
// gives, the board file downloaded, and a room opened on the board.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, openPage, post, shots, startServer } from './support.mjs';
import { load, checkBoardFile } from '../../crates/server/web/assets/engine.js';

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {import('playwright-core').Browser} */
let browser;
before(async () => {
  server = await startServer();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  server?.stop();
});

/**
 * Waits until the page has its answer for the board as it stands.
 * @param {import('playwright-core').Page} page
 */
async function checked(page) {
  await page.waitForFunction(() => (document.body.dataset.checked ?? 'false') !== 'false');
}

/**
 * Places a jump with the tool `tool` from cell `a` to cell `b`.
 * @param {import('playwright-core').Page} page
 * @param {'snake' | 'ladder'} tool
 * @param {number} a
 * @param {number} b
 */
async function place(page, tool, a, b) {
  await page.getByLabel(tool === 'snake' ? 'Snake' : 'Ladder', { exact: true }).check();
  await page.locator(`[data-cell="${a}"]`).click();
  await page.locator(`[data-cell="${b}"]`).click();
  await checked(page);
}

test('the editor makes a valid board, shows its problems and analysis, downloads it and opens a room on it', async () => {
  const { page, errors } = await openPage(browser);
  await page.goto(`${server.url}/editor`);
  await checked(page);
  assert.match(await page.locator('#verdict').textContent() ?? '', /^the board is valid: 100 cells, 0 snakes, 0 ladders/);

  await page.getByLabel('Cells').fill('30');
  await checked(page);
  assert.equal(await page.locator('[data-cell]').count(), 31, 'cells 1..30 and the start tray');
  await place(page, 'ladder', 4, 20);
  await place(page, 'snake', 27, 3);
  await page.locator('#seats').selectOption('3');
  await checked(page);

  const board = { size: 30, snake: [{ head: 27, tail: 3 }], ladder: [{ foot: 4, top: 20 }] };
  const want = await post(`${server.url}/api/boards/check`, { board, rules: 'standard', seats: 3 });
  assert.equal(want.valid, true);
  assert.equal(await page.locator('#verdict').textContent(), want.message);
  assert.equal(await page.locator('#min-rolls').textContent(), String(want.min_rolls));
  assert.equal(await page.locator('#expected').textContent(), want.expected_turns.toFixed(2));
  assert.equal(await page.locator('g.overlay').getAttribute('data-path'), want.path.join(' '), 'the shortest path is drawn');
  const chances = await page.$$eval('#chances li', (nodes) => nodes.map((n) => Number(n.getAttribute('data-win'))));
  assert.deepEqual(chances, want.win_probability);
  assert.equal(await page.locator('#problems li').count(), 0);

  // A snake that goes up and a ladder that goes down: both told, the room refused.
  await place(page, 'snake', 10, 15);
  await place(page, 'ladder', 30, 12);
  const problems = await page.locator('#problems li').allTextContents();
  assert.equal(problems.length, 2, problems.join('\n'));
  assert.ok(problems.includes("snake 10→15 does not go down: a snake's tail must be below its head"), problems.join('\n'));
  assert.ok(problems.includes("ladder 30→12 does not go up: a ladder's top must be above its foot"), problems.join('\n'));
  assert.match(await page.locator('#verdict').textContent() ?? '', /^invalid board, 2 problems/);
  assert.equal(await page.getByRole('button', { name: 'Open a room with it' }).isDisabled(), true);
  await page.getByLabel('Erase', { exact: true }).check();
  await page.locator('[data-cell="10"]').click();
  await checked(page);
  await page.locator('[data-cell="30"]').click();
  await checked(page);
  assert.equal(await page.locator('#problems li').count(), 0);
  assert.equal(await page.locator('#verdict').textContent(), want.message);
  await page.screenshot({ path: path.join(shots, 'editor.png') });

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download board file' }).click(),
  ]);
  const text = await readFile(/** @type {string} */ (await download.path()), 'utf8');
  assert.match(text, /^size = 30$/m);
  assert.match(text, /\[\[snake\]\]\nhead = 27\ntail = 3/);
  assert.match(text, /\[\[ladder\]\]\nfoot = 4\ntop = 20/);

  await page.getByLabel('Your name').fill('Dee');
  await page.getByRole('button', { name: 'Open a room with it' }).click();
  await page.waitForURL(/\/room\/[0-9a-f]{16}$/);
  await page.waitForSelector('[data-player="Dee"][data-position="0"]');
  assert.equal(await page.locator('[data-cell]').count(), 31);
  const room = new URL(page.url()).pathname.split('/')[2];
  const state = await (await fetch(`${server.url}/api/rooms/${room}`)).json();
  assert.deepEqual(state.board, board);
  assert.equal(state.seats.length, 3);
  assert.deepEqual(errors, []);
});

/**
 * Clicks cells with the tool labelled `tool`, waiting for the check after each click.
 * @param {import('playwright-core').Page} page
 * @param {string} tool
 * @param {number[]} cells
 */
async function clickCells(page, tool, cells) {
  await page.getByLabel(tool, { exact: true }).check();
  for (const cell of cells) {
    await page.locator(`[data-cell="${cell}"]`).click();
    await checked(page);
  }
}

test('the editor places effects and a wormhole with its exits, checked live, in the file and the room', async () => {
  const { page, errors } = await openPage(browser);
  await page.goto(`${server.url}/editor`);
  await checked(page);
  await page.getByLabel('Cells').fill('30');
  await checked(page);
  await place(page, 'ladder', 4, 20);
  await clickCells(page, 'Skip a turn', [5]);
  await clickCells(page, 'Extra roll', [8]);
  await clickCells(page, 'Shield', [12]);
  // Drawn with the board's own icons.
  for (const [effect, cell] of [['skip', 5], ['extra', 8], ['shield', 12]]) {
    assert.equal(await page.locator(`#board .effects g.fx.fx-${effect}`).count(), 1, effect);
    assert.equal(await page.locator(`#board [data-cell="${cell}"].cell-fx-${effect}`).count(), 1, effect);
  }

  // A wormhole without exits yet: the validator's problem is listed, live.
  await clickCells(page, 'Wormhole', [14]);
  assert.deepEqual(await page.locator('#problems li').allTextContents(), ['wormhole 14 has no exits: give exits = [cell, ...]']);
  assert.equal(await page.getByRole('button', { name: 'Open a room with it' }).isDisabled(), true);
  // Its exits: 22 and 9, then 25 placed and taken away again; a click on the wormhole ends it.
  await clickCells(page, 'Wormhole', [22, 9, 25, 25, 14]);
  assert.equal(await page.locator('g.wormhole-exits[data-from="14"]').getAttribute('data-exits'), '22 9');
  assert.equal(await page.locator('g.wormhole-exits line.exit-line').count(), 2);
  assert.equal(await page.locator('#board .effects g.fx.fx-wormhole').count(), 1);

  const board = {
    size: 30,
    ladder: [{ foot: 4, top: 20 }],
    cell: [
      { at: 5, effect: 'skip' },
      { at: 8, effect: 'extra' },
      { at: 12, effect: 'shield' },
      { at: 14, effect: 'wormhole', exits: [22, 9] },
    ],
  };
  const want = await post(`${server.url}/api/boards/check`, { board, rules: 'standard', seats: 2 });
  assert.equal(want.valid, true);
  assert.equal(await page.locator('#verdict').textContent(), want.message);
  assert.equal(await page.locator('#problems li').count(), 0);
  // Boards with effects are analysed exactly: the page shows the server's numbers.
  assert.equal(want.analysis_error, undefined);
  assert.equal(await page.locator('#not-analysed').isHidden(), true);
  assert.equal(await page.locator('#expected').textContent(), want.expected_turns.toFixed(2));

  // An effect on a ladder's foot is refused as the validator says; a second click takes it away.
  await clickCells(page, 'Shield', [4]);
  const bad = await post(`${server.url}/api/boards/check`, { board: { ...board, cell: [...board.cell.slice(0, 2), { at: 4, effect: 'shield' }, ...board.cell.slice(2)] }, rules: 'standard', seats: 2 });
  assert.equal(bad.valid, false);
  assert.deepEqual(await page.locator('#problems li').allTextContents(), bad.problems);
  await clickCells(page, 'Shield', [4]);
  assert.equal(await page.locator('#problems li').count(), 0);
  await page.screenshot({ path: path.join(shots, 'editor-effects.png') });

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download board file' }).click(),
  ]);
  const text = await readFile(/** @type {string} */ (await download.path()), 'utf8');
  assert.match(text, /\[\[cell\]\]\nat = 14\neffect = "wormhole"\nexits = \[22, 9\]/);
  await load(await readFile(path.join(path.dirname(fileURLToPath(import.meta.url)), '../../crates/server/web/assets/engine.wasm')));
  const read = await checkBoardFile(text);
  assert.ok(read.valid, JSON.stringify(read));
  const { size, ladder, cell } = read.valid ? read.board : { size: 0, ladder: [], cell: [] };
  assert.deepEqual({ size, ladder, cell }, board, 'the file reads back as the board');

  await page.getByLabel('Your name').fill('Dee');
  await page.getByRole('button', { name: 'Open a room with it' }).click();
  await page.waitForURL(/\/room\/[0-9a-f]{16}$/);
  await page.waitForSelector('[data-player="Dee"][data-position="0"]');
  assert.equal(await page.locator('#board .effects g.fx').count(), 4, 'the room draws the effects');
  const room = new URL(page.url()).pathname.split('/')[2];
  // A board with effects has live odds like any other: the panel shows the server's numbers.
  await page.waitForSelector('#odds li[data-seat]');
  const odds = await (await fetch(`${server.url}/api/rooms/${room}/odds`)).json();
  const wins = odds.seats.map((/** @type {{win: number | null}} */ s) => (s.win === null ? '' : String(s.win)));
  const shownWins = await page.locator('#odds li[data-seat]').evaluateAll((items) => items.map((li) => /** @type {HTMLElement} */ (li).dataset.win));
  assert.deepEqual(shownWins, wins);
  assert.equal(await page.locator('#odds li.odds-none').count(), 0);
  const state = await (await fetch(`${server.url}/api/rooms/${room}`)).json();
  assert.deepEqual(state.board, board);
  assert.deepEqual(errors, []);
});

test('the editor zooms and pans a board of 1000 cells, its numbers legible when zoomed in', async () => {
  const { page, errors } = await openPage(browser, { viewport: { width: 1280, height: 900 } });
  await page.goto(`${server.url}/editor`);
  await checked(page);
  await page.getByLabel('Cells').fill('1000');
  await page.waitForSelector('#board text.cell-num[data-num="1000"]');
  await page.waitForSelector('#zoom:not([hidden])');
  const wrap = page.locator('#board-wrap');
  /**
   * The rendered size, in CSS pixels, of a cell number's font, and the cell at the middle of the
   * view, once the board is drawn at the zoom asked (`data-zoom`: its width follows in a frame).
   */
  const view = async () => {
    await page.waitForFunction(() => {
      const svg = /** @type {SVGSVGElement} */ (/** @type {unknown} */ (document.getElementById('board')));
      return Math.abs(svg.getBoundingClientRect().width - parseFloat(svg.style.width)) < 1;
    });
    return page.evaluate(() => {
      const svg = /** @type {SVGSVGElement} */ (/** @type {unknown} */ (document.getElementById('board')));
      const text = /** @type {SVGTextElement} */ (svg.querySelector('text.cell-num[data-num="500"]'));
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      const w = /** @type {HTMLElement} */ (document.getElementById('board-wrap')).getBoundingClientRect();
      const middle = document.elementFromPoint(w.left + w.width / 2, w.top + w.height / 2)?.closest('[data-cell]');
      return { font: parseFloat(getComputedStyle(text).fontSize) * scale, middle: Number(middle?.getAttribute('data-cell')) };
    });
  };
  // Opened zoomed in far enough to read every number.
  const first = await view();
  assert.ok(first.font >= 10, `at first the numbers are ${first.font.toFixed(1)}px`);
  // Fit shows the whole board (a strip 10 cells wide): its numbers are too small to read.
  await page.getByRole('button', { name: 'Fit' }).click();
  const whole = await view();
  assert.ok(whole.font < 10, `the whole board's numbers are ${whole.font.toFixed(1)}px`);
  assert.equal(await wrap.evaluate((w) => w.scrollHeight <= w.clientHeight + 1), true, 'the whole board is in view');
  // Zoom in, a step at a time, until the numbers read again: each step draws them larger.
  let zoomed = whole;
  for (let i = 0; i < 8 && zoomed.font < 10; i++) {
    await page.getByRole('button', { name: 'Zoom in' }).click();
    const next = await view();
    assert.ok(next.font > zoomed.font, `zoom in ${i + 1} draws larger numbers`);
    zoomed = next;
  }
  assert.ok(zoomed.font >= 10, `zoomed in, the numbers are ${zoomed.font.toFixed(1)}px`);
  // Ten cells a row: the zoomed board is taller than its box, and scrolls.
  assert.ok(await wrap.evaluate((w) => w.scrollHeight > w.clientHeight * 3), 'the zoomed board is larger than its box');
  // A drag pans: another cell comes to the middle, and the drag places nothing.
  const box = /** @type {{x: number, y: number, width: number, height: number}} */ (await wrap.boundingBox());
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 - 150, box.y + box.height / 2 - 250, { steps: 8 });
  await page.mouse.up();
  const dragged = await view();
  assert.notEqual(dragged.middle, zoomed.middle, 'dragging moves the board under the view');
  assert.equal(await page.locator('#board .cell.picked').count(), 0, 'a drag picks no cell');
  // Scrolling pans too; Ctrl+wheel zooms.
  await wrap.evaluate((w) => { w.scrollTop += 400; });
  assert.notEqual((await view()).middle, dragged.middle, 'scrolling moves the board under the view');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.keyboard.down('Control');
  await page.mouse.wheel(0, -100);
  await page.keyboard.up('Control');
  await page.waitForFunction((font) => {
    const svg = /** @type {SVGSVGElement} */ (/** @type {unknown} */ (document.getElementById('board')));
    return svg.getBoundingClientRect().width / svg.viewBox.baseVal.width * 22 > font;
  }, zoomed.font);
  await page.screenshot({ path: path.join(shots, 'editor-1000.png') });
  assert.deepEqual(errors, []);
});
