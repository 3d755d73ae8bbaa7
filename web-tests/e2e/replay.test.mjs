// Replays in real Chromium: a recorded online game listed, then played, paused, stepped and
// seeked, the tokens standing where the game's events put them at every point asked.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { launch, openPage, post, root, shots, startServer, tokens } from './support.mjs';

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
 * Where each player stands after the first `k` events, followed from the events alone.
 * @param {any} game
 * @param {number} k
 */
function positionsAfter(game, k) {
  /** @type {Record<string, number>} */
  const at = Object.fromEntries(game.seats.map((/** @type {{name: string}} */ s) => [s.name, 0]));
  for (const { event: e } of game.events.slice(0, k)) {
    if (['moved', 'snake', 'ladder', 'wormhole'].includes(e.type)) at[e.player] = e.to;
    if (e.type === 'turn_voided') at[e.player] = e.back_to;
  }
  return at;
}

/**
 * @param {import('playwright-core').Page} page
 * @param {number} k
 */
async function at(page, k) {
  await page.waitForSelector(`body[data-index="${k}"]`);
}

test('a recorded game is listed, then replayed: seek, step, back, play and pause show the right positions', async () => {
  // Two computers play a whole game at once; it is recorded in the commit of its last events,
  // before they are sent: once a spectator's page shows the winner, the game is in the list.
  const made = await post(`${server.url}/api/rooms`, { seats: [{ kind: 'greedy', name: 'Gus' }, { kind: 'hard', name: 'Hal' }], seed: 12 });
  const { page, errors } = await openPage(browser);
  await page.goto(`${server.url}/room/${made.room}`);
  await page.waitForSelector('#winner:not([hidden])');
  const list = await (await fetch(`${server.url}/api/games`)).json();
  assert.deepEqual(list.games[0].seats.map((/** @type {{name: string}} */ s) => s.name), ['Gus', 'Hal'], 'the newest game is this one');
  const id = list.games[0].id;
  const game = await (await fetch(`${server.url}/api/games/${id}`)).json();
  const n = game.events.length;
  assert.ok(n > 20);

  await page.goto(`${server.url}/replay`);
  await page.getByRole('link', { name: new RegExp(`^Game ${id} `) }).click();
  await page.waitForURL(new RegExp(`/replay/${id}$`));
  await at(page, 0);
  assert.deepEqual(await tokens(page), { Gus: 0, Hal: 0 });
  assert.equal(await page.locator('[data-cell]').count(), 101);

  const middle = Math.floor(n / 2);
  await page.locator('#seek').fill(String(middle));
  await at(page, middle);
  assert.deepEqual(await tokens(page), positionsAfter(game, middle));
  assert.equal(await page.locator('#where').textContent(), `Event ${middle} of ${n}`);
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await at(page, middle + 1);
  assert.deepEqual(await tokens(page), positionsAfter(game, middle + 1));
  await page.getByRole('button', { name: 'Step back' }).click();
  await page.getByRole('button', { name: 'Step back' }).click();
  await at(page, middle - 1);
  assert.deepEqual(await tokens(page), positionsAfter(game, middle - 1));
  await page.screenshot({ path: path.join(shots, 'replay.png') });

  await page.locator('#speed').selectOption('16');
  await page.getByRole('button', { name: 'Play' }).click();
  await page.waitForFunction((k) => Number(document.body.dataset.index) >= k, middle + 3);
  await page.getByRole('button', { name: 'Pause' }).click();
  const paused = Number(await page.evaluate(() => document.body.dataset.index));
  assert.deepEqual(await tokens(page), positionsAfter(game, paused));

  await page.keyboard.press('End');
  await at(page, n);
  const end = positionsAfter(game, n);
  assert.deepEqual(await tokens(page), end);
  assert.deepEqual(Object.values(end), game.positions);
  assert.equal(end[game.ranking[0]], 100);
  await page.keyboard.press('Home');
  await at(page, 0);
  // Space plays and pauses, as in a video player.
  await page.locator('body').click({ position: { x: 2, y: 2 } });
  await page.keyboard.press(' ');
  await page.getByRole('button', { name: 'Pause' }).waitFor();
  await page.keyboard.press(' ');
  await page.getByRole('button', { name: 'Play' }).waitFor();
  assert.deepEqual(errors, []);
});

test('a game that snl play recorded in the same database replays to where it ended', async (t) => {
  if (!server.db) return t.skip('the server was started elsewhere (SNL_URL without SNL_DB)');
  const bin = process.env.SNL_BIN ?? path.join(root, 'target', 'release', 'snl');
  // With no terminal, snl play plays its seats out and records the game.
  execFileSync(bin, ['play', '--db', server.db, '--seed', '17', '--player', 'Ann:easy', '--player', 'Bob:greedy'], { stdio: 'ignore' });
  const list = await (await fetch(`${server.url}/api/games`)).json();
  const local = list.games.find((/** @type {{seats: {name: string}[]}} */ g) => g.seats.map((s) => s.name).join() === 'Ann,Bob');
  assert.ok(local, JSON.stringify(list));
  const game = await (await fetch(`${server.url}/api/games/${local.id}`)).json();
  const n = game.events.length;
  const { page, errors } = await openPage(browser);
  await page.goto(`${server.url}/replay/${local.id}`);
  await at(page, 0);
  const third = Math.floor(n / 3);
  await page.locator('#seek').fill(String(third));
  await at(page, third);
  assert.deepEqual(await tokens(page), positionsAfter(game, third));
  await page.keyboard.press('End');
  await at(page, n);
  assert.deepEqual(Object.values(await tokens(page)).sort(), [...game.positions].sort());
  assert.deepEqual(await tokens(page), positionsAfter(game, n));
  assert.deepEqual(errors, []);
});

