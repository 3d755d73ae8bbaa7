// "Play here" (issue 27, point 2): a game on this device run by the engine in the page, with two
// people at one screen and a computer, in real Chromium. It survives a reload (the device keeps the
// request, the seed and the people's intents), can be watched again, and tells the game as the
// terminal does: the options' labels as `snl play` offers them, the narration as `snl replay
// --plain` tells the same seeded game.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launch, logLines, openPage, playHere, playToEnd, root, settled, shots, startServer, tokens } from './support.mjs';

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

const bin = process.env.SNL_BIN ?? path.join(root, 'target', 'release', 'snl');

test('two people and a computer play a game on this device to its end, through a reload, as the terminal tells it', async () => {
  const { page, errors, context } = await openPage(browser);
  /** @type {string[][]} */
  const offered = [];
  await page.exposeBinding('snlOffered', (_source, /** @type {string[]} */ labels) => { offered.push(labels); });
  await context.addInitScript(() => {
    // Each new set of options, as the page labels them (the buttons' text without "N: ").
    new MutationObserver(() => {
      const buttons = Array.from(document.querySelectorAll('#options button.option:not([disabled])'));
      const labels = buttons.map((b) => (b.textContent ?? '').replace(/^\d+: /, ''));
      // Keyed by the input awaited: two choices in a row may offer the same words.
      const key = `${document.body?.dataset.awaited}|${labels.join('|')}`;
      // @ts-expect-error a test's binding
      if (labels.length && key !== window.lastOffered) { window.lastOffered = key; window.snlOffered(labels); }
      // @ts-expect-error a test's binding
      if (!labels.length) window.lastOffered = '';
    }).observe(document, { childList: true, subtree: true });
    // Every line told in the live log (which keeps only its last 200).
    // @ts-expect-error a test's record
    window.snlTold = [];
    new MutationObserver((changes) => {
      for (const c of changes) {
        for (const n of c.addedNodes) {
          // @ts-expect-error a test's record
          if (n instanceof HTMLParagraphElement && n.parentElement?.id === 'log' && !n.classList.contains('error')) window.snlTold.push(n.textContent ?? '');
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });
  await playHere(page, server.url, { seed: 2024, choice: 'may-pass' });
  // The same hooks as an online room (SPEC §10): cells, tokens, the Roll button, the live log.
  assert.equal(await page.locator('[data-cell]').count(), 101);
  assert.deepEqual(Object.keys(await tokens(page)).sort(), ['Ann', 'Bob', 'Robo']);
  await page.waitForSelector('#odds li[data-seat]');
  // A few moves, then a reload in the middle of the game: it goes on where it was.
  await playToEnd(page, { limit: 6 }).catch((e) => assert.match(e.message, /did not end/));
  await settled(page);
  const before = await tokens(page);
  const told = await logLines(page);
  assert.ok(told.length > 3, told.join('\n'));
  // A choice awaited now is offered again after the reload: noted once.
  if (await page.locator('#options button.option:not([disabled])').count()) offered.pop();
  await page.reload();
  await page.waitForSelector('[data-player="Robo"]');
  await settled(page);
  assert.deepEqual(await tokens(page), before, 'the reloaded game stands where it stood');
  assert.equal(await page.locator('#earlier-log > p').count() > 0, true, 'what happened before the reload is in the earlier log');
  const rolls = await playToEnd(page);
  assert.ok(rolls > 0);
  await settled(page);
  const winner = (await page.locator('#winner-title').textContent()) ?? '';
  assert.match(winner, /^(Ann|Bob|Robo) wins!$/);
  await page.screenshot({ path: path.join(shots, 'local-over.png') });
  const earlier = await page.$$eval('#earlier-log > p', (nodes) => nodes.map((n) => n.textContent ?? ''));
  // @ts-expect-error a test's record
  const lines = [...earlier, ...(await page.evaluate(() => window.snlTold))];
  assert.match(lines[0], /^New game on a board of 100 cells: Ann, Bob, Robo\./);

  // The terminal plays the same game: the same seats and seed, each person's input as the page
  // kept it (Enter rolls, a digit chooses), and records it; its replay tells it line for line.
  /** @type {{act: string, option?: number}[]} */
  const intents = await page.evaluate(() => JSON.parse(localStorage.getItem('snl.local') ?? '{}').intents);
  const input = intents.map((i) => (i.act === 'roll' ? '' : String((i.option ?? 0) + 1))).join('\n') + '\n';
  const dir = mkdtempSync(path.join(tmpdir(), 'snl-local-'));
  try {
    const db = path.join(dir, 'games.db');
    const args = ['play', '--seed', '2024', '--choice', 'may-pass', '--player', 'Ann:human', '--player', 'Bob:human', '--player', 'Robo:easy', '--db', db];
    const played = spawnSync(bin, [...args, '--plain'], { input, encoding: 'utf8' });
    assert.equal(played.status, 0, played.stderr);
    const prompts = played.stderr;
    // "Ann rolled 4: 1) move 4 to 27  2) stay on 23": the labels the terminal offered.
    const terminal = prompts.split('\n').filter((l) => / rolled .*: 1\) /.test(l))
      .map((l) => l.replace(/^.*? rolled [^:]*: /, '').split(/ {2}(?=\d+\) )/).map((o) => o.replace(/^\d+\) /, '')));
    const page_ = offered.map((labels) => labels.map((l) => l.charAt(0).toLowerCase() + l.slice(1)));
    assert.ok(terminal.length > 0, 'the game offered choices');
    assert.deepEqual(page_, terminal);
    const replay = execFileSync(bin, ['replay', '--plain', '--speed', '0', '--db', db, '1'], { encoding: 'utf8' });
    const narrated = replay.split('\n').filter((l) => l && !/^([|+]|Snakes |Ladders |Off the board)/.test(l));
    assert.deepEqual(lines.join('\n').split('\n'), narrated);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.deepEqual(errors, []);
});

test('a game on this device is watched again from its start to the same end', async () => {
  const { page, errors } = await openPage(browser);
  await playHere(page, server.url, { seed: 7, board: 'kids' });
  await playToEnd(page);
  await settled(page);
  const end = await tokens(page);
  const told = await logLines(page);
  await page.getByRole('button', { name: 'Watch again' }).click();
  await page.waitForURL(/\/local#replay$/);
  await page.waitForSelector('#winner:not([hidden])');
  await settled(page);
  assert.deepEqual(await tokens(page), end);
  assert.deepEqual(await logLines(page), told);
  assert.equal(await page.locator('#roll').isHidden(), true, 'nobody plays while it is watched');
  assert.deepEqual(errors, []);
});

test('seats nobody named are named as every front end names them, by their seat: "Computer (easy)", "Player 3"', async () => {
  const { page, context, errors } = await openPage(browser);
  await page.goto(`${server.url}/`);
  await page.getByLabel('Your name').fill('Ann');
  const kinds = page.locator('select.seat-kind');
  await kinds.nth(1).selectOption('easy');
  await page.getByRole('button', { name: 'Add a seat' }).click();
  await kinds.nth(2).selectOption('human');
  await page.getByRole('button', { name: 'Play here' }).click();
  await page.waitForURL(/\/local\/?$/);
  // snl_words::seat_default_name, as the terminal's setup form and the server name them: the
  // person at the third seat is "Player 3", whatever plays the seats before.
  for (const name of ['Ann', 'Computer (easy)', 'Player 3']) await page.waitForSelector(`[data-player="${name}"]`);
  assert.equal(await page.locator('[data-player="Player 2"]').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});
