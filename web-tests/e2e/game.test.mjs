// A person against two computers, from the lobby to the end of the game, in real Chromium.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { launch, openPage, playToEnd, settled, shots, startServer, tokens, logLines, root } from './support.mjs';

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

test('a person creates a room in the lobby and plays two computers to the end', async () => {
  const { page, errors } = await openPage(browser);
  await page.goto(server.url);
  await page.getByLabel('Your name').fill('Ann');
  await page.getByRole('button', { name: 'Add a seat' }).click();
  const kinds = page.locator('select.seat-kind');
  await kinds.nth(2).selectOption('easy');
  await page.locator('input.seat-name').nth(2).fill('Eve');
  await page.screenshot({ path: path.join(shots, 'lobby.png') });
  await page.getByRole('button', { name: 'Create the room' }).click();
  await page.waitForURL(/\/room\/[0-9a-f]{16}$/);
  await page.waitForSelector('[data-player="Ann"][data-position="0"]');
  assert.equal(await page.locator('[data-cell]').count(), 101, 'cells 1..100 and the start tray');
  assert.equal(await page.locator('[data-cell="100"]').count(), 1);
  assert.deepEqual(Object.keys(await tokens(page)).sort(), ['Ann', 'Computer (hard)', 'Eve']);
  const rolls = await playToEnd(page);
  assert.ok(rolls > 0);
  await settled(page);
  const winner = await page.locator('#winner-title').textContent();
  assert.match(winner ?? '', /^(Ann|Computer \(hard\)|Eve) wins!$/);
  const who = (winner ?? '').replace(' wins!', '');
  assert.equal((await tokens(page))[who], 100, 'the winner stands on 100');
  const lines = await logLines(page);
  assert.match(lines[0], /^New game on a board of 100 cells: Ann, Computer \(hard\), Eve\./);
  assert.ok(lines.some((l) => l === `${who} reached 100 and wins!`), lines.slice(-5).join('\n'));
  assert.match(lines[lines.length - 1], /^Final ranking:\s+1\. /);
  // One source of words: the page tells the game exactly as the terminal's replay of the same
  // recorded game does (both from snl_words::Sentences; the page keeps no sentences of its own).
  if (server.db) {
    const bin = process.env.SNL_BIN ?? path.join(root, 'target', 'release', 'snl');
    const replay = execFileSync(bin, ['replay', '--plain', '--speed', '0', '--db', server.db, '1'], { encoding: 'utf8' });
    const told = replay.split('\n').filter((l) => l && !/^([|+]|Snakes |Ladders |Off the board)/.test(l));
    const shown = lines.join('\n').split('\n').filter((l) => !/ (is|are) (back|away)$/.test(l));
    assert.deepEqual(shown, told);
  }
  await page.screenshot({ path: path.join(shots, 'game-over.png') });
  assert.deepEqual(errors, []);
});
