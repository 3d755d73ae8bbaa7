// The lobby page follows the lobby stream: a room opened by another client, and a seat taken in
// it, show without a reload and without polling the room list.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, post, startServer } from './support.mjs';

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

test('the lobby shows a room another client opens, and its seat taken, without reload or polling', async () => {
  const { page, errors } = await openPage(browser);
  /** @type {string[]} */
  const listRequests = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/rooms') listRequests.push(request.method());
  });
  /** @type {string[]} */
  const sockets = [];
  page.on('websocket', (ws) => sockets.push(new URL(ws.url()).pathname));
  await page.goto(`${server.url}/`);
  // The stream's first frame (no rooms yet) is drawn.
  await page.waitForSelector('#rooms li.empty');
  await page.evaluate(() => { /** @type {any} */ (window).sameDocument = true; });

  const room = await post(`${server.url}/api/rooms`, { seats: [{ kind: 'human' }, { kind: 'human' }] });
  const row = page.locator(`#rooms li[data-room="${room.room}"]`);
  await row.getByText('2 open seats').waitFor();
  assert.equal(await page.locator('#rooms li.empty').count(), 0);

  await post(`${server.url}/api/rooms/${room.room}/seats/0`, { name: 'Ann' });
  await row.getByText('1 open seat').waitFor();
  assert.match(await row.innerText(), /Ann, open/);
  const join = page.getByRole('link', { name: `Join room ${room.room}` });
  await join.focus();

  // Another room opens and changes: the row in focus stays, focused.
  const other = await post(`${server.url}/api/rooms`, { seats: [{ kind: 'human' }, { kind: 'human' }] });
  await post(`${server.url}/api/rooms/${other.room}/seats/1`, { name: 'Bob' });
  await page.locator(`#rooms li[data-room="${other.room}"]`).getByText('1 open seat').waitFor();
  assert.equal(await join.evaluate((a) => a === document.activeElement), true, 'the Join link keeps the focus');

  assert.equal(await page.evaluate(() => /** @type {any} */ (window).sameDocument), true, 'no reload');
  assert.deepEqual(listRequests, [], 'the room list is never fetched: the stream tells it');
  assert.deepEqual(sockets, ['/api/lobby/ws']);
  assert.deepEqual(errors, []);
});

test('a dropped lobby stream is dialled again, and the list is fetched only while the stream cannot open', async () => {
  // Dropped once: the page reconnects and goes on without polling.
  {
    const { page, errors } = await openPage(browser);
    let dials = 0;
    /** @type {() => void} */
    let dialledAgain = () => {};
    const again = new Promise((resolve) => { dialledAgain = () => resolve(undefined); });
    await page.routeWebSocket('**/api/lobby/ws', (ws) => {
      const server = ws.connectToServer();
      if (++dials === 1) server.onMessage((message) => { ws.send(message); ws.close({ code: 1013, reason: 'fell behind' }); });
      else dialledAgain();
    });
    /** @type {string[]} */
    const listRequests = [];
    page.on('request', (request) => { if (new URL(request.url()).pathname === '/api/rooms') listRequests.push(request.method()); });
    await page.goto(`${server.url}/`);
    // Wait for the page to dial again after the drop (the list's "Looking…" placeholder is there
    // before any frame, so it cannot tell that the first stream was read and dropped).
    await again;
    const room = await post(`${server.url}/api/rooms`, { seats: [{ kind: 'human' }, { kind: 'hard' }] });
    await page.locator(`#rooms li[data-room="${room.room}"]`).getByText('1 open seat').waitFor();
    assert.ok(dials >= 2, `dialled ${dials} times`);
    assert.deepEqual(listRequests, []);
    assert.deepEqual(errors.filter((e) => !/WebSocket/.test(e)), []);
    await page.context().close();
  }
  // Never opens (a proxy that refuses WebSockets): the slow fallback lists the rooms.
  {
    const { page } = await openPage(browser);
    await page.routeWebSocket('**/api/lobby/ws', (ws) => ws.close({ code: 1011 }));
    const room = await post(`${server.url}/api/rooms`, { seats: [{ kind: 'human' }, { kind: 'easy' }] });
    const fetched = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/rooms');
    await page.goto(`${server.url}/`);
    await fetched;
    await page.locator(`#rooms li[data-room="${room.room}"]`).waitFor();
    await page.context().close();
  }
});

const BOARD_FILE = `# a small board for the lobby form
size = 30
[[snake]]
head = 27
tail = 5
[[ladder]]
foot = 4
top = 18
[[ladder]]
foot = 9
top = 21
`;

