// The lobby's form offers every way to set up a room that the create-room API takes (SPEC §10,
// issue 26): each preset (party too), a random board's size, jumps, cell effects and seed, the
// named rule sets and every rule option, choice rules, mode and rounds, turn and game clocks, the
// dice seed. Real Chromium fills the form and submits it; the room then says it got each option.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, startServer } from './support.mjs';

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
 * Fills the lobby's form (selects by value, inputs by text), creates the room and reads its state.
 * @param {Record<string, string>} selects
 * @param {Record<string, string>} [inputs]
 */
async function create(selects, inputs = {}) {
  const { page, context, errors } = await openPage(browser);
  await page.goto(`${server.url}/`);
  await page.fill('#name', 'Ann');
  await page.locator('details.more summary').click();
  for (const [id, value] of Object.entries(selects)) await page.selectOption(`#${id}`, value);
  for (const [id, value] of Object.entries(inputs)) await page.fill(`#${id}`, value);
  await Promise.all([page.waitForURL(/\/room\//), page.getByRole('button', { name: 'Create the room' }).click()]);
  const room = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]);
  const state = await (await fetch(`${server.url}/api/rooms/${room}`)).json();
  assert.deepEqual(errors, []);
  await context.close();
  return state;
}

test('every preset in the form makes a room on that board', async () => {
  const sizes = { classic: 100, 'milton-bradley': 100, kids: 50, party: 100, random: 100, empty: 100 };
  for (const [board, size] of Object.entries(sizes)) {
    const state = await create({ board });
    assert.equal(state.board_name, board);
    assert.equal(state.board.size, size, board);
  }
  const party = await create({ board: 'party' });
  assert.ok(party.board.cell.length > 0, 'the party board has its cell effects');
});

test('a random board takes its size, jumps, effects and seed from the form', async () => {
  const inputs = { 'random-size': '64', 'random-snakes': '3', 'random-ladders': '4', 'random-effects': '5', 'random-seed': '99' };
  const state = await create({ board: 'random' }, inputs);
  assert.equal(state.board.size, 64);
  assert.equal(state.board.snake.length, 3);
  assert.equal(state.board.ladder.length, 4);
  assert.equal(state.board.cell.length, 5);
  const again = await create({ board: 'random' }, inputs);
  assert.deepEqual(again.board, state.board, 'the same seed draws the same board');
});

test('each named rule set and each rule option reaches the room', async () => {
  for (const set of ['standard', 'bonus-six', 'three-sixes', 'strict-sixes']) {
    const { rules } = await create({ rules: set });
    if (set === 'three-sixes') assert.equal(rules.start, 'first-cell');
    if (set === 'strict-sixes') assert.equal(rules['on-max'], 'void');
    if (set === 'standard') assert.equal(rules.bonus, 'none');
    else assert.equal(rules.bonus, 'top-face', set);
  }
  const { rules } = await create({
    start: 'first-cell', bonus: 'top-face', 'max-bonus': '2', 'on-max': 'void', dice: '2d6',
    overshoot: 'bounce', choice: 'may-pass', jumps: 'chain', finish: 'all',
  });
  assert.deepEqual(
    [rules.start, rules.bonus, rules['max-bonus'], rules['on-max'], rules.dice, rules.overshoot, rules.choice, rules.jumps, rules.finish],
    ['first-cell', 'top-face', 2, 'void', '2d6', 'bounce', 'may-pass', 'chain', 'all'],
  );
  assert.equal((await create({ choice: 'pick-die' })).rules.choice, 'pick-die');
});

test('mode, rounds and clocks reach the room', async () => {
  const state = await create({ mode: 'race:3', 'turn-time': '30', 'game-time': '600' }, { seed: '4242' });
  assert.deepEqual(state.rules.mode, { race: { rounds: 3 } });
  assert.equal(state.turn_time, 30);
  assert.equal(state.game_time, 600);
  assert.equal(state.race, 'race · round 1 of 3');
  const classic = await create({ mode: 'classic' });
  assert.equal(classic.rules.mode, undefined, 'a classic game writes no mode');
  assert.equal(classic.race, null);
});

test('the form makes a series: best of 3, each game a room', async () => {
  const state = await create({ games: '3' });
  assert.equal(state.series.best_of, 3);
  assert.equal(state.series.game, 1);
  assert.deepEqual(state.series.wins, [0, 0]);
});
