// Two browsers play each other online while a third watches; a reload resumes a seat.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { launch, logLines, openPage, post, settled, shots, startServer, tokens } from './support.mjs';

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
 * Whichever of `pages` may roll does, until the game is over on all of them.
 * @param {import('playwright-core').Page[]} players
 * @param {(turn: number) => Promise<void>} [between] run after each roll
 */
async function playOnline(players, between) {
  for (let turn = 0; turn < 1000; turn++) {
    const handles = players.map((page, i) => page.waitForFunction(() => {
      if (!document.getElementById('winner')?.hidden) return 'over';
      const roll = /** @type {HTMLButtonElement} */ (document.getElementById('roll'));
      return document.body.dataset.idle === 'true' && !roll.disabled ? 'roll' : false;
    }, undefined, { timeout: 60_000 }).then(async (h) => [i, await h.jsonValue()]));
    const [i, what] = await Promise.race(handles);
    if (what === 'over') return;
    const mark = await players[i].evaluate(() => document.body.dataset.awaited);
    await players[i].getByRole('button', { name: 'Roll', exact: true }).click();
    await players[i].waitForFunction((before) => document.body.dataset.awaited !== before || !document.getElementById('winner')?.hidden, mark);
    await between?.(turn);
  }
  throw new Error('the game did not end');
}

test('two browsers play each other online; a spectator sees the same moves; a reload resumes a seat', async () => {
  const room = await post(`${server.url}/api/rooms`, { board: 'kids', rules: 'bonus-six', seats: [{ kind: 'human' }, { kind: 'human' }], seed: 11 });
  const ann = await openPage(browser);
  const bob = await openPage(browser);
  const eve = await openPage(browser);
  // Ann takes her seat from an invitation link; Bob takes his on the room's page.
  const { token } = await post(`${server.url}/api/rooms/${room.room}/seats/0`, { name: 'Ann' });
  await ann.page.goto(`${server.url}/room/${room.room}#token=${token}`);
  await ann.page.waitForFunction(() => location.hash === '');
  assert.equal(await ann.page.evaluate((r) => localStorage.getItem(`snl.room.${r}`), room.room), JSON.stringify([token]));
  await eve.page.goto(`${server.url}/room/${room.room}`);
  await bob.page.goto(`${server.url}/room/${room.room}`);
  await bob.page.getByLabel('Your name').fill('Bob');
  await bob.page.getByRole('button', { name: 'Take seat 2' }).click();
  await bob.page.waitForSelector('.player .badge-you');
  for (const p of [ann, bob, eve]) await p.page.waitForSelector('[data-player="Bob"]');
  assert.equal(await eve.page.getByRole('button', { name: 'Take seat 2' }).count(), 0, 'no open seat is offered once both are taken');
  assert.ok(await eve.page.locator('#roll').isHidden(), 'a spectator is offered no Roll button');

  let reloaded = false;
  await playOnline([ann.page, bob.page], async (turn) => {
    if (turn === 5) {
      // Ann's page goes away and comes back mid-game: her seat is still hers.
      await ann.page.reload();
      await ann.page.waitForSelector('.player[data-seat="0"] .badge-you');
      reloaded = true;
    }
  });
  assert.ok(reloaded, 'the game lasted past the reload');
  for (const p of [ann, bob, eve]) {
    await p.page.waitForSelector('#winner:not([hidden])');
    await settled(p.page);
  }
  const seen = await Promise.all([ann, bob, eve].map((p) => tokens(p.page)));
  assert.deepEqual(seen[1], seen[0]);
  assert.deepEqual(seen[2], seen[0], 'the spectator sees where the tokens stand');
  const state = await (await fetch(`${server.url}/api/rooms/${room.room}`)).json();
  assert.deepEqual(seen[0], Object.fromEntries(state.seats.map((/** @type {any} */ s) => [s.name, s.position])));
  const [bobLog, eveLog] = await Promise.all([logLines(bob.page), logLines(eve.page)]);
  const moves = (/** @type {string[]} */ l) => l.filter((x) => / rolled | took /.test(x));
  assert.ok(moves(eveLog).length > 4);
  assert.deepEqual(moves(eveLog), moves(bobLog), 'the spectator saw the same moves, in the same words');
  await eve.page.screenshot({ path: path.join(shots, 'spectator.png') });
  for (const p of [ann, bob, eve]) assert.deepEqual(p.errors, []);
});

/**
 * The seconds the page's turn timer shows as left (from its accessible name).
 * @param {import('playwright-core').Page} page
 */
async function secondsLeft(page) {
  const label = await page.locator('#timer').getAttribute('aria-label');
  const match = /^(\d+) seconds left for Ann$/.exec(label ?? '');
  assert.ok(match, `the timer says ${label}`);
  return Number(match[1]);
}

test('a reload mid-turn in a timed room shows the time left of the turn, not the whole turn', async () => {
  const room = await post(`${server.url}/api/rooms`, { board: 'kids', seats: [{ kind: 'human' }, { kind: 'hard', name: 'Robo' }], turn_time: 3600, seed: 5 });
  const { token } = await post(`${server.url}/api/rooms/${room.room}/seats/0`, { name: 'Ann' });
  const ann = await openPage(browser);
  await ann.page.goto(`${server.url}/room/${room.room}#token=${token}`);
  await ann.page.waitForSelector('#timer:not([hidden])');
  await settled(ann.page);
  assert.ok(await secondsLeft(ann.page) > 3590, 'a fresh turn starts with the whole hour');
  // Ann's clock runs (it is her turn, she does not roll) until three seconds are gone.
  await ann.page.waitForFunction(() => Number(/^(\d+)/.exec(document.getElementById('timer')?.getAttribute('aria-label') ?? '')?.[1]) <= 3597, undefined, { timeout: 30_000 });
  const state = await (await fetch(`${server.url}/api/rooms/${room.room}`)).json();
  assert.ok(state.turn_left_ms <= 3_597_000 && state.turn_left_ms > 0, `the server tells the time left: ${state.turn_left_ms}`);

  await ann.page.reload();
  await ann.page.waitForSelector('.player[data-seat="0"] .badge-you');
  await ann.page.waitForSelector('#timer:not([hidden])');
  await settled(ann.page);
  const left = await secondsLeft(ann.page);
  assert.ok(left <= 3597, `after the reload the timer goes on from what was left (${left} s), not the whole hour`);
  assert.ok(left > 3000, `and does not run out: ${left} s`);
  assert.match(await ann.page.locator('#timer').textContent() ?? '', /^(59|60):\d\d$/);
  assert.deepEqual(ann.errors, []);
});