test('the replay page checks every roll and wormhole draw against the revealed secret itself, and names the roll an altered answer changed', async () => {
  // No seed named: the server commits to a secret before the first roll and reveals it at the end.
  const made = await post(`${server.url}/api/rooms`, { board: 'party', seats: [{ kind: 'easy', name: 'Vee' }, { kind: 'greedy', name: 'Wes' }] });
  const { page, errors } = await openPage(browser);
  await page.goto(`${server.url}/room/${made.room}`);
  await page.waitForSelector('#winner:not([hidden])');
  const list = await (await fetch(`${server.url}/api/games`)).json();
  const recorded = list.games.find((/** @type {{seats: {name: string}[]}} */ g) => g.seats.map((s) => s.name).join() === 'Vee,Wes');
  assert.ok(recorded, JSON.stringify(list));
  const game = await (await fetch(`${server.url}/api/games/${recorded.id}`)).json();
  const { seed, room, history } = game.dice;
  assert.match(seed, /^\d+$/);
  assert.match(room.secret, /^[0-9a-f]{64}$/, 'the secret is revealed once the game is over');

  await page.goto(`${server.url}/replay/${recorded.id}`);
  await page.waitForSelector('body[data-dice="verified"]');
  const said = await page.locator('#fair-result').textContent() ?? '';
  assert.ok(said.startsWith(`Checked in this page: all ${history.length} rolls`), said);
  assert.ok(said.includes(`seed ${seed} gives`) && said.includes(room.commitment), said);

  // The same game with its third roll changed on the way to the page: the page finds it alone.
  const altered = await openPage(browser);
  await altered.page.route(`**/api/games/${recorded.id}`, async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    const roll = body.dice.history[2].roll;
    roll[0] = roll[0] % 6 + 1;
    await route.fulfill({ response, json: body });
  });
  await altered.page.goto(`${server.url}/replay/${recorded.id}`);
  await altered.page.waitForSelector('body[data-dice="not-verified"]');
  const refused = await altered.page.locator('#fair-result').textContent() ?? '';
  assert.ok(refused.startsWith(`Not verified: seed ${seed} gives`) && refused.includes('for move 3 of the history'), refused);
  assert.deepEqual(errors, []);
  assert.deepEqual(altered.errors, []);
});

test('the replay shows each player’s dice up to the point shown, as a room does', async () => {
  const made = await post(`${server.url}/api/rooms`, { seats: [{ kind: 'greedy', name: 'Dot' }, { kind: 'easy', name: 'Eve' }], seed: 21 });
  const { page, errors } = await openPage(browser);
  await page.goto(`${server.url}/room/${made.room}`);
  await page.waitForSelector('#winner:not([hidden])');
  const list = await (await fetch(`${server.url}/api/games`)).json();
  const id = list.games[0].id;
  const game = await (await fetch(`${server.url}/api/games/${id}`)).json();
  await page.goto(`${server.url}/replay/${id}`);
  await at(page, 0);
  const middle = Math.floor(game.events.length / 2);
  await page.locator('#seek').fill(String(middle));
  await at(page, middle);
  await page.waitForSelector(`#dice-stats[data-seq="${middle}"]`);
  assert.equal(await page.locator('#dice-card').isVisible(), true);
  // The faces counted are those of the rolls whose events all came by then.
  const standing = await (await fetch(`${server.url}/api/games/${id}/at/${middle}`)).json();
  /** @type {Record<string, number>} */
  const thrown = { Dot: 0, Eve: 0 };
  for (const { event: e } of game.events.slice(0, standing.at)) if (e.type === 'dice_rolled') thrown[e.player] += e.dice.length;
  const rows = page.locator('#dice-stats tr[data-kind="game"]');
  assert.equal(await rows.count(), 2, 'one row a player, no history rows in a replay');
  for (const [seat, name] of ['Dot', 'Eve'].entries()) {
    const row = page.locator(`#dice-stats tr[data-kind="game"][data-seat="${seat}"]`);
    assert.equal(Number(await row.getAttribute('data-throws')), thrown[name], name);
    assert.match(await row.locator('th').textContent() ?? '', new RegExp(`^${name}`));
  }
  assert.ok(thrown.Dot + thrown.Eve > 0);
  // At the end: every throw of the game.
  await page.keyboard.press('End');
  await at(page, game.events.length);
  await page.waitForSelector(`#dice-stats[data-seq="${game.events.length}"]`);
  const all = game.events.filter((/** @type {any} */ x) => x.event.type === 'dice_rolled').reduce((/** @type {number} */ sum, /** @type {any} */ x) => sum + x.event.dice.length, 0);
  const counted = await page.locator('#dice-stats tr[data-kind="game"]').evaluateAll((trs) => trs.reduce((sum, tr) => sum + Number(tr.getAttribute('data-throws')), 0));
  assert.equal(counted, all);
  assert.deepEqual(errors, []);
});