test('a room made with the lobby form has the board file, rules, turn timer and seats chosen in it', async () => {
  const { page, errors } = await openPage(browser);
  // The form takes typing before its script runs (boot.js imports it after the first paint): hold
  // the script back until the name is typed, and the name must still be there once it has run.
  /** @type {() => void} */
  let typed = () => {};
  const nameTyped = new Promise((resolve) => { typed = () => resolve(undefined); });
  await page.route('**/lobby.js', async (route) => {
    await nameTyped;
    await route.continue();
  });
  await page.goto(`${server.url}/`, { waitUntil: 'domcontentloaded' });
  await page.getByLabel('Your name').fill('Ann');
  typed();
  await page.waitForSelector('html[data-ready]', { state: 'attached' });
  assert.equal(await page.getByLabel('Your name').inputValue(), 'Ann', 'the name typed early is kept');
  await page.getByLabel('Board', { exact: true }).selectOption('file');
  await page.getByLabel('Board file (.toml or .json)').setInputFiles({ name: 'small.toml', mimeType: 'text/plain', buffer: Buffer.from(BOARD_FILE) });
  await page.locator('#file-note', { hasText: 'small.toml: 30 cells, 1 snake, 2 ladders.' }).waitFor();
  await page.getByLabel('Rules', { exact: true }).selectOption('bonus-six');
  await page.getByText('More rules').click();
  await page.getByLabel('Past the end').selectOption('bounce');
  await page.getByLabel('Turn timer').selectOption('30');
  // Seat 1 is Ann's; seat 2 a person's, left open for whoever the link reaches; seat 3 a computer.
  await page.getByLabel('Seat 2 kind').selectOption('human');
  await page.getByRole('button', { name: 'Add a seat' }).click();
  await page.getByLabel('Seat 3 kind').selectOption('greedy');
  await page.locator('#seats > li:nth-child(3) .seat-name').fill('Robo');
  await page.getByRole('button', { name: 'Create the room' }).click();
  await page.waitForURL(/\/room\/[^/#]+$/);
  const room = new URL(page.url()).pathname.split('/')[2];
  await page.waitForSelector('.player[data-seat="0"] .badge-you');

  const state = await (await fetch(`${server.url}/api/rooms/${room}`)).json();
  assert.deepEqual(state.board, { size: 30, snake: [{ head: 27, tail: 5 }], ladder: [{ foot: 4, top: 18 }, { foot: 9, top: 21 }] }, 'the board of the file');
  assert.equal(state.rules.bonus, 'top-face', 'bonus six: a six rolls again');
  assert.equal(state.rules.overshoot, 'bounce', 'the option chosen under More rules');
  assert.equal(state.turn_time, 30);
  assert.deepEqual(state.seats.map((/** @type {any} */ s) => [s.kind, s.name, s.open]), [['human', 'Ann', false], ['human', null, true], ['greedy', 'Robo', false]]);
  assert.equal(state.status, 'open', 'waiting for the open seat');

  // The room's page draws that board and offers the open seat.
  assert.equal(await page.locator('#board [data-cell="30"]').count(), 1);
  assert.equal(await page.locator('#board [data-cell="31"]').count(), 0);
  await page.getByRole('button', { name: 'Take seat 2' }).waitFor();
  assert.match(await page.locator('#status').textContent() ?? '', /^Waiting for 1 more player/);
  assert.ok(await page.locator('#timer').isHidden(), 'no clock runs before the game starts');

  // Once the open seat is taken the game starts, and Ann's turn runs on the 30-second clock.
  await post(`${server.url}/api/rooms/${room}/seats/1`, { name: 'Bob' });
  await page.waitForSelector('#timer:not([hidden])');
  const label = await page.locator('#timer').getAttribute('aria-label');
  const match = /^(\d+) seconds left for Ann$/.exec(label ?? '');
  assert.ok(match, `the timer says ${label}`);
  assert.ok(Number(match[1]) <= 30, `a 30-second turn: ${label}`);
  assert.match(await page.locator('#timer').textContent() ?? '', /^0:[0-3]\d$/);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('the lobby form offers the party board, a race of rounds, a game clock and a dice seed', async () => {
  const { page, errors } = await openPage(browser);
  await page.goto(`${server.url}/`);
  await page.waitForSelector('html[data-ready]', { state: 'attached' });
  await page.getByLabel('Your name').fill('Ann');
  await page.getByLabel('Board', { exact: true }).selectOption('party');
  await page.getByText('More rules').click();
  await page.getByLabel('Game', { exact: true }).selectOption('race:5');
  await page.getByLabel('Game clock').selectOption('600');
  await page.getByLabel('Dice seed').fill('12abc');
  await page.getByLabel('Seat 2 kind').selectOption('easy');
  await page.getByRole('button', { name: 'Create the room' }).click();
  assert.equal(await page.locator('#create-error').textContent(), "The dice seed must be a whole number of at most 15 digits, not '12abc'.");
  await page.getByLabel('Dice seed').fill('42');
  await page.getByRole('button', { name: 'Create the room' }).click();
  await page.waitForURL(/\/room\/[^/#]+$/);
  const room = new URL(page.url()).pathname.split('/')[2];
  const state = await (await fetch(`${server.url}/api/rooms/${room}`)).json();
  assert.equal(state.board_name, 'party');
  assert.deepEqual(new Set(state.board.cell.map((/** @type {{effect: string}} */ c) => c.effect)), new Set(['skip', 'extra', 'shield', 'wormhole']));
  assert.deepEqual(state.rules.mode, { race: { rounds: 5 } });
  assert.equal(state.game_time, 600);
  // The room's page draws the effects.
  await page.waitForSelector('#board .effects g.fx');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('the lobby’s preview draws the board chosen as the engine makes it: party’s effects, kids’ 50 cells, a random board of the size asked', async () => {
  const { page, errors } = await openPage(browser);
  await page.goto(`${server.url}/`);
  await page.waitForSelector('#preview [data-cell="100"]');
  const board = page.getByLabel('Board', { exact: true });
  await board.selectOption('party');
  await page.waitForSelector('#preview .fx-wormhole');
  for (const effect of ['skip', 'extra', 'shield']) assert.ok(await page.locator(`#preview .fx-${effect}`).count() >= 1, effect);
  await board.selectOption('kids');
  await page.waitForSelector('#preview [data-cell="50"]');
  assert.equal(await page.locator('#preview [data-cell]').count(), 51, '50 cells and the start tray');
  assert.equal(await page.locator('#preview .fx-wormhole').count(), 0);
  await board.selectOption('random');
  await page.getByLabel('Cells').fill('64');
  await page.getByLabel('Cells').dispatchEvent('change');
  await page.waitForSelector('#preview [data-cell="64"]');
  assert.equal(await page.locator('#preview [data-cell]').count(), 65, '64 cells and the start tray');
  assert.deepEqual(errors, []);
  await page.context().close();
});
