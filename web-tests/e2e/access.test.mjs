// Everyone can play: keyboard-only play with a decision, the SPEC §10 hooks, an axe-core check
// of the lobby and a room, and a phone in portrait.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { launch, openPage, playToEnd, post, settled, shots, startServer, tokens } from './support.mjs';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

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
 * The serious and critical axe violations of the page as it is.
 * @param {import('playwright-core').Page} page
 */
async function axe(page) {
  await page.addScriptTag({ content: axeSource });
  const found = await page.evaluate(async () => {
    // @ts-expect-error axe is the script just added
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((/** @type {any} */ v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, help: v.help, where: v.nodes.slice(0, 3).map((/** @type {any} */ n) => n.target.join(' ')) }));
  });
  return found.filter((/** @type {{impact: string}} */ v) => v.impact === 'serious' || v.impact === 'critical');
}

test('keyboard only: Space and Enter roll, digits choose, to the end of a game', async () => {
  const room = await post(`${server.url}/api/rooms`, { board: 'kids', rules: { choice: 'may-pass' }, seats: [{ kind: 'human' }, { kind: 'greedy', name: 'Robo' }], seed: 3 });
  const { token } = await post(`${server.url}/api/rooms/${room.room}/seats/0`, { name: 'Kim' });
  const { page, errors } = await openPage(browser);
  await page.goto(`${server.url}/room/${room.room}#token=${token}`);
  await page.waitForSelector('[data-player="Kim"]');
  // A decision is offered as buttons saying where each option lands.
  await page.keyboard.press('Space');
  await page.waitForSelector('#options button.option');
  const options = await page.locator('#options button.option').allTextContents();
  assert.equal(options.length, 2, options.join(' | '));
  const move = options.findIndex((o) => /^\d: Move \d+ to \d+/.test(o));
  const stay = options.findIndex((o) => /^\d: Stay on the start$/.test(o));
  assert.ok(move >= 0 && stay >= 0, options.join(' | '));
  await page.keyboard.press(String(move + 1));
  await page.waitForFunction(() => !document.querySelector('#options button.option'));
  const rolls = await playToEnd(page, { keyboard: true });
  assert.ok(rolls > 3);
  await settled(page);
  assert.ok(Object.values(await tokens(page)).includes(50), 'someone reached the last cell');
  assert.deepEqual(errors, []);
});

test('the hooks of SPEC §10 and no serious or critical axe violation on the lobby and a room', async () => {
  // The pages allow only their own scripts: the test lets axe in.
  const { page, errors } = await openPage(browser, { bypassCSP: true });
  await page.goto(server.url);
  await page.waitForSelector('#preview [data-cell="100"]');
  const lobbyViolations = await axe(page);
  assert.deepEqual(lobbyViolations, [], JSON.stringify(lobbyViolations, null, 1));

  const room = await post(`${server.url}/api/rooms`, { board: 'classic', seats: [{ kind: 'human' }, { kind: 'hard', name: 'Robo' }], turn_time: 60 });
  const { token } = await post(`${server.url}/api/rooms/${room.room}/seats/0`, { name: 'Ann' });
  await page.goto(`${server.url}/room/${room.room}#token=${token}`);
  await page.waitForSelector('[data-player="Ann"][data-position="0"]');
  await page.getByRole('button', { name: 'Roll', exact: true }).click();
  await page.waitForFunction(() => document.querySelectorAll('#log > p').length >= 2);
  await settled(page);
  assert.equal(await page.locator('[data-cell]').count(), 101);
  assert.equal(await page.locator('[role="log"][aria-live="polite"]').count(), 1);
  assert.match(await page.locator('#log > p').nth(1).textContent() ?? '', /^(Ann|Robo) rolled /);
  assert.ok(await page.locator('#timer').isVisible(), 'the turn timer shows when the room has one');
  assert.equal(await page.getByRole('switch', { name: 'Autopilot for Ann' }).count(), 1);
  const roomViolations = await axe(page);
  assert.deepEqual(roomViolations, [], JSON.stringify(roomViolations, null, 1));
  // The autopilot switch hands the seat to the computer, which plays it to the end.
  await page.getByRole('switch', { name: 'Autopilot for Ann' }).check();
  await page.waitForSelector('#log > p.autopilot');
  assert.equal(await page.locator('#log > p.autopilot').textContent(), 'Ann hands the seat to the computer (autopilot on)');
  await page.waitForSelector('#winner:not([hidden])');
  assert.deepEqual(errors, []);
});

test('a phone in portrait sees the board and the Roll button, and can play', async () => {
  const room = await post(`${server.url}/api/rooms`, { board: 'kids', seats: [{ kind: 'human' }, { kind: 'easy', name: 'Robo' }], seed: 5 });
  const { token } = await post(`${server.url}/api/rooms/${room.room}/seats/0`, { name: 'Pia' });
  const { page, errors } = await openPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await page.goto(`${server.url}/room/${room.room}#token=${token}`);
  await page.waitForSelector('[data-player="Pia"]');
  const board = await page.locator('svg#board').boundingBox();
  assert.ok(board && board.width > 340 && board.width <= 390, `the board fills the width: ${JSON.stringify(board)}`);
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= 390, `nothing scrolls sideways (${wide})`);
  const roll = page.getByRole('button', { name: 'Roll', exact: true });
  await roll.tap();
  await page.waitForFunction(() => document.querySelectorAll('#log > p').length >= 2);
  await settled(page);
  await page.screenshot({ path: path.join(shots, 'phone.png') });
  assert.deepEqual(errors, []);
});
