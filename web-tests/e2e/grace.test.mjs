// A fair clock for a dropped player (issue 30, point 3), on the room page: when a person's page
// goes, everyone sees their seat kept, counting down, and the turn clock paused; back within
// the grace, the seat is theirs again at once ("Ann is back"); after it the computer plays the
// seat until its person takes it back with one click ("Take my seat back").
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, post, settled, startServer } from './support.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {Awaited<ReturnType<typeof startServer>>} */
let quick;
/** @type {import('playwright-core').Browser} */
let browser;
before(async () => {
  server = await startServer();
  // A grace of one second: the computer takes the seat while the test looks.
  quick = await startServer(['--grace', '1']);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  server?.stop();
  quick?.stop();
});

/**
 * A room of Ann and Bob, people with a turn clock of five minutes, each seated on a page of
 * their own; Ann rolls first.
 * @param {{url: string}} at the server
 */
async function annAndBob(at) {
  const made = await post(`${at.url}/api/rooms`, { seats: [{ kind: 'human' }, { kind: 'human' }], turn_time: 300, seed: 4 });
  /** @type {Record<string, {page: import('playwright-core').Page, context: import('playwright-core').BrowserContext, url: string}>} */
  const pages = {};
  for (const [seat, name] of [[0, 'Ann'], [1, 'Bob']]) {
    const { token } = await post(`${at.url}/api/rooms/${made.room}/seats/${seat}`, { name });
    const { page, context } = await openPage(browser);
    const url = `${at.url}/room/${made.room}#token=${token}`;
    await page.goto(url);
    await page.waitForSelector(`.player[data-seat="${seat}"] .badge-you`);
    await settled(page);
    pages[name] = { page, context, url };
  }
  return pages;
}

/**
 * Ann's page goes (its socket closes); a new page of hers comes back with her seat's token.
 * @param {{page: import('playwright-core').Page, context: import('playwright-core').BrowserContext, url: string}} ann
 */
async function dropAndReturn(ann) {
  await ann.context.close();
  return async () => {
    const back = await openPage(browser);
    await back.page.goto(ann.url);
    await back.page.waitForSelector('.player[data-seat="0"] .badge-you');
    return back.page;
  };
}

const badge = (/** @type {import('playwright-core').Page} */ page) => page.locator('.player[data-seat="0"] .badge-grace');

test('a dropped seat is kept for its person, counting down with the turn clock paused, until they are back', async () => {
  const { Ann: ann, Bob: bob } = await annAndBob(server);
  assert.match(await bob.page.locator('#timer').textContent() ?? '', /^[45]:\d\d$/, 'Ann\'s turn is timed');
  const comeBack = await dropAndReturn(ann);

  // Bob sees Ann's seat kept for the default two minutes, counting down.
  await badge(bob.page).waitFor();
  const first = await badge(bob.page).textContent() ?? '';
  assert.match(first, /^seat kept [12]:\d\d$/, first);
  await bob.page.waitForFunction((before) => {
    const text = document.querySelector('.player[data-seat="0"] .badge-grace')?.textContent;
    return text !== undefined && text !== before;
  }, first);
  assert.ok((await badge(bob.page).textContent() ?? '') < first, 'it counts down');
  // Her turn clock is paused, not running out.
  await bob.page.locator('#timer', { hasText: 'paused' }).waitFor();
  const held = await bob.page.locator('#timer').textContent();
  assert.match(held ?? '', /^[45]:\d\d paused$/, held ?? '');
  assert.ok((await bob.page.locator('#log').textContent() ?? '').includes('Ann dropped: the seat is kept for 2:00, then the computer plays it'));

  // She comes back: the seat is hers at once, her clock runs on from where it was held.
  const page = await comeBack();
  await bob.page.locator('#log p', { hasText: 'Ann is back' }).waitFor();
  await bob.page.locator('#log p', { hasText: 'Ann took the seat back' }).waitFor();
  await badge(bob.page).waitFor({ state: 'detached' });
  await bob.page.waitForFunction(() => /^[45]:\d\d$/.test(document.getElementById('timer')?.textContent ?? ''));
  await page.waitForFunction(() => !(/** @type {HTMLButtonElement} */ (document.getElementById('roll'))).disabled);
  await page.context().close();
  await bob.context.close();
});

test('after the grace the computer plays the seat until its person takes it back with one click', async () => {
  const { Ann: ann, Bob: bob } = await annAndBob(quick);
  const comeBack = await dropAndReturn(ann);
  // The computer plays Ann's turn: Bob is awaited.
  await bob.page.locator('.player[data-seat="0"] .badge-auto', { hasText: 'computer plays' }).waitFor();
  await bob.page.waitForFunction(() => !(/** @type {HTMLButtonElement} */ (document.getElementById('roll'))).disabled);
  assert.ok((await bob.page.locator('#log').textContent() ?? '').includes('The computer plays for Ann until they take the seat back'));

  const page = await comeBack();
  const takeBack = page.getByRole('button', { name: 'Take my seat back' });
  await takeBack.click();
  await bob.page.locator('#log p', { hasText: 'Ann took the seat back' }).waitFor();
  await page.locator('.player[data-seat="0"] .switch').waitFor();
  assert.equal(await page.locator('.player[data-seat="0"] .switch input').isChecked(), false, 'her seat is hers: autopilot off');
  assert.equal(await bob.page.locator('.player[data-seat="0"] .badge-auto').count(), 0);
  await page.context().close();
  await bob.context.close();
});
