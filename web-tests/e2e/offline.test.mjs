// Installable and offline (issue 27, point 3): the web app manifest names the game, its icons, its
// colour and a standalone display; the service worker keeps the pages, assets and engine, so once
// the game was opened it starts with the server gone: the lobby says plainly that online rooms are
// out of reach, and a game on this device is played to its end.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, playHere, playToEnd, settled, startServer } from './support.mjs';

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

test('the manifest makes the game installable: name, icons, theme colour, standalone', async () => {
  const page = await fetch(`${server.url}/`).then((r) => r.text());
  assert.match(page, /<link rel="manifest" href="\/manifest.webmanifest">/);
  assert.match(page, /<meta name="theme-color" content="#0f4c45">/);
  const response = await fetch(`${server.url}/manifest.webmanifest`);
  assert.equal(response.headers.get('content-type'), 'application/manifest+json');
  const manifest = await response.json();
  assert.equal(manifest.display, 'standalone');
  assert.equal(manifest.theme_color, '#0f4c45');
  assert.equal(manifest.start_url, '/');
  const sizes = manifest.icons.map((/** @type {any} */ i) => i.sizes);
  assert.deepEqual(sizes, ['any', '192x192', '512x512']);
  for (const icon of manifest.icons) {
    const got = await fetch(new URL(icon.src, server.url));
    assert.equal(got.status, 200, icon.src);
    assert.equal(got.headers.get('content-type'), icon.type);
  }
});

test('once opened, the game starts with the server stopped and a local game is played to its end', async () => {
  const { page, errors } = await openPage(browser);
  await page.goto(server.url);
  // The worker has kept everything once it is active and controls the page.
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  server.stop();
  await page.reload();
  await page.waitForSelector('body[data-offline="true"]');
  const said = (await page.locator('#rooms').textContent()) ?? '';
  assert.match(said, /Online rooms need the snl server|You are offline/);
  assert.match(said, /“Play here” plays on this device/);
  await playHere(page, page.url(), { seed: 5 });
  await page.reload();
  await page.waitForSelector('[data-player="Robo"]');
  const rolls = await playToEnd(page);
  assert.ok(rolls > 0);
  await settled(page);
  assert.match((await page.locator('#winner-title').textContent()) ?? '', /^(Ann|Bob|Robo) wins!$/);
  // Only the failed attempts to reach the stopped server may be in the console.
  assert.deepEqual(errors.filter((e) => !/ERR_CONNECTION_REFUSED|WebSocket/.test(e)), []);
});
