// The room page among people: chat between two players (and a spectator who reads it), each
// player's presence badge going from online to away when their page closes, and the invite button
// that copies the room's address; the achievements a game earned, shown at its end, and the chat
// said during a game, shown where it was said when the game is replayed.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { annAndRobo, launch, openPage, playToEnd, post, settled, startServer } from './support.mjs';

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
 * A room of two people, Ann and Bob, each seated from an invitation link in a browser context
 * of their own, and Eve watching in a third.
 */
async function twoPlayersAndASpectator() {
  const room = await post(`${server.url}/api/rooms`, { board: 'kids', seats: [{ kind: 'human' }, { kind: 'human' }], seed: 3 });
  const ann = await openPage(browser);
  const bob = await openPage(browser);
  const eve = await openPage(browser);
  for (const [i, [p, name]] of /** @type {const} */ ([[ann, 'Ann'], [bob, 'Bob']]).entries()) {
    const { token } = await post(`${server.url}/api/rooms/${room.room}/seats/${i}`, { name });
    await p.page.goto(`${server.url}/room/${room.room}#token=${token}`);
    await p.page.waitForSelector(`.player[data-seat="${i}"] .badge-you`);
  }
  await eve.page.goto(`${server.url}/room/${room.room}`);
  for (const p of [ann, bob, eve]) await p.page.waitForSelector('[data-player="Bob"]');
  return { room: /** @type {string} */ (room.room), ann, bob, eve };
}

/**
 * The lines of a page's chat list.
 * @param {import('playwright-core').Page} page
 */
const chatLines = (page) => page.locator('#chat > li').allTextContents();

test('a chat line typed by one player shows, with their name, to the other player and to a spectator', async () => {
  const { ann, bob, eve } = await twoPlayersAndASpectator();
  // A spectator reads the chat but has no form to write in it.
  assert.equal(await eve.page.locator('#chat-form').isHidden(), true, 'a spectator cannot chat');

  await ann.page.getByLabel('Message').fill('Good luck, Bob!');
  await ann.page.getByRole('button', { name: 'Send' }).click();
  for (const p of [ann, bob, eve]) await p.page.locator('#chat > li', { hasText: 'Good luck, Bob!' }).waitFor();
  for (const p of [ann, bob, eve]) assert.deepEqual(await chatLines(p.page), ['Ann: Good luck, Bob!'], 'every page shows the line once, with the sender');
  assert.equal(await bob.page.locator('#chat > li > strong').textContent(), 'Ann: ', 'the sender is named apart from the text');
  assert.equal(await ann.page.getByLabel('Message').inputValue(), '', 'the sent line leaves the box');

  // Bob answers with Enter in the box.
  await bob.page.getByLabel('Message').fill('Thanks, Ann');
  await bob.page.getByLabel('Message').press('Enter');
  for (const p of [ann, bob, eve]) await p.page.locator('#chat > li', { hasText: 'Thanks, Ann' }).waitFor();
  for (const p of [ann, bob, eve]) assert.deepEqual(await chatLines(p.page), ['Ann: Good luck, Bob!', 'Bob: Thanks, Ann'], 'in the order they were said');
  for (const p of [ann, bob, eve]) {
    assert.deepEqual(p.errors, []);
    await p.context.close();
  }
});

test('each player is shown present to the other, and away once their page closes', async () => {
  const { room, ann, bob, eve } = await twoPlayersAndASpectator();
  const badge = (/** @type {import('playwright-core').Page} */ page, /** @type {number} */ seat) => page.locator(`.player[data-seat="${seat}"] .badge:is(.badge-on, .badge-away)`);
  for (const [p, other] of /** @type {const} */ ([[ann, 1], [bob, 0], [eve, 0], [eve, 1]])) {
    await p.page.locator(`.player[data-seat="${other}"] .badge-on`).waitFor();
    assert.equal(await badge(p.page, other).textContent(), 'online');
  }

  await ann.context.close();
  for (const p of [bob, eve]) {
    await p.page.locator('.player[data-seat="0"] .badge-away').waitFor();
    assert.deepEqual(await badge(p.page, 0).allTextContents(), ['away'], 'Ann is away, and only away');
    assert.deepEqual(await badge(p.page, 1).allTextContents(), ['online'], 'Bob is still here');
  }
  const state = await (await fetch(`${server.url}/api/rooms/${room}`)).json();
  assert.deepEqual(state.seats.map((/** @type {any} */ s) => s.online), [false, true], 'as the server tells it');
  for (const p of [ann, bob, eve]) assert.deepEqual(p.errors, []);
  await bob.context.close();
  await eve.context.close();
});

test('the invite button copies the room address (never the seat token) and says so', async () => {
  const room = (await post(`${server.url}/api/rooms`, { seats: [{ kind: 'human' }, { kind: 'human' }] })).room;
  const { token } = await post(`${server.url}/api/rooms/${room}/seats/0`, { name: 'Ann' });
  const ann = await openPage(browser);
  await ann.page.goto(`${server.url}/room/${room}#token=${token}`);
  await ann.page.waitForSelector('.player[data-seat="0"] .badge-you');
  await ann.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await ann.page.evaluate(() => navigator.clipboard.writeText('nothing yet'));
  await ann.page.getByRole('button', { name: 'Copy invite link' }).click();
  await ann.page.getByRole('button', { name: 'Link copied!' }).waitFor();
  const copied = await ann.page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied, `${server.url}/room/${room}`);
  assert.ok(!copied.includes(token), 'the link does not give away Ann\'s seat');
  assert.deepEqual(ann.errors, []);
  await ann.context.close();
});

