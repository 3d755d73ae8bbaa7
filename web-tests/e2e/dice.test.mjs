// The dice and the celebration in real Chromium: after a roll the dice on the page show the faces
// the server rolled; they tumble when motion is welcome and simply land under reduced motion (where
// moves are shortened to quick fades); the winner gets confetti either way, briefly under reduced
// motion. The game is one roll long: 2d6 on a board of 2 cells where overshooting wins.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, playToEnd, post, settled, startServer } from './support.mjs';

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
 * @typedef {{cls: string, ms: number, end: number, onBoard: boolean}} Run
 * One Web Animation the page started: its element's class, its duration, when it ends (delay
 * included) and whether it runs over the board.
 */

/**
 * Two people on one page, in a room whose first roll ends the game; the page records every
 * animation it starts, and the test every event the server sends it.
 * @param {'reduce' | 'no-preference'} reducedMotion
 */
async function oneRollGame(reducedMotion) {
  const made = await post(`${server.url}/api/rooms`, {
    board: { size: 2, snake: [], ladder: [] },
    rules: { dice: '2d6', overshoot: 'win' },
    seats: [{ kind: 'human' }, { kind: 'human' }],
    seed: 4,
  });
  const held = [
    (await post(`${server.url}/api/rooms/${made.room}/seats/0`, { name: 'Ann' })).token,
    (await post(`${server.url}/api/rooms/${made.room}/seats/1`, { name: 'Bob' })).token,
  ];
  const { context, page, errors } = await openPage(browser, { reducedMotion });
  await context.addInitScript(([key, list]) => {
    try { localStorage.setItem(key, list); } catch { /* a page of no origin */ }
    /** @type {Run[]} */
    const runs = [];
    Object.assign(window, { runs });
    const real = Element.prototype.animate;
    Element.prototype.animate = function (frames, options) {
      const timing = typeof options === 'number' ? { duration: options } : options ?? {};
      const ms = Number(timing.duration ?? 0);
      runs.push({ cls: this.getAttribute('class') ?? '', ms, end: ms + Number(timing.delay ?? 0), onBoard: Boolean(this.closest('.board-stack')) });
      return real.call(this, frames, options);
    };
  }, [`snl.room.${made.room}`, JSON.stringify(held)]);
  /** Events as the server sent them, by sequence number (each seat's connection gets them all). @type {Map<number, Record<string, any>>} */
  const events = new Map();
  page.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => {
    const frame = JSON.parse(String(payload));
    if (frame.type === 'event') events.set(frame.seq, frame.event);
  }));
  await page.goto(`${server.url}/room/${made.room}`);
  await page.waitForFunction(() => document.querySelectorAll('#players .player .badge-you').length === 2);
  await settled(page);
  return { page, errors, events };
}

/**
 * Plays the game (one roll) to its end; resolves with the dice the server rolled, the dice the
 * page shows, and the animations the page ran meanwhile.
 * @param {import('playwright-core').Page} page
 * @param {Map<number, Record<string, any>>} seen
 */
async function rollToEnd(page, seen) {
  // @ts-expect-error the recorder above
  await page.evaluate(() => window.runs.splice(0));
  assert.equal(await playToEnd(page), 1, 'the first roll ends the game');
  await settled(page);
  const events = [...seen.values()];
  const rolled = events.filter((e) => e.type === 'dice_rolled').map((e) => e.dice);
  assert.equal(rolled.length, 1);
  assert.equal(rolled[0].length, 2, 'two dice');
  assert.deepEqual(events.find((e) => e.type === 'game_ended')?.ranking, ['Ann', 'Bob']);
  assert.equal(await page.locator('#winner-title').textContent(), 'Ann wins!');
  const shown = await page.$$eval('#dice .die', (dice) => dice.map((d) => ({ value: Number(d.getAttribute('data-value')), pips: d.querySelectorAll('.pip.on').length })));
  /** @type {Run[]} */
  // @ts-expect-error the recorder above
  const runs = await page.evaluate(() => window.runs);
  return {
    rolled: /** @type {number[]} */ (rolled[0]),
    shown,
    tumbles: runs.filter((r) => /\bdie\b/.test(r.cls)),
    moves: runs.filter((r) => /\btoken\b/.test(r.cls)),
    confetti: runs.filter((r) => /\bconfetti\b/.test(r.cls)),
  };
}

/** The longest a move or the confetti may take under reduced motion (plan.js: fades of 120–150 ms, a 400 ms celebration). */
const REDUCED = { move: 150, confetti: 400 };

test('the dice tumble and land on the faces the server rolled; the winner gets confetti', async () => {
  const { page, errors, events } = await oneRollGame('no-preference');
  const { rolled, shown, tumbles, moves, confetti } = await rollToEnd(page, events);
  assert.deepEqual(shown, rolled.map((d) => ({ value: d, pips: d })), `each die shows its rolled face in pips (rolled ${rolled})`);
  assert.equal(tumbles.length, 2, 'each die tumbles');
  assert.ok(tumbles.every((r) => r.ms > 150), `a tumble takes a while: ${tumbles.map((r) => r.ms)}`);
  const move = Math.max(...moves.map((r) => r.ms));
  assert.ok(move > REDUCED.move, `the token walks cell by cell: ${move} ms`);
  assert.equal(confetti.length, 70, 'one shower of confetti');
  assert.ok(confetti.every((r) => r.onBoard), 'over the board');
  const end = Math.max(...confetti.map((r) => r.end));
  assert.ok(end >= 2000, `a celebration of seconds: ${end} ms`);
  assert.deepEqual(errors, []);
});

test('under reduced motion the dice land at once, the move is a quick fade, and the confetti is brief', async () => {
  const { page, errors, events } = await oneRollGame('reduce');
  const { rolled, shown, tumbles, moves, confetti } = await rollToEnd(page, events);
  assert.deepEqual(shown, rolled.map((d) => ({ value: d, pips: d })), `each die shows its rolled face in pips (rolled ${rolled})`);
  assert.deepEqual(tumbles, [], 'no tumble');
  const move = Math.max(...moves.map((r) => r.ms));
  assert.ok(move > 0 && move <= REDUCED.move, `the move is a quick fade: ${move} ms`);
  assert.equal(confetti.length, 70, 'one shower of confetti');
  assert.ok(confetti.every((r) => r.onBoard), 'over the board');
  const end = Math.max(...confetti.map((r) => r.end));
  assert.ok(end > 0 && end <= REDUCED.confetti, `a brief celebration: ${end} ms`);
  assert.deepEqual(errors, []);
});
