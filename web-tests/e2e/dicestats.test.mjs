// The dice statistics beside the board in real Chromium: each seat's faces this game, as the
// room page's table shows them, equal a count of the dice the page's own events rolled; the
// expected count, p-value and verdict are the server's.
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

test('the dice panel shows each seat’s faces as counted from the dice the page’s events rolled', async () => {
  const made = await post(`${server.url}/api/rooms`, { seats: [{ kind: 'human' }, { kind: 'greedy', name: 'Gus' }], seed: 12 });
  const seat = await post(`${server.url}/api/rooms/${made.room}/seats/0`, { name: 'Ann' });
  const { page, errors } = await openPage(browser);
  /** Every event the page received, by its number. @type {Map<number, any>} */
  const events = new Map();
  page.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => {
    const frame = JSON.parse(String(payload));
    if (frame.type === 'event') events.set(frame.seq, frame.event);
  }));
  await page.goto(`${server.url}/room/${made.room}#token=${seat.token}`);
  const roll = page.getByRole('button', { name: 'Roll', exact: true });
  for (let turn = 0; turn < 5; turn++) {
    await page.waitForFunction(() => !(/** @type {HTMLButtonElement} */ (document.getElementById('roll'))).disabled);
    await roll.click();
    await page.waitForFunction(() => (/** @type {HTMLButtonElement} */ (document.getElementById('roll'))).disabled);
  }
  await page.waitForFunction(() => !(/** @type {HTMLButtonElement} */ (document.getElementById('roll'))).disabled);
  await settled(page);
  const state = await (await fetch(`${server.url}/api/rooms/${made.room}`)).json();
  await page.waitForSelector(`#dice-stats[data-seq="${state.seq}"]`);

  // Counted here, from the page's own events.
  /** @type {Record<string, number[]>} */
  const byHand = { Ann: [0, 0, 0, 0, 0, 0], Gus: [0, 0, 0, 0, 0, 0] };
  for (const event of events.values()) {
    if (event.type === 'dice_rolled') for (const face of event.dice) byHand[event.player][face - 1] += 1;
  }
  assert.ok(byHand.Ann.reduce((a, b) => a + b) >= 5, JSON.stringify(byHand));
  const rows = await page.$$eval('#dice-stats tr[data-kind="game"]', (trs) => trs.map((tr) => ({
    name: tr.querySelector('th')?.firstChild?.textContent,
    counts: [...tr.querySelectorAll('td.num')].slice(0, 6).map((td) => Number(td.textContent)),
    verdict: tr.querySelector('.verdict')?.textContent,
  })));
  assert.deepEqual(rows.map((r) => r.name), ['Ann', 'Gus']);
  assert.deepEqual(rows.map((r) => r.counts), [byHand.Ann, byHand.Gus]);
  // The verdict is the server's, and Ann has played no recorded game here: said so.
  const answer = await (await fetch(`${server.url}/api/rooms/${made.room}/dice`)).json();
  assert.deepEqual(rows.map((r) => r.verdict), answer.seats.map((/** @type {any} */ s) => s.game.verdict));
  const history = await page.locator('#dice-stats tr[data-kind="history"][data-seat="0"] th small').textContent();
  assert.equal(history, 'no recorded game');
  // A table with headers: a column header for each face.
  const heads = await page.locator('#dice-stats thead th').allTextContents();
  assert.deepEqual(heads, ['Player', '1', '2', '3', '4', '5', '6', 'Exp.', 'p, verdict']);
  await page.locator('#dice-card').screenshot({ path: path.join(shots, 'room-dice.png') });
  assert.deepEqual(errors, []);
});
