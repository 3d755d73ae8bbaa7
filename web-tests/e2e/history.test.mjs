// A page that comes to a room late (a spectator, a reload) shows what happened before it came, in
// the log's "Earlier in this game" (not read aloud: it is not the live region).
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { launch, logLines, openPage, playToEnd, post, settled, startServer } from './support.mjs';

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

test('a spectator of a finished game sees its whole story and chat under Earlier in this game', async () => {
  const room = await post(`${server.url}/api/rooms`, { seats: [{ kind: 'human' }, { kind: 'hard', name: 'Robo' }], seed: 7 });
  const { token } = await post(`${server.url}/api/rooms/${room.room}/seats/0`, { name: 'Ann' });
  const player = await openPage(browser);
  await player.page.goto(`${server.url}/room/${room.room}#token=${token}`);
  await player.page.waitForSelector('[data-player="Ann"]');
  await player.page.getByLabel('Message').fill('good luck, Robo');
  await player.page.getByRole('button', { name: 'Send' }).click();
  await player.page.waitForSelector('#chat li');
  await playToEnd(player.page);
  await settled(player.page);
  const told = await logLines(player.page);
  // The player's page came before the game started: nothing earlier.
  assert.equal(await player.page.locator('#earlier').isHidden(), true);
  await player.context.close();

  const { page, context, errors } = await openPage(browser);
  await page.goto(`${server.url}/room/${room.room}`);
  await page.waitForSelector('#earlier:not([hidden])');
  await page.waitForFunction((n) => document.querySelectorAll('#earlier-log > p:not(.chat)').length >= n, told.length);
  const earlier = await page.$$eval('#earlier-log > p:not(.chat)', (nodes) => nodes.map((n) => n.textContent ?? ''));
  // The same words as the player's live log, in the same order (the player's page also told the
  // presence of the spectator who is not here, and errors: none of either here).
  assert.deepEqual(earlier, told);
  assert.equal(await page.locator('#earlier-log > p.chat').textContent(), 'Ann: good luck, Robo');
  assert.match(await page.locator('#earlier summary').textContent() ?? '', new RegExp(`\\(${earlier.length + 1} lines\\)`));
  // Closed until asked, and not in the live region: the live log holds only what comes now.
  assert.equal(await page.locator('#earlier').getAttribute('open'), null);
  assert.equal(await page.locator('#earlier [aria-live]').count(), 0);
  assert.deepEqual(await logLines(page), []);
  assert.equal(await page.locator('#winner').isVisible(), true);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a page reloaded mid-game keeps the story so far and goes on telling it live', async () => {
  const room = await post(`${server.url}/api/rooms`, { seats: [{ kind: 'human' }, { kind: 'hard', name: 'Robo' }], seed: 8 });
  const { token } = await post(`${server.url}/api/rooms/${room.room}/seats/0`, { name: 'Ann' });
  const { page, context, errors } = await openPage(browser);
  await page.goto(`${server.url}/room/${room.room}#token=${token}`);
  await page.waitForSelector('[data-player="Ann"]');
  const roll = async () => {
    await page.waitForFunction(() => document.body.dataset.idle === 'true' && !(/** @type {HTMLButtonElement} */ (document.getElementById('roll'))).disabled);
    const mark = await page.evaluate(() => document.body.dataset.awaited);
    await page.getByRole('button', { name: 'Roll', exact: true }).click();
    await page.waitForFunction((m) => document.body.dataset.awaited !== m, mark);
  };
  for (let turn = 0; turn < 3; turn++) await roll();
  await settled(page);
  const before = await logLines(page);
  assert.ok(before.length >= 4, before.join('\n'));
  await page.reload();
  await page.waitForSelector('#earlier:not([hidden])');
  await page.waitForFunction((n) => document.querySelectorAll('#earlier-log > p').length >= n, before.length);
  const earlier = await page.$$eval('#earlier-log > p', (nodes) => nodes.map((n) => n.textContent ?? ''));
  assert.deepEqual(earlier.slice(0, before.length), before);
  // The seat is still held, and its next roll is told live.
  await roll();
  await page.waitForFunction(() => Array.from(document.querySelectorAll('#log > p')).some((p) => /^Ann rolled /.test(p.textContent ?? '')));
  assert.deepEqual(errors, []);
  await context.close();
});
