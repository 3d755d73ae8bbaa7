// The live odds beside the board in real Chromium: after every move the panel shows the exact
// chances the server works out for the room as it stands.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { launch, openPage, post, settled, shots, startServer } from './support.mjs';

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

test('the odds panel follows every move with the server’s exact chances', async () => {
  const made = await post(`${server.url}/api/rooms`, { seats: [{ kind: 'human' }, { kind: 'hard', name: 'Robo' }], seed: 5 });
  const seat = await post(`${server.url}/api/rooms/${made.room}/seats/0`, { name: 'Ann' });
  const { page, errors } = await openPage(browser);
  await page.goto(`${server.url}/room/${made.room}#token=${seat.token}`);
  const roll = page.getByRole('button', { name: 'Roll', exact: true });
  let seen = -1;
  for (let turn = 0; turn < 4; turn++) {
    await page.waitForFunction(() => !(/** @type {HTMLButtonElement} */ (document.getElementById('roll'))).disabled);
    await settled(page);
    const state = await (await fetch(`${server.url}/api/rooms/${made.room}`)).json();
    // The panel catches up with the room as it stands.
    await page.waitForSelector(`#odds[data-seq="${state.seq}"]`);
    assert.ok(state.seq > seen, 'the odds moved on with the game');
    seen = state.seq;
    const odds = await (await fetch(`${server.url}/api/rooms/${made.room}/odds`)).json();
    const shown = await page.$$eval('#odds li', (nodes) => nodes.map((n) => Number(n.getAttribute('data-win'))));
    assert.deepEqual(shown, odds.seats.map((/** @type {{win: number}} */ s) => s.win));
    assert.ok(Math.abs(shown[0] + shown[1] - 1) < 1e-9, String(shown));
    const texts = await page.locator('#odds li .num').allTextContents();
    assert.deepEqual(texts, odds.seats.map((/** @type {{win: number}} */ s) => `${(s.win * 100).toFixed(1)}%`));
    if (turn === 3) await page.screenshot({ path: path.join(shots, 'room-odds.png') });
    await roll.click();
    await page.waitForFunction(() => (/** @type {HTMLButtonElement} */ (document.getElementById('roll'))).disabled);
  }
  assert.deepEqual(errors, []);
});
