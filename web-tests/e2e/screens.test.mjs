// The party board on a desktop and on a phone, in real Chromium (issue 26): screenshots saved
// under target/web-screenshots for a person to look at, and a phone that opens an invite link
// sees the "take this seat" form first, above the board.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { annAndRobo, launch, openPage, post, settled, shots, startServer } from './support.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {import('playwright-core').Browser} */
let browser;
before(async () => {
  server = await startServer();
  browser = await launch();
  fs.mkdirSync(shots, { recursive: true });
});
after(async () => {
  await browser?.close();
  server?.stop();
});

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

for (const [label, options] of /** @type {const} */ ([['1280x900', { viewport: { width: 1280, height: 900 } }], ['390x844', PHONE]])) {
  test(`the party board at ${label}: drawn with its legend and badges, saved as a screenshot`, async () => {
    const made = await post(`${server.url}/api/rooms`, { board: 'party', seats: [{ kind: 'human' }, { kind: 'hard', name: 'Robo' }], seed: 21 });
    const { token } = await post(`${server.url}/api/rooms/${made.room}/seats/0`, { name: 'Ann' });
    const { page, context, errors } = await openPage(browser, options);
    await page.goto(`${server.url}/room/${made.room}#token=${token}`);
    await page.waitForFunction(() => document.querySelector('#players .player .badge-you'));
    for (let i = 0; i < 6; i++) {
      const mark = await page.evaluate(() => document.body.dataset.awaited);
      await page.waitForFunction(() => !(/** @type {HTMLButtonElement} */ (document.getElementById('roll'))).disabled || document.querySelector('#options button.option'));
      if (await page.locator('#options button.option').count()) await page.locator('#options button.option').first().click();
      else await page.getByRole('button', { name: 'Roll', exact: true }).click();
      await page.waitForFunction((before) => document.body.dataset.awaited !== before || !document.getElementById('winner')?.hidden, mark);
      await settled(page);
    }
    const state = await (await fetch(`${server.url}/api/rooms/${made.room}`)).json();
    assert.equal(await page.locator('#board .fx').count(), state.board.cell.length);
    assert.equal(await page.locator('#legend li').count(), 6);
    // Nothing spills sideways out of the page.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
    await page.screenshot({ path: path.join(shots, `party-${label}.png`), fullPage: label !== '1280x900' });
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('every cell number of the party board is drawn above the snakes and ladders, on a halo of its cell\'s colour', async () => {
  const made = await post(`${server.url}/api/rooms`, { board: 'party', seats: [{ kind: 'human' }, { kind: 'hard', name: 'Robo' }] });
  const { page, context, errors } = await openPage(browser, { viewport: { width: 1280, height: 900 } });
  await page.goto(`${server.url}/room/${made.room}`);
  await page.waitForSelector('#board text.cell-num[data-num="100"]');
  const order = await page.evaluate(() => {
    const layer = (/** @type {string} */ name) => /** @type {Element} */ (document.querySelector(`#board > g.${name}`));
    const after = (/** @type {string} */ name) => Boolean(layer(name).compareDocumentPosition(layer('numbers')) & Node.DOCUMENT_POSITION_FOLLOWING);
    return { ladders: after('ladders'), snakes: after('snakes'), effects: after('effects'), last: document.querySelector('#board > g:last-of-type')?.getAttribute('class') };
  });
  assert.deepEqual(order, { ladders: true, snakes: true, effects: true, last: 'numbers' }, 'the numbers are painted after (above) the jumps');
  const numbers = await page.$$eval('#board text.cell-num', (texts) => texts.map((t) => {
    const style = getComputedStyle(t);
    const n = t.getAttribute('data-num');
    const bg = /** @type {Element} */ (document.querySelector(`#board g.cell[data-cell="${n}"] .cell-bg`));
    return { n, text: t.textContent, paint: style.paintOrder, stroke: style.stroke, width: parseFloat(style.strokeWidth), cell: getComputedStyle(bg).fill };
  }));
  assert.equal(numbers.length, 100);
  for (const { n, text, paint, stroke, width, cell } of numbers) {
    assert.equal(text, n);
    assert.match(paint, /^stroke/, `${n}: the halo is painted under the digits`);
    assert.ok(width >= 4, `${n}: a halo ${width} wide`);
    // The halo is the cell's own colour (the finish cell's gradient: its light gold).
    if (Number(n) === 100) assert.notEqual(stroke, 'none', `${n}: has a halo`);
    else assert.equal(stroke, cell, `${n}: its halo is its cell's colour`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('the live odds of a party room are in view without scrolling at 1280×900, and under the board on a phone', async () => {
  for (const [label, options] of /** @type {const} */ ([['1280x900', { viewport: { width: 1280, height: 900 } }], ['390x844', PHONE]])) {
    const { page, context, errors } = await annAndRobo(server, browser, { board: 'party', seed: 21 }, options);
    await page.waitForSelector('#odds li[data-seat="1"]');
    const { width, height } = /** @type {{width: number, height: number}} */ (page.viewportSize());
    const card = /** @type {{x: number, y: number, width: number, height: number}} */ (await page.locator('section:has(> #odds)').boundingBox());
    if (label === '1280x900') {
      assert.equal(await page.evaluate(() => scrollY), 0);
      assert.ok(card.x >= 0 && card.y >= 0 && card.x + card.width <= width && card.y + card.height <= height, `the odds card is at ${JSON.stringify(card)}`);
      // Seen, not only placed in the viewport: no scrolled box hides a line of it.
      const seen = await page.$$eval('#odds li[data-seat]', (lis) => lis.map((li) => {
        const r = li.getBoundingClientRect();
        return li.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
      }));
      assert.deepEqual(seen, [true, true], 'each seat\'s chance is seen');
    } else {
      // On a phone the odds come under the board, the width of the screen.
      const board = /** @type {{y: number, height: number}} */ (await page.locator('#board').boundingBox());
      assert.ok(card.y >= board.y + board.height, 'under the board');
      assert.ok(card.width >= width - 40 && card.x + card.width <= width, `the odds card is at ${JSON.stringify(card)}`);
    }
    await page.screenshot({ path: path.join(shots, `party-odds-${label}.png`) });
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('a phone that opens an invite link sees the "take this seat" form above the board', async () => {
  const made = await post(`${server.url}/api/rooms`, { board: 'party', seats: [{ kind: 'human' }, { kind: 'human' }] });
  await post(`${server.url}/api/rooms/${made.room}/seats/0`, { name: 'Ann' });
  const { page, context, errors } = await openPage(browser, PHONE);
  await page.goto(`${server.url}/room/${made.room}`);
  const form = page.locator('#join-first');
  await form.waitFor();
  const take = form.getByRole('button', { name: 'Take seat 2' });
  assert.equal(await take.isVisible(), true);
  const formBox = await form.boundingBox();
  const boardBox = await page.locator('#board').boundingBox();
  assert.ok(formBox && boardBox && formBox.y + formBox.height <= boardBox.y, 'the form comes before the board');
  assert.ok(formBox && formBox.y < 844, 'the form is on the first screen');
  // Only one form for the seat: the players list does not offer it twice.
  assert.equal(await page.getByRole('button', { name: 'Take seat 2' }).count(), 1);
  await page.screenshot({ path: path.join(shots, 'invite-390x844.png') });
  await form.getByLabel('Your name').fill('Bob');
  await take.click();
  await page.waitForFunction(() => document.querySelector('#players .player[data-seat="1"] .badge-you'));
  assert.equal(await form.isHidden(), true, 'the form goes once the seat is taken');
  assert.deepEqual(errors, []);
  await context.close();
});
