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
