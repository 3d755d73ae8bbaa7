// The browser's cells of the parity table (docs/features.md), each checked cheaply in real
// Chromium (issue 26): a room on every preset and on a board file is drawn (its cells, its
// effects' icons, its legend) and its recorded game replays to where it ended; every rule option
// shows something of its own on the page.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { annAndRobo, launch, openPage, post, settled, startServer, tokens } from './support.mjs';

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

/** A small board file: a snake, a ladder, and one cell of each effect. */
const FILE_BOARD = {
  size: 40,
  snake: [{ head: 37, tail: 12 }],
  ladder: [{ foot: 4, top: 22 }],
  cell: [{ at: 9, effect: 'skip' }, { at: 15, effect: 'extra' }, { at: 18, effect: 'shield' }, { at: 27, effect: 'wormhole', exits: [6, 30] }],
};

/**
 * Two computers play a whole room's game while a spectator's page watches it to the end; then
 * the newest recorded game is the room's.
 * @param {Record<string, unknown>} request
 */
async function computersPlay(request) {
  const made = await post(`${server.url}/api/rooms`, { seats: [{ kind: 'greedy', name: 'Gus' }, { kind: 'hard', name: 'Hal' }], seed: 3, ...request });
  const opened = await openPage(browser);
  await opened.page.goto(`${server.url}/room/${made.room}`);
  await opened.page.waitForSelector('#winner:not([hidden])');
  await settled(opened.page);
  const state = await (await fetch(`${server.url}/api/rooms/${made.room}`)).json();
  return { ...opened, state };
}

