// The board as drawn: snakes, ladders and effect cells from a board file, a large board that
// zooms, people sharing one device, and the sound switch that is remembered.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { launch, openPage, playToEnd, post, settled, shots, startServer } from './support.mjs';

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

const BOARD = `size = 36
[[snake]]
head = 33
tail = 4
[[ladder]]
foot = 3
top = 22
[[cell]]
at = 8
effect = "skip"
[[cell]]
at = 12
effect = "extra"
[[cell]]
at = 17
effect = "shield"
[[cell]]
at = 26
effect = "wormhole"
exits = [2, 30]
`;

test('a board file is drawn with its snakes, ladders and effect cells; sound off is remembered', async () => {
  const { page, errors } = await openPage(browser);
  await page.goto(server.url);
  // The lobby's script runs after the first paint: a file given before it listens is not read.
  await page.waitForSelector('html[data-ready]', { state: 'attached' });
  await page.getByLabel('Board', { exact: true }).selectOption('file');
  await page.getByLabel('Board file (.toml or .json)').setInputFiles({ name: 'fx.toml', mimeType: 'text/plain', buffer: Buffer.from(BOARD) });
  await page.waitForSelector('#preview [data-cell="36"]');
  assert.equal(await page.locator('#preview [data-cell]').count(), 37, '36 cells and the start tray');
  assert.equal(await page.locator('#preview .snake[data-from="33"][data-to="4"] .snake-head').count(), 1);
  assert.equal(await page.locator('#preview .ladder[data-from="3"] .rung').count() > 2, true, 'a ladder has rungs');
  for (const effect of ['skip', 'extra', 'shield', 'wormhole']) {
    assert.equal(await page.locator(`#preview .fx-${effect}`).count() >= 1, true, effect);
  }
  assert.match(await page.locator('#file-note').textContent() ?? '', /36 cells, 1 snake, 1 ladder\b/);
  await page.locator('#preview').screenshot({ path: path.join(shots, 'effects-board.png') });

  const room = await post(`${server.url}/api/rooms`, { seats: [{ kind: 'human' }, { kind: 'easy' }] });
  // Count the audio contexts the page makes: none before the first click.
  await page.addInitScript(() => {
    const Real = window.AudioContext;
    // @ts-expect-error a counter for the test
    window.audioContexts = 0;
    window.AudioContext = class extends Real {
      constructor() {
        super();
        // @ts-expect-error a counter for the test
        window.audioContexts++;
      }
    };
  });
  await page.goto(`${server.url}/room/${room.room}`);
  await page.waitForSelector('[data-player="Computer (easy)"]');
  // @ts-expect-error the counter above
  assert.equal(await page.evaluate(() => window.audioContexts), 0, 'no sound before the first click');
  const sound = page.getByRole('button', { name: /^Sound/ });
  assert.equal(await sound.getAttribute('aria-pressed'), 'true');
  await sound.click();
  // @ts-expect-error the counter above
  assert.equal(await page.evaluate(() => window.audioContexts), 1, 'the first click starts the audio');
  assert.equal(await sound.getAttribute('aria-pressed'), 'false');
  await page.reload();
  await page.waitForSelector('#sound[aria-pressed="false"]');
  assert.equal(await page.evaluate(() => localStorage.getItem('snl.sound')), 'off');
  assert.deepEqual(errors, []);
});

test('a board of 400 cells fits the page with every number legible and inside its cell', async () => {
  const room = await post(`${server.url}/api/rooms`, { board: { size: 400, snake: [{ head: 390, tail: 17 }], ladder: [{ foot: 3, top: 377 }] }, seats: [{ kind: 'easy' }, { kind: 'human' }] });
  const { page, errors } = await openPage(browser);
  await page.goto(`${server.url}/room/${room.room}`);
  await page.waitForSelector('[data-cell="400"]');
  assert.equal(await page.locator('#zoom').isHidden(), true, 'drawn whole, no zoom needed');
  const cells = await page.$$eval('g.cell', (gs) => gs.map((g) => {
    const n = /** @type {SVGGElement} */ (g).dataset.cell;
    const cell = /** @type {SVGGraphicsElement} */ (g.firstElementChild).getBoundingClientRect();
    const label = /** @type {SVGTextElement} */ (document.querySelector(`#board text.cell-num[data-num="${n}"]`));
    return { n, cell: cell.toJSON(), num: label.getBoundingClientRect().toJSON(), text: label.textContent };
  }));
  assert.equal(cells.length, 400);
  for (const { n, cell, num, text } of cells) {
    assert.equal(text, n);
    // 9 CSS pixels of glyph height at the least (a 3-digit number in a 12px font is about 11).
    assert.ok(num.height >= 9, `cell ${n}: its number is ${num.height.toFixed(1)}px high`);
    assert.ok(num.left >= cell.left && num.right <= cell.right && num.top >= cell.top && num.bottom <= cell.bottom, `cell ${n}: its number leaves its cell`);
  }
  assert.deepEqual(errors, []);
});

test('a board of 1000 cells is drawn whole and zooms', async () => {
  const snake = [{ head: 990, tail: 12 }, { head: 555, tail: 444 }];
  const ladder = [{ foot: 5, top: 905 }];
  const room = await post(`${server.url}/api/rooms`, { board: { size: 1000, snake, ladder }, seats: [{ kind: 'easy' }, { kind: 'human' }] });
  const { page, errors } = await openPage(browser);
  await page.goto(`${server.url}/room/${room.room}`);
  await page.waitForSelector('[data-cell="1000"]');
  assert.equal(await page.locator('[data-cell]').count(), 1001);
  await page.waitForSelector('#zoom:not([hidden])');
  const wrap = page.locator('#board-wrap');
  const before = await page.locator('svg#board').boundingBox();
  for (let i = 0; i < 3; i++) await page.getByRole('button', { name: 'Zoom in' }).click();
  const after = await page.locator('svg#board').boundingBox();
  assert.ok(before && after && after.width > before.width, 'zooming in draws the cells larger');
  assert.ok(await wrap.evaluate((w) => w.scrollWidth > w.clientWidth && w.scrollHeight > w.clientHeight), 'a zoomed board pans by scrolling');
  await page.screenshot({ path: path.join(shots, 'board-1000.png') });
  assert.deepEqual(errors, []);
});

test('two people share one device: the lobby seats both, and Roll plays whoever is awaited', async () => {
  const { page, errors } = await openPage(browser);
  await page.goto(server.url);
  await page.getByLabel('Your name').fill('Mum');
  await page.getByLabel('Board', { exact: true }).selectOption('kids');
  await page.locator('select.seat-kind').nth(1).selectOption('human');
  await page.locator('input.seat-name').nth(1).fill('Leo');
  await page.getByLabel(/Everyone plays on this device/).check();
  await page.getByRole('button', { name: 'Create the room' }).click();
  await page.waitForURL(/\/room\//);
  await page.waitForFunction(() => document.querySelectorAll('.player .badge-you').length === 2);
  await playToEnd(page);
  await settled(page);
  assert.match(await page.locator('#winner-title').textContent() ?? '', /^(Mum|Leo) wins!$/);
  assert.deepEqual(errors, []);
});
