// The editor and replay pages for everyone: no serious or critical axe-core violation, and the
// replay steps by keyboard alone.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { launch, openPage, post, startServer } from './support.mjs';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

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
 * The serious and critical axe violations of the page as it is.
 * @param {import('playwright-core').Page} page
 */
async function axe(page) {
  // Evaluated by the test driver, so the pages' content security policy does not stop it.
  await page.evaluate(axeSource);
  const found = await page.evaluate(async () => {
    // @ts-expect-error axe is the script just evaluated
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((/** @type {any} */ v) => ({ id: v.id, impact: v.impact, help: v.help, where: v.nodes.slice(0, 3).map((/** @type {any} */ n) => n.target.join(' ')) }));
  });
  return found.filter((/** @type {{impact: string}} */ v) => v.impact === 'serious' || v.impact === 'critical');
}

test('the editor and a replay have no serious or critical axe violation; a replay steps by keyboard', async () => {
  const { page, errors } = await openPage(browser);
  await page.goto(`${server.url}/editor`);
  await page.waitForFunction(() => (document.body.dataset.checked ?? 'false') !== 'false');
  assert.deepEqual(await axe(page), []);

  const made = await post(`${server.url}/api/rooms`, { seats: [{ kind: 'easy', name: 'Eve' }, { kind: 'greedy', name: 'Gil' }], seed: 30 });
  await page.goto(`${server.url}/room/${made.room}`);
  await page.waitForSelector('#winner:not([hidden])');
  const list = await (await fetch(`${server.url}/api/games`)).json();
  const id = list.games[0].id;
  await page.goto(`${server.url}/replay`);
  await page.waitForSelector('body[data-ready="true"]');
  assert.deepEqual(await axe(page), []);
  await page.goto(`${server.url}/replay/${id}`);
  await page.waitForSelector('body[data-index="0"]');
  assert.deepEqual(await axe(page), []);
  await page.keyboard.press('ArrowRight');
  await page.waitForSelector('body[data-index="1"]');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
  await page.waitForSelector('body[data-index="1"]');
  assert.deepEqual(errors, []);
});