for (const board of ['classic', 'milton-bradley', 'kids', 'party', 'random', 'empty', 'file']) {
  test(`a room on the ${board} board is drawn, played and replayed`, async () => {
    const { page, context, errors, state } = await computersPlay({ board: board === 'file' ? FILE_BOARD : board });
    const effects = state.board.cell?.length ?? 0;
    // Each cell and the start tray, each effect's icon, the legend of the kinds on the board.
    assert.equal(await page.locator('#board [data-cell]').count(), state.board.size + 1);
    assert.equal(await page.locator('#board .fx').count(), effects);
    const kinds = await page.locator('#legend li').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-kind')));
    assert.deepEqual(kinds, state.legend.map((/** @type {{kind: string}} */ l) => l.kind));
    if (board === 'party' || board === 'file') assert.deepEqual(kinds, ['snake', 'ladder', 'skip', 'extra', 'shield', 'wormhole']);
    if (board === 'empty') assert.equal(await page.locator('#legend-card').isHidden(), true);
    // The spectator has no Roll button and no keyboard hint.
    assert.equal(await page.locator('#roll').isHidden(), true);
    assert.equal(await page.locator('#hint').isHidden(), true);

    const list = await (await fetch(`${server.url}/api/games`)).json();
    const id = list.games[0].id;
    const game = await (await fetch(`${server.url}/api/games/${id}`)).json();
    assert.equal(game.board.size, state.board.size);
    assert.deepEqual(game.seats.map((/** @type {{name: string}} */ s) => s.name), ['Gus', 'Hal'], 'the newest game is this one');
    await page.goto(`${server.url}/replay/${id}`);
    await page.waitForSelector('body[data-index="0"]');
    assert.equal(await page.locator('#board [data-cell]').count(), state.board.size + 1);
    assert.equal(await page.locator('#board .fx').count(), effects);
    const replayKinds = await page.locator('#legend li').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-kind')));
    assert.deepEqual(replayKinds, kinds, 'the replay shows the same legend');
    await page.keyboard.press('End');
    await page.waitForSelector(`body[data-index="${game.events.length}"]`);
    const end = await tokens(page);
    assert.deepEqual([end.Gus, end.Hal], game.positions);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

/**
 * The log's lines on a page (live and earlier).
 * @param {import('playwright-core').Page} page
 */
const told = (page) => page.locator('#log p, #earlier-log p').allTextContents();

test('top-face bonus: a computer rolls again', async () => {
  const { page, context, errors } = await computersPlay({ rules: { bonus: 'top-face' } });
  assert.ok((await told(page)).some((l) => /rolls again/.test(l)));
  assert.deepEqual(errors, []);
  await context.close();
});

test('finish all: everyone is ranked, those who finished said so', async () => {
  const { page, context, errors, state } = await computersPlay({ rules: { finish: 'all' }, seats: [{ kind: 'greedy', name: 'Gus' }, { kind: 'hard', name: 'Hal' }, { kind: 'easy', name: 'Eve' }] });
  assert.equal(state.ranking.length, 3);
  assert.equal(await page.locator('#ranking li').count(), 3);
  const details = await page.locator('#players .player .detail').allTextContents();
  // Two finish; the last is ranked where it stands, and not said to have finished.
  assert.equal(details.filter((d) => /· finished (1st|2nd)$/.test(d)).length, 2, details.join(' | '));
  assert.equal(details.filter((d) => /· 3rd (on \d+|at the start)$/.test(d)).length, 1, details.join(' | '));
  assert.ok((await told(page)).some((l) => /finishes 2nd/.test(l)));
  assert.deepEqual(errors, []);
  await context.close();
});

test('chain jumps: a ladder onto a ladder climbs both in one move', async () => {
  const feet = [1, 2, 3, 4, 5, 6].map((foot) => ({ foot, top: 7 }));
  const board = { size: 30, snake: [], ladder: [...feet, { foot: 7, top: 20 }] };
  const { page, context, errors } = await computersPlay({ board, rules: { jumps: 'chain' } });
  assert.ok((await told(page)).some((l) => /A ladder at 7 took .* up to 20/.test(l)));
  assert.deepEqual(errors, []);
  await context.close();
});

/**
 * Ann (a person, held by the page) and a computer, with `rules`.
 * @param {Record<string, unknown>} rules
 */
const annWith = (rules) => annAndRobo(server, browser, { rules, seed: 8 });

test('first-cell start: the tokens begin on cell 1', async () => {
  const { page, context, errors } = await annWith({ start: 'first-cell' });
  assert.deepEqual(await tokens(page), { Ann: 1, Robo: 1 });
  assert.match(String(await page.locator('#players .player[data-seat="0"] .detail').textContent()), /· on 1$/);
  // The person holding a seat is told the keys.
  assert.equal(await page.locator('#hint').isVisible(), true);
  assert.deepEqual(errors, []);
  await context.close();
});

test('pick-die: the roll offers a move by either die', async () => {
  const { page, context, errors } = await annWith({ choice: 'pick-die' });
  // Two dice are shown from the start, as the engine throws them (the state's thrown_dice).
  assert.equal(await page.locator('#dice > *').count(), 2);
  await page.getByRole('button', { name: 'Roll', exact: true }).click();
  await page.waitForSelector('#options button.option');
  const options = await page.locator('#options button.option').allTextContents();
  assert.ok(options.length >= 1 && options.every((o) => /^\d: Move \d/.test(o)), options.join(' | '));
  await page.locator('#options button.option').first().click();
  await page.waitForFunction(() => Array.from(document.querySelectorAll('#log p')).some((p) => /took the/.test(p.textContent ?? '')));
  assert.deepEqual(errors, []);
  await context.close();
});

test('may-pass: the roll may be passed, staying put', async () => {
  const { page, context, errors } = await annWith({ choice: 'may-pass' });
  await page.getByRole('button', { name: 'Roll', exact: true }).click();
  await page.waitForSelector('#options button.option');
  const options = await page.locator('#options button.option').allTextContents();
  assert.equal(options.length, 2, options.join(' | '));
  assert.match(options[1], /^2: Stay/);
  await page.locator('#options button.option').nth(1).click();
  await page.waitForFunction(() => Array.from(document.querySelectorAll('#log p')).some((p) => /chose to stay/.test(p.textContent ?? '')));
  assert.deepEqual(errors, []);
  await context.close();
});
