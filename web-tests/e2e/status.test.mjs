// What a room says about its game beyond the board, in real Chromium (issue 26): a race says it
// is one and when it is over, seats a race's end ranked by position are not said to have
// finished, the game clock counts, the lobby entry says race and clocks; the board's legend lists
// the kinds of cell on it with their icons, and each player's shield and pending skip show as
// badges, updated as the game goes. Every word comes from the server (snl-words).
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { annAndRobo, launch, openPage, playToEnd, post, settled, startServer } from './support.mjs';

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

test('a race says its round and its end, ranks the unfinished by position, and the game clock counts', async () => {
  const { room, page, context, errors } = await annAndRobo(server, browser, { board: 'classic', mode: 'race', rounds: 2, game_time: 3600, seed: 5 });
  const lobby = await (await fetch(`${server.url}/api/rooms`)).json();
  const entry = lobby.rooms.find((/** @type {{room: string}} */ r) => r.room === room);
  assert.equal(entry.about, 'race of 2 rounds · game clock 1:00:00');
  await page.waitForFunction(() => document.getElementById('race')?.textContent === 'race · round 1 of 2');
  assert.equal(await page.locator('#race').isVisible(), true);
  // The game clock shows and counts down (waited on, not timed).
  const clock = page.locator('#game-clock');
  await page.waitForFunction(() => !document.getElementById('game-clock-row')?.hidden);
  const first = await clock.textContent();
  assert.match(String(first), /^(59:[0-5]\d|60:00)$/);
  await page.waitForFunction((before) => document.getElementById('game-clock')?.textContent !== before, first);
  await playToEnd(page);
  await settled(page);
  assert.equal(await page.locator('#race').textContent(), 'race over after 2 rounds');
  assert.equal(await page.locator('#game-clock-row').isHidden(), true);
  // Two rounds of a classic board: nobody reached 100, so nobody "finished".
  const details = await page.locator('#players .player .detail').allTextContents();
  assert.equal(details.length, 2);
  for (const d of details) assert.doesNotMatch(d, /finished/, d);
  assert.ok(details.some((d) => /· 1st (on \d+|at the start)$/.test(d)), details.join(' | '));
  assert.ok(details.some((d) => /· 2nd (on \d+|at the start)$/.test(d)), details.join(' | '));
  // The lobby page says what the room is (while it ran; it is over now and leaves the lobby).
  assert.deepEqual(errors, []);
  await context.close();
});

test('the lobby page says which room is a race and which has clocks', async () => {
  const made = await post(`${server.url}/api/rooms`, { seats: [{ kind: 'human' }, { kind: 'easy' }], mode: 'race', rounds: 3, turn_time: 30 });
  const { page, context, errors } = await openPage(browser);
  await page.goto(`${server.url}/`);
  const row = page.locator(`#rooms li[data-room="${made.room}"] .about`);
  await row.waitFor();
  assert.equal(await row.textContent(), 'race of 3 rounds · turn clock 0:30');
  assert.deepEqual(errors, []);
  await context.close();
});

/**
 * A 20-cell board whose cells 1 to 6 all hold `effect`: the first roll lands on one.
 * @param {string} effect
 */
const allOf = (effect) => ({ size: 20, cell: [1, 2, 3, 4, 5, 6].map((at) => ({ at, effect })) });

test('the legend lists the kinds of cell on the board with their icons', async () => {
  const { page, context, errors } = await annAndRobo(server, browser, { board: 'party', seed: 1 });
  const kinds = await page.locator('#legend li').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-kind')));
  assert.deepEqual(kinds, ['snake', 'ladder', 'skip', 'extra', 'shield', 'wormhole']);
  assert.equal(await page.locator('#legend li svg.legend-icon').count(), 6);
  assert.match(String(await page.locator('#legend li[data-kind="shield"]').textContent()), /^shield: stops the next snake$/);
  // An effect's icon in the legend is the board's own.
  assert.equal(await page.locator('#legend li[data-kind="wormhole"] .fx-wormhole').count(), 1);
  await context.close();
  const classic = await annAndRobo(server, browser, { board: 'classic' });
  assert.deepEqual(await classic.page.locator('#legend li').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-kind'))), ['snake', 'ladder']);
  assert.deepEqual([...errors, ...classic.errors], []);
  await classic.context.close();
});

test('a shield held and a skip pending show as badges, and go when spent', async () => {
  const shielded = await annAndRobo(server, browser, { board: allOf('shield'), seed: 2 });
  const ann = shielded.page.locator('#players .player[data-seat="0"] .badge');
  assert.equal(await ann.filter({ hasText: 'shield' }).count(), 0);
  await shielded.page.getByRole('button', { name: 'Roll', exact: true }).click();
  await shielded.page.waitForFunction(() => document.querySelector('#players .player[data-seat="0"] .badge-shield')?.textContent === 'shield');
  await shielded.context.close();

  // Two people on one page (a computer's turn would follow at once, before any new input is
  // awaited): Ann's skip shows while Bob is awaited.
  const made = await post(`${server.url}/api/rooms`, { board: allOf('skip'), seats: [{ kind: 'human' }, { kind: 'human' }], seed: 2 });
  const held = [];
  for (const [seat, name] of ['Ann', 'Bob'].entries()) held.push((await post(`${server.url}/api/rooms/${made.room}/seats/${seat}`, { name })).token);
  const skipping = await openPage(browser);
  await skipping.context.addInitScript(([key, list]) => { localStorage.setItem(key, list); }, [`snl.room.${made.room}`, JSON.stringify(held)]);
  const page = skipping.page;
  await page.goto(`${server.url}/room/${made.room}`);
  await page.waitForFunction(() => document.querySelectorAll('#players .player .badge-you').length === 2);
  await settled(page);
  await page.getByRole('button', { name: 'Roll', exact: true }).click();
  await page.waitForFunction(() => document.querySelector('#players .player[data-seat="0"] .badge-skip')?.textContent === 'skips next turn');
  // Bob lands on a skip cell too; Ann's turn is skipped, then Bob's: both badges go.
  await page.getByRole('button', { name: 'Roll', exact: true }).click();
  await page.waitForFunction(() => !document.querySelector('#players .badge-skip') && document.body.dataset.idle === 'true');
  assert.match(String(await page.locator('#log').textContent()), /Ann misses this turn \(a skip cell\)/);
  assert.deepEqual([...shielded.errors, ...skipping.errors], []);
  await skipping.context.close();
});