test('at the end of a room game each player sees the achievements it earned them: the winner a first win', async () => {
  const { room, page, context, errors } = await annAndRobo(server, browser, { board: 'kids', seed: 5 });
  const spectator = await openPage(browser);
  await spectator.page.goto(`${server.url}/room/${room}`);
  await spectator.page.waitForSelector('[data-player="Robo"]');
  await playToEnd(page);
  await settled(page);
  const state = await (await fetch(`${server.url}/api/rooms/${room}`)).json();
  const winner = state.ranking[0];
  /** @type {{seat: number, achievement: string, text: string}[]} */
  const earned = state.awards;
  /** @param {number} seat */
  const name = (seat) => state.seats.find((/** @type {{seat: number}} */ s) => s.seat === seat).name;
  assert.ok(earned.some((a) => name(a.seat) === winner && a.achievement === 'first_win' && a.text === 'First win: won a game'), JSON.stringify(earned));
  // The words are the server's, line for line, on the player's page and on a spectator's; and
  // after a reload too (from the room's state).
  const want = earned.map((a) => `${name(a.seat)} — ${a.text}`);
  const shown = async (/** @type {import('playwright-core').Page} */ p) => {
    await p.waitForSelector('#winner:not([hidden]) #earned-card:not([hidden])');
    return p.locator('#earned > li').allTextContents();
  };
  for (const p of [page, spectator.page]) assert.deepEqual(await shown(p), want);
  assert.equal(await page.locator(`#earned > li[data-earner="${winner}"][data-key="first_win"]`).count(), 1);
  await page.reload();
  assert.deepEqual(await shown(page), want, 'a reload shows them again');
  assert.deepEqual([...errors, ...spectator.errors], []);
  await context.close();
  await spectator.context.close();
});

test('the chat said during a room game is shown in its web replay, where it was said', async () => {
  const { room, page, context, errors } = await annAndRobo(server, browser, { board: 'kids', seed: 8 });
  /** Ann says `text` and sees it come back. @param {string} text */
  const say = async (text) => {
    await page.getByLabel('Message').fill(text);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('#chat > li', { hasText: text }).waitFor();
  };
  await say('Good luck, Robo');
  // A few turns, then a line mid-game, then the rest of the game.
  for (let i = 0; i < 3; i++) {
    const mark = await page.evaluate(() => document.body.dataset.awaited);
    await page.waitForFunction(() => !(/** @type {HTMLButtonElement} */ (document.getElementById('roll'))).disabled);
    await page.getByRole('button', { name: 'Roll', exact: true }).click();
    await page.waitForFunction((before) => document.body.dataset.awaited !== before, mark);
  }
  await settled(page);
  await say('Halfway there');
  await playToEnd(page);
  await settled(page);
  const state = await (await fetch(`${server.url}/api/rooms/${room}`)).json();
  assert.equal(state.status, 'over');
  const list = await (await fetch(`${server.url}/api/games`)).json();
  const id = list.games[0].id;
  const game = await (await fetch(`${server.url}/api/games/${id}`)).json();
  assert.deepEqual(game.chat.map((/** @type {{player: string, text: string}} */ c) => `${c.player}: ${c.text}`), ['Ann: Good luck, Robo', 'Ann: Halfway there']);
  const [first, middle] = game.chat;
  assert.equal(first.at, 0, 'said before the first roll');
  assert.ok(middle.at > 0 && middle.at < game.events.length, `said mid-game, after event ${middle.at}`);

  await page.goto(`${server.url}/replay/${id}`);
  await page.waitForSelector('body[data-index="0"]');
  const log = () => page.locator('#log > li').allTextContents();
  assert.deepEqual(await log(), ['Ann: Good luck, Robo'], 'the line said before any roll, at the start');
  await page.locator('#seek').fill(String(middle.at - 1));
  await page.waitForSelector(`body[data-index="${middle.at - 1}"]`);
  assert.ok(!(await log()).includes('Ann: Halfway there'), 'not yet said one event before');
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await page.waitForSelector(`body[data-index="${middle.at}"]`);
  const lines = await log();
  assert.equal(lines.at(-1), 'Ann: Halfway there', 'said right after the event it followed');
  const told = game.events.slice(0, middle.at).map((/** @type {{text?: string}} */ e) => e.text).filter(Boolean);
  assert.equal(lines.at(-2), told.at(-1), 'after the sentence of the event it followed');
  // The log shows the last 40 events, with the chat said among them.
  const among = game.chat.filter((/** @type {{at: number}} */ c) => c.at >= Math.max(0, middle.at - 40) && c.at <= middle.at);
  assert.equal(await page.locator('#log > li.chat-line').count(), among.length);
  assert.deepEqual(errors, []);
  await context.close();
});
