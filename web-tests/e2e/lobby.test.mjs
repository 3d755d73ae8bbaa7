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
  await page.getByRole('link', { name: `Join room ${room.room}` }).waitFor();

  assert.equal(await page.evaluate(() => /** @type {any} */ (window).sameDocument), true, 'no reload');
  assert.deepEqual(listRequests, [], 'the room list is never fetched: the stream tells it');
  assert.deepEqual(sockets, ['/api/lobby/ws']);
  assert.deepEqual(errors, []);
});
