// The players' key beside the board and tokens that share a cell, in real Chromium: each player's
// token has its own colour and shape, the key shows the same, the current player is marked and the
// mark moves on with the turn; tokens on one cell are spread apart, shrunk and named.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { SHAPES, SHAPE_NAMES } from '../../crates/server/web/assets/board.js';
import { launch, openPage, post, settled, startServer, tokens } from './support.mjs';

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
 * A room of people all playing on one page (one device): every seat is taken and its token kept
 * in the page's storage before the page's script runs.
 * @param {string[]} names
 * @param {Record<string, unknown>} [extra] more of the room's request (rules, seed, …)
 */
async function roomOnOneDevice(names, extra = {}) {
  const made = await post(`${server.url}/api/rooms`, { seats: names.map(() => ({ kind: 'human' })), ...extra });
  const held = [];
  for (const [seat, name] of names.entries()) held.push((await post(`${server.url}/api/rooms/${made.room}/seats/${seat}`, { name })).token);
  const opened = await openPage(browser);
  await opened.context.addInitScript(([key, list]) => {
    try { localStorage.setItem(key, list); } catch { /* a page of no origin */ }
  }, [`snl.room.${made.room}`, JSON.stringify(held)]);
  await opened.page.goto(`${server.url}/room/${made.room}`);
  await opened.page.waitForFunction((n) => document.querySelectorAll('#players .player .badge-you').length === n, names.length);
  await settled(opened.page);
  return { room: /** @type {string} */ (made.room), ...opened };
}

/**
 * Rolls for whoever is awaited and waits until the page has shown the answer.
 * @param {import('playwright-core').Page} page
 */
async function rollOnce(page) {
  await page.waitForFunction(() => !(/** @type {HTMLButtonElement} */ (document.getElementById('roll'))).disabled);
  const mark = await page.evaluate(() => document.body.dataset.awaited);
  await page.getByRole('button', { name: 'Roll', exact: true }).click();
  await page.waitForFunction((before) => document.body.dataset.awaited !== before, mark);
  await settled(page);
}

/**
 * Whose turn the page marks, in the key and on the board.
 * @param {import('playwright-core').Page} page
 */
async function marked(page) {
  return page.evaluate(() => ({
    key: Array.from(document.querySelectorAll('#players .player.current')).map((li) => [li.getAttribute('data-seat'), li.getAttribute('aria-current')]),
    tokens: Array.from(document.querySelectorAll('.token.current')).map((t) => t.getAttribute('data-player')),
  }));
}

