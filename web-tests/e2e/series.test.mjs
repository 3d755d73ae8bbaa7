// A series online (best of 3): each game is a room; its end card says where the series stands
// and "Next game" opens the next one, where the same seat is held (the seats moved on by one),
// and a spectator's page follows; the series ends when it is decided.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { annAndRobo, launch, openPage, playToEnd, settled, shots, startServer } from './support.mjs';

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

test('a series is played from room to room until it is decided, a spectator following', async () => {
  const { page, room, errors } = await annAndRobo(server, browser, { board: 'kids', seed: 3, games: 3 });
  const eve = await openPage(browser);
  await eve.page.goto(`${server.url}/room/${room}`);
  await settled(eve.page);
  assert.equal(await page.locator('#series').textContent(), 'Game 1 of a best of 3: Ann starts.');
  let here = room;
  for (let game = 1; game <= 3; game++) {
    await playToEnd(page);
    const standing = page.locator('#series-standing');
    await page.waitForFunction(() => /series|After game/.test(document.getElementById('series-standing')?.textContent ?? ''));
    const said = (await standing.textContent()) ?? '';
    if (game === 1) await page.screenshot({ path: path.join(shots, 'series-end-of-game-1.png') });
    if (/ wins the series /.test(said)) {
      assert.ok(await page.locator('#next-game').isHidden(), 'no next game once decided');
      assert.ok(game >= 2, said);
      assert.deepEqual(errors, []);
      return;
    }
    assert.match(said, new RegExp(`^After game ${game} of a best of 3: `));
    await Promise.all([
      page.waitForURL((u) => !u.pathname.endsWith(here)),
      eve.page.waitForURL((u) => !u.pathname.endsWith(here)),
      page.getByRole('button', { name: 'Next game' }).click(),
    ]);
    const next = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]);
    assert.equal(decodeURIComponent(new URL(eve.page.url()).pathname.split('/')[2]), next, 'the spectator follows');
    here = next;
    // The seat moved on by one and is still Ann's: she is told so, and plays it.
    await page.waitForFunction(() => document.querySelector('#players .player .badge-you'));
    await settled(page);
    const intro = (await page.locator('#series').textContent()) ?? '';
    const starter = game % 2 === 1 ? 'Robo' : 'Ann';
    assert.match(intro, new RegExp(`^Game ${game + 1} of a best of 3: ${starter} starts\\. Wins so far: `));
  }
  assert.fail('a best of 3 is decided after 3 games');
});
