// A static site (issue 27, point 4): `snl web export DIR` writes the pages, assets and engine, and
// `python3 -m http.server` serves them with no snl server anywhere. The game on this device plays
// on the party board, the editor checks a broken board file with the engine in the page (the very
// problems `snl board validate` lists), and the online parts say they need a server.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { launch, openPage, playHere, playToEnd, root, settled } from './support.mjs';

const bin = process.env.SNL_BIN ?? path.join(root, 'target', 'release', 'snl');
/** @type {import('playwright-core').Browser} */
let browser;
/** @type {string} */
let dir;
/** @type {import('node:child_process').ChildProcess} */
let python;
/** @type {string} */
let url;
before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'snl-export-'));
  const said = execFileSync(bin, ['web', 'export', path.join(dir, 'site')], { encoding: 'utf8' });
  assert.match(said, /^wrote \d+ files into /);
  python = spawn('python3', ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1', '--directory', path.join(dir, 'site')], { stdio: ['ignore', 'pipe', 'ignore'] });
  const lines = createInterface({ input: /** @type {import('node:stream').Readable} */ (python.stdout) });
  const first = String(await new Promise((resolve) => lines.once('line', resolve)));
  const port = /port (\d+)/.exec(first)?.[1];
  assert.ok(port, first);
  url = `http://127.0.0.1:${port}`;
  browser = await launch();
});
after(async () => {
  await browser?.close();
  python?.kill();
  rmSync(dir, { recursive: true, force: true });
});

/** Problems of each kind: a key that is not a board's, a ladder off the board, a snake going up. */
const BROKEN = 'size = 30\ncolour = "red"\n[[ladder]]\nfoot = 3\ntop = 31\n[[snake]]\nhead = 5\ntail = 9\n';

test('the exported site plays a game on this device on the party board, with no server', async () => {
  const { page, errors } = await openPage(browser);
  await page.goto(url);
  await page.waitForSelector('body[data-offline="true"]');
  assert.match((await page.locator('#rooms').textContent()) ?? '', /Online rooms need the snl server/);
  await playHere(page, url, { seed: 9, board: 'party' });
  assert.equal(await page.locator('[data-cell]').count(), 101);
  assert.ok(await page.locator('#legend li').count() > 0, 'the party board\'s legend is shown');
  await playToEnd(page);
  await settled(page);
  assert.match((await page.locator('#winner-title').textContent()) ?? '', /^(Ann|Bob|Robo) wins!$/);
  // Watched again, from the device's keeping.
  await page.getByRole('button', { name: 'Watch again' }).click();
  await page.waitForSelector('#winner:not([hidden])');
  assert.deepEqual(errors.filter((e) => !/WebSocket|404/.test(e)), []);
});

test('the exported editor checks a broken board file as snl board validate does, and analyses a board', async () => {
  const { page, errors } = await openPage(browser);
  await page.goto(`${url}/editor`);
  // The live check and the exact analysis come from the engine in the page.
  await page.waitForFunction(() => document.body.dataset.checked !== 'false' && document.body.dataset.checked !== undefined);
  await page.waitForSelector('#analysis:not([hidden])');
  assert.match((await page.locator('#expected').textContent()) ?? '', /\d/);
  const file = path.join(dir, 'broken.toml');
  writeFileSync(file, BROKEN);
  let validate;
  try {
    execFileSync(bin, ['board', 'validate', file, '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    assert.fail('the board is broken');
  } catch (e) {
    validate = JSON.parse(/** @type {any} */ (e).stdout);
  }
  await page.locator('#board-file').setInputFiles(file);
  await page.waitForFunction(() => (document.getElementById('verdict')?.textContent ?? '').includes('not a valid board file'));
  const shown = await page.$$eval('#problems li', (nodes) => nodes.map((n) => n.textContent ?? ''));
  assert.ok(validate.problems.length >= 3, JSON.stringify(validate));
  assert.deepEqual(shown, validate.problems);
  assert.deepEqual(errors, []);
});