test('each player has a colour and a shape of their own, the key shows the same, and the turn mark moves on', async () => {
  const names = ['Ann', 'Bob', 'Cid', 'Dot'];
  const { room, page, errors } = await roomOnOneDevice(names, { seed: 7 });
  const drawn = await page.evaluate((names) => names.map((name, seat) => {
    const token = /** @type {SVGPathElement} */ (document.querySelector(`.token[data-player="${name}"] .token-shape`));
    const key = /** @type {HTMLElement} */ (document.querySelector(`#players .player[data-seat="${seat}"]`));
    const icon = /** @type {SVGPathElement} */ (key.querySelector('.token-icon .token-shape'));
    return {
      tokenFill: getComputedStyle(token).fill,
      tokenShape: token.getAttribute('d'),
      tokenLetter: token.parentElement?.querySelector('.token-letter')?.textContent,
      keyFill: getComputedStyle(icon).fill,
      keyShape: icon.getAttribute('d'),
      keyLetter: icon.parentElement?.querySelector('.token-letter')?.textContent,
      keyName: key.querySelector('strong')?.textContent,
      keyShapeName: (key.querySelector('.detail')?.textContent ?? '').split(' · ')[0],
    };
  }), names);
  assert.equal(new Set(drawn.map((d) => d.tokenFill)).size, names.length, `a colour each: ${drawn.map((d) => d.tokenFill)}`);
  assert.equal(new Set(drawn.map((d) => d.tokenShape)).size, names.length, 'a shape each');
  drawn.forEach((d, seat) => {
    const who = names[seat];
    assert.match(d.tokenFill, /^rgb\(/, who);
    assert.equal(d.keyName, who);
    assert.equal(d.keyFill, d.tokenFill, `${who}: the key's colour is the token's`);
    assert.equal(d.keyShape, d.tokenShape, `${who}: the key's shape is the token's`);
    assert.equal(d.keyLetter, who[0]);
    assert.equal(d.tokenLetter, who[0]);
    // The key names the shape it draws.
    const k = SHAPE_NAMES.indexOf(d.keyShapeName);
    assert.ok(k >= 0, `${who}: the key names a shape (${d.keyShapeName})`);
    assert.equal(d.tokenShape, SHAPES[k], `${who} is drawn as the ${d.keyShapeName} the key names`);
  });
  assert.equal(new Set(drawn.map((d) => d.keyShapeName)).size, names.length);

  // The mark follows the turn round the table and back to the first player.
  for (let turn = 0; turn <= names.length; turn++) {
    const seat = turn % names.length;
    const state = await (await fetch(`${server.url}/api/rooms/${room}`)).json();
    assert.equal(state.awaiting.seat, seat);
    assert.deepEqual(await marked(page), { key: [[String(seat), 'true']], tokens: [names[seat]] }, `turn ${turn}`);
    if (turn < names.length) await rollOnce(page);
  }
  assert.deepEqual(errors, []);
});

test('tokens on one cell are spread apart, shrunk, and each named where it stands', async () => {
  const names = ['Ann', 'Bob', 'Cid'];
  const { page, errors } = await roomOnOneDevice(names, { rules: { start: 'first-cell' }, seed: 3 });
  assert.deepEqual(await tokens(page), { Ann: 1, Bob: 1, Cid: 1 }, 'everyone starts on cell 1');
  /**
   * Cell 1 and each token (title, centre, size) in the board drawing's own units (the token layer
   * is laid over the drawing at its scale, so these are where the page draws them).
   */
  const look = () => page.evaluate(() => {
    const rect = /** @type {SVGRectElement} */ (document.querySelector('[data-cell="1"] .cell-bg'));
    const cell = { x: rect.x.baseVal.value, y: rect.y.baseVal.value, width: rect.width.baseVal.value, height: rect.height.baseVal.value };
    const tokens = Object.fromEntries(Array.from(document.querySelectorAll('.token')).map((t) => {
      const m = /^translate\((-?[\d.]+)px, (-?[\d.]+)px\) scale\(([\d.]+)\)$/.exec((/** @type {HTMLElement} */ (t)).style.transform);
      return [t.getAttribute('data-player'), { title: t.getAttribute('title'), x: Number(m?.[1]), y: Number(m?.[2]), size: Number(m?.[3]) }];
    }));
    return { cell, tokens };
  });
  const { cell, tokens: crowd } = await look();
  for (const name of names) {
    assert.ok(crowd[name].size < 1, `${name} is drawn smaller on a shared cell`);
    assert.equal(crowd[name].title, `${name} on 1`);
    assert.ok(crowd[name].x > cell.x && crowd[name].x < cell.x + cell.width && crowd[name].y > cell.y && crowd[name].y < cell.y + cell.height, `${name} is drawn on cell 1: ${JSON.stringify({ cell, crowd })}`);
  }
  for (const [i, a] of names.entries()) {
    for (const b of names.slice(i + 1)) {
      assert.ok(Math.hypot(crowd[a].x - crowd[b].x, crowd[a].y - crowd[b].y) > cell.width / 5, `${a} and ${b} are not drawn on top of each other`);
    }
  }
  assert.equal(await page.locator('svg#board').getAttribute('aria-label'), 'Board of 100 cells: Ann on 1, Bob on 1, Cid on 1');
  assert.deepEqual(await page.locator('#players .detail').allTextContents(), ['circle · person · on 1', 'square · person · on 1', 'triangle · person · on 1']);

  // Ann moves off: she alone is drawn full size; the two left behind still share the cell.
  await rollOnce(page);
  const { cell: after, tokens: moved } = await look();
  const ann = (await tokens(page)).Ann;
  assert.ok(ann > 1);
  assert.equal(moved.Ann.title, `Ann on ${ann}`);
  assert.ok(moved.Ann.size > moved.Bob.size * 1.2, `a lone token is larger than crowded ones (${moved.Ann.size} vs ${moved.Bob.size})`);
  assert.ok(Math.hypot(moved.Bob.x - moved.Cid.x, moved.Bob.y - moved.Cid.y) > after.width / 5);
  assert.equal(await page.locator('svg#board').getAttribute('aria-label'), `Board of 100 cells: Ann on ${ann}, Bob on 1, Cid on 1`);
  assert.deepEqual(errors, []);
});

test('a shield held is shown on the player and on the board after the page is reloaded', async () => {
  // Every cell a first roll reaches holds a shield: Ann's first roll gives her one.
  const cell = [1, 2, 3, 4, 5, 6].map((at) => ({ at, effect: 'shield' }));
  const board = { size: 30, snake: [{ head: 28, tail: 10 }], ladder: [], cell };
  const { page, context, errors } = await roomOnOneDevice(['Ann', 'Bob'], { board, seed: 3 });
  await rollOnce(page);
  const shieldBadges = () => page.$$eval('#players .player', (nodes) => nodes.map((n) => n.querySelectorAll('.badge-shield').length));
  assert.deepEqual(await shieldBadges(), [1, 0], 'Ann holds a shield');
  const onBoard = () => page.$$eval('.token.shielded', (nodes) => nodes.map((t) => t.getAttribute('data-player')));
  assert.deepEqual(await onBoard(), ['Ann'], 'her token on the board is marked');
  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll('#players .player .badge-you').length === 2);
  await settled(page);
  assert.deepEqual(await shieldBadges(), [1, 0], 'still held after the reload');
  assert.deepEqual(await onBoard(), ['Ann'], 'and her token still marked');
  assert.deepEqual(errors, []);
  await context.close();
});
