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
    // The chances in the words every front end uses (snl_words::chance), as the server sends them.
    assert.deepEqual(texts, odds.seats.map((/** @type {{chance: string}} */ s) => s.chance));
    for (const text of texts) assert.match(text, /^(\d{1,3}%|<1%|>99%)$/);
    if (turn === 3) await page.screenshot({ path: path.join(shots, 'room-odds.png') });
    await roll.click();
    await page.waitForFunction(() => (/** @type {HTMLButtonElement} */ (document.getElementById('roll'))).disabled);
  }
  assert.deepEqual(errors, []);
});

/**
 * The fewest rolls a seat still needs as the odds panel words it.
 * @param {number | null} n
 */
const fewestInWords = (n) => (n === null ? 'cannot finish' : n === 0 ? 'finished' : `${n} roll${n === 1 ? '' : 's'} at best`);

test('the odds panel shows each player’s fewest rolls still needed, as the server works them out, to the end', async () => {
  const board = { size: 30, snake: [{ head: 27, tail: 5 }], ladder: [{ foot: 3, top: 16 }] };
  const made = await post(`${server.url}/api/rooms`, { board, seats: [{ kind: 'human' }, { kind: 'greedy', name: 'Gus' }], seed: 9 });
  const seat = await post(`${server.url}/api/rooms/${made.room}/seats/0`, { name: 'Ann' });
  const { page, errors } = await openPage(browser);
  await page.goto(`${server.url}/room/${made.room}#token=${seat.token}`);
  /** @type {Set<string>} */
  const seen = new Set();
  for (let turn = 0; ; turn++) {
    assert.ok(turn < 200, 'the game ends');
    const what = await (await page.waitForFunction(() => {
      if (!document.getElementById('winner')?.hidden) return 'over';
      return document.body.dataset.idle === 'true' && !(/** @type {HTMLButtonElement} */ (document.getElementById('roll'))).disabled ? 'roll' : false;
    })).jsonValue();
    await settled(page);
    const state = await (await fetch(`${server.url}/api/rooms/${made.room}`)).json();
    await page.waitForSelector(`#odds[data-seq="${state.seq}"]`);
    const odds = await (await fetch(`${server.url}/api/rooms/${made.room}/odds`)).json();
    assert.equal(odds.seq, state.seq);
    const shown = await page.$$eval('#odds li', (nodes) => nodes.map((n) => ({
      seat: Number(n.getAttribute('data-seat')),
      note: n.querySelector('.fewest')?.textContent,
      title: n.querySelector('.num')?.getAttribute('title'),
    })));
    const expected = odds.seats.map((/** @type {{seat: number, fewest_rolls: number | null}} */ s) => ({ seat: s.seat, note: fewestInWords(s.fewest_rolls), title: fewestInWords(s.fewest_rolls) }));
    assert.deepEqual(shown, expected, `after event ${state.seq}`);
    for (const s of expected) seen.add(s.note);
    if (what === 'over') {
      assert.ok(odds.seats.some((/** @type {{fewest_rolls: number | null}} */ s) => s.fewest_rolls === 0), 'the winner needs no more rolls');
      break;
    }
    await page.getByRole('button', { name: 'Roll', exact: true }).click();
    await page.waitForFunction(() => (/** @type {HTMLButtonElement} */ (document.getElementById('roll'))).disabled);
  }
  assert.ok(seen.has('finished') && seen.size >= 4, `the numbers moved with the game: ${[...seen]}`);
  assert.deepEqual(errors, []);
});
