// Each rule and cell effect on the browser's pages (issue 26's parity table, docs/features.md),
// with the cases of crates/tui/src/parity_tests.rs: the same boards and scripted rolls, played by
// `snl play` into the server's database, then replayed on /replay/ID in Chromium; the page must
// tell every event as `snl replay --plain` tells it, and the case's own sentence among them. A room
// on the same effect board shows skip and extra cells told live as well.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { annAndRobo, launch, logLines, openPage, post, root, startServer } from './support.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {import('playwright-core').Browser} */
let browser;
/** This file's own folder, for its board files. */
let dir = '';
before(async () => {
  server = await startServer();
  browser = await launch();
  dir = mkdtempSync(path.join(tmpdir(), 'snl-cases-'));
});
after(async () => {
  await browser?.close();
  server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const bin = process.env.SNL_BIN ?? path.join(root, 'target', 'release', 'snl');

/** A 30-cell board: ladders 3→8 and 8→15 (a chain), snake 27→5. */
const PLAIN = 'size = 30\nwidth = 6\nladder = [{foot = 3, top = 8}, {foot = 8, top = 15}]\nsnake = [{head = 27, tail = 5}]\n';
/** One cell of each effect: skip 4, extra 6, shield 9 (a snake 13→2 for it to stop), wormhole 11. */
const EFFECTS = 'size = 30\nwidth = 6\nsnake = [{head = 13, tail = 2}]\n'
  + '[[cell]]\nat = 4\neffect = "skip"\n[[cell]]\nat = 6\neffect = "extra"\n'
  + '[[cell]]\nat = 9\neffect = "shield"\n[[cell]]\nat = 11\neffect = "wormhole"\nexits = [20, 25]\n';

/** feature, board, snl play's rule flags, rolls, and the event type the game must have. */
const CASES = [
  ['start first-cell', PLAIN, ['--start', 'first-cell'], '1,1', 'moved'],
  ['dice NdF', PLAIN, ['--dice', '2d6', '--overshoot', 'win'], '1+1,2+2', 'moved'],
  ['overshoot stay', PLAIN, ['--overshoot', 'stay'], '6,1,6,1,6,1,6,1,2,1,5', 'overshoot'],
  ['overshoot bounce', PLAIN, ['--overshoot', 'bounce'], '6,1,6,1,6,1,6,1,2,1,5', 'overshoot'],
  ['overshoot win', PLAIN, ['--overshoot', 'win'], '6,1,6,1,6,1,6,1,2,1,5', 'player_finished'],
  ['jumps chain', PLAIN, ['--jumps', 'chain'], '3,1', 'ladder'],
  ['bonus top-face', PLAIN, ['--bonus', 'top-face'], '6,1,1', 'bonus_roll'],
  ['max-bonus / on-max', PLAIN, ['--bonus', 'top-face', '--max-bonus', '2', '--on-max', 'void'], '6,6,1', 'turn_voided'],
  ['finish all', PLAIN, ['--finish', 'all', '--overshoot', 'win'], '6,1,1,6,1,1,6,1,1,6,1,1,6,6,1,5,1,6,1,6', 'player_finished'],
  ['named rule sets', PLAIN, ['--rules', 'bonus-six'], '6,1,1', 'bonus_roll'],
  ['race end, ranked by position', PLAIN, ['--mode', 'race', '--rounds', '2'], '1,2,1,2', 'game_ended'],
  ['choice may-pass', PLAIN, ['--choice', 'may-pass'], '2,1,6,1', 'moved'],
  ['choice pick-die', PLAIN, ['--choice', 'pick-die'], '1+2,3+4,5+6', 'moved'],
  ['skip played and told', EFFECTS, [], '4,1,1', 'turn_skipped'],
  ['extra played and told', EFFECTS, [], '6,1,1', 'extra_roll'],
  ['shield played and told', EFFECTS, [], '3,1,6,1,4', 'shield_used'],
  ['wormhole played and told', EFFECTS, [], '5,1,6,w2', 'wormhole'],
];

/**
 * The lines `snl replay --plain` tells of game `id`, without the boards it draws.
 * @param {string | number} id
 */
function told(id) {
  const replay = execFileSync(bin, ['replay', '--plain', '--speed', '0', '--db', /** @type {string} */ (server.db), String(id)], { encoding: 'utf8' });
  // The story: from the first sentence to the blank line before the board drawn again at the end.
  const lines = replay.split('\n');
  const story = lines.slice(lines.findIndex((l) => l.startsWith('New game on a board')));
  return story.slice(0, story.indexOf('') === -1 ? story.length : story.indexOf(''));
}

/**
 * Plays a scripted game with `snl play` into the server's database; its number there.
 * @param {string} name the board file's name
 * @param {string} board
 * @param {string[]} flags
 * @param {string} rolls
 * @param {string[]} players
 */
async function recorded(name, board, flags, rolls, players) {
  const file = path.join(dir, `${name}.toml`);
  writeFileSync(file, board);
  // Exit 3 when the scripted rolls run out before the end: the game is kept as it stands.
  const played = spawnSync(bin, ['play', '--db', /** @type {string} */ (server.db), '--fast', '--board', file, ...flags, '--rolls', rolls, ...players.flatMap((p) => ['--player', p])], { stdio: 'ignore' });
  assert.ok(played.status === 0 || played.status === 3, `${name}: snl play exited with ${played.status}`);
  const list = await (await fetch(`${server.url}/api/games`)).json();
  return /** @type {number} */ (list.games[0].id);
}

test('each rule and cell effect replays on the page told as snl replay tells it', async (t) => {
  if (!server.db) return t.skip('the server was started elsewhere (SNL_URL without SNL_DB)');
  const { page, errors } = await openPage(browser);
  for (const [k, [feature, board, flags, rolls, type]] of CASES.entries()) {
    const players = feature === 'finish all' ? ['Ann:easy', 'Bob:easy', 'Cy:easy'] : ['Ann:easy', 'Bob:easy'];
    const id = await recorded(`case-${k}`, board, flags, rolls, players);
    const game = await (await fetch(`${server.url}/api/games/${id}`)).json();
    const events = game.events.map((/** @type {{event: {type: string}}} */ e) => e.event);
    assert.ok(events.some((/** @type {{type: string}} */ e) => e.type === type), `${feature}: the game has a ${type} event`);
    const sentence = game.events.find((/** @type {{event: {type: string}, text?: string}} */ e) => e.event.type === type && e.text)?.text;
    await page.goto(`${server.url}/replay/${id}`);
    await page.waitForSelector('body[data-index="0"]');
    await page.keyboard.press('End');
    await page.waitForSelector(`body[data-index="${events.length}"]`);
    const shown = (await page.$$eval('#log li', (nodes) => nodes.map((n) => n.textContent ?? ''))).join('\n').split('\n');
    assert.deepEqual(shown, told(id).slice(-shown.length), `${feature}: the page tells the game as the terminal does`);
    if (sentence) assert.ok(shown.join('\n').includes(sentence), `${feature}: «${sentence}» is on the page`);
  }
  assert.deepEqual(errors, []);
});

test('a room on a board of skip and extra cells tells its skip and extra cells as they are played', async () => {
  const spec = {
    size: 30, width: 6,
    // Skip and extra cells every few cells, so that the seeded game meets both.
    cell: [2, 7, 12, 17, 22].map((at) => ({ at, effect: 'skip' })).concat([4, 9, 14, 19, 24].map((at) => ({ at, effect: 'extra' }))),
  };
  const made = await post(`${server.url}/api/rooms`, { board: spec, seats: [{ kind: 'easy', name: 'Eve' }, { kind: 'easy', name: 'Gus' }], seed: 3 });
  const { page, errors } = await openPage(browser);
  await page.goto(`${server.url}/room/${made.room}`);
  await page.waitForSelector('#winner:not([hidden])');
  await page.waitForFunction(() => document.body.dataset.idle === 'true');
  const list = await (await fetch(`${server.url}/api/games`)).json();
  const game = await (await fetch(`${server.url}/api/games/${list.games[0].id}`)).json();
  // What came before the page opened is under "Earlier in this game"; what came after, in the log.
  const earlier = await page.$$eval('#earlier-log > p:not(.chat)', (nodes) => nodes.map((n) => n.textContent ?? ''));
  const lines = [...earlier, ...(await logLines(page))].join('\n');
  for (const type of ['turn_skipped', 'extra_roll']) {
    const said = game.events.filter((/** @type {{event: {type: string}, text?: string}} */ e) => e.event.type === type).map((/** @type {{text: string}} */ e) => e.text);
    assert.ok(said.length > 0, `seed 3 plays a ${type}`);
    for (const text of said) assert.ok(lines.includes(text), `«${text}» is in the room's log:\n${lines}`);
  }
  assert.deepEqual(errors, []);
});

test('a person who lets the turn clock run out has the turn played, and the game clock ends the game; the replay tells both', async () => {
  // Ann never rolls: each of her turns runs out after a second and her seat's computer plays it;
  // after three seconds the game clock ends the game with the round.
  const { page, context, errors } = await annAndRobo(server, browser, { board: 'classic', turn_time: 1, game_time: 3, seed: 4 });
  await page.waitForSelector('#winner:not([hidden])');
  await page.waitForFunction(() => document.body.dataset.idle === 'true');
  const list = await (await fetch(`${server.url}/api/games`)).json();
  const game = await (await fetch(`${server.url}/api/games/${list.games[0].id}`)).json();
  const lines = await logLines(page);
  for (const type of ['timed_out', 'time_up']) {
    const said = game.events.filter((/** @type {{event: {type: string}}} */ e) => e.event.type === type).map((/** @type {{text: string}} */ e) => e.text);
    assert.ok(said.length > 0 && said.every(Boolean), `the game has a ${type} told in words`);
    for (const text of said) assert.ok(lines.includes(text), `«${text}» is in the room's log:\n${lines.join('\n')}`);
  }
  // The replay of the game tells them too.
  await page.goto(`${server.url}/replay/${game.id}`);
  await page.waitForSelector('body[data-index="0"]');
  await page.keyboard.press('End');
  await page.waitForSelector(`body[data-index="${game.events.length}"]`);
  const replayed = await page.$$eval('#log li', (nodes) => nodes.map((n) => n.textContent ?? ''));
  for (const type of ['timed_out', 'time_up']) {
    const last = game.events.filter((/** @type {{event: {type: string}}} */ e) => e.event.type === type).at(-1).text;
    assert.ok(replayed.includes(last), `«${last}» is in the replay's log:\n${replayed.join('\n')}`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('the odds panel of a race shows each player’s chance and fewest rolls, as the server works them out', async () => {
  const { room, page, context, errors } = await annAndRobo(server, browser, { board: 'classic', mode: 'race', rounds: 5, seed: 6 });
  const state = await (await fetch(`${server.url}/api/rooms/${room}`)).json();
  await page.waitForSelector(`#odds[data-seq="${state.seq}"]`);
  const odds = await (await fetch(`${server.url}/api/rooms/${room}/odds`)).json();
  const shown = await page.$$eval('#odds li', (nodes) => nodes.map((n) => Number(n.getAttribute('data-win'))));
  assert.deepEqual(shown, odds.seats.map((/** @type {{win: number}} */ s) => s.win));
  const texts = await page.locator('#odds li .num').allTextContents();
  // The chances in the words every front end uses (snl_words::chance), as the server sends them.
    assert.deepEqual(texts, odds.seats.map((/** @type {{chance: string}} */ s) => s.chance));
    for (const text of texts) assert.match(text, /^(\d{1,3}%|<1%|>99%)$/);
  // In a race of 5 rounds on 100 cells nobody can finish: the race is won by position.
  assert.ok(Math.abs(shown[0] + shown[1] - 1) < 1e-9, String(shown));
  assert.match(String(await page.locator('#odds').textContent()), /roll/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a replay shows, at each point, the shield and skip each player carries, a race’s line and the chances from there', async (t) => {
  if (!server.db) return t.skip('the server was started elsewhere (SNL_URL without SNL_DB)');
  const { page, errors } = await openPage(browser);
  /**
   * Opens the replay of game `id` at its end; the panels once they follow that point.
   * @param {number} id
   */
  const atEnd = async (id) => {
    const game = await (await fetch(`${server.url}/api/games/${id}`)).json();
    await page.goto(`${server.url}/replay/${id}`);
    await page.waitForSelector('body[data-index="0"]');
    await page.keyboard.press('End');
    const n = game.events.length;
    await page.waitForSelector(`#replay-odds[data-at="${n}"]`);
    const standing = await (await fetch(`${server.url}/api/games/${id}/at/${n}`)).json();
    const shown = await page.$$eval('#replay-odds li', (nodes) => nodes.map((n) => Number(n.getAttribute('data-win'))));
    assert.deepEqual(shown, standing.odds.seats.map((/** @type {{win: number}} */ s) => s.win));
    // Each seat's fewest rolls, in the room's odds panel's words.
    const fewest = await page.$$eval('#replay-odds li .fewest', (nodes) => nodes.map((n) => n.textContent));
    const words = (/** @type {number | null} */ n) => (n === null ? 'cannot finish' : n === 0 ? 'finished' : `${n} roll${n === 1 ? '' : 's'} at best`);
    assert.deepEqual(fewest, standing.odds.seats.map((/** @type {{fewest_rolls: number | null}} */ s) => words(s.fewest_rolls)));
    return standing;
  };
  const badges = () => page.$$eval('#players li', (nodes) => nodes.map((n) => [...n.querySelectorAll('.badge')].map((b) => b.textContent).join()));

  // Ann stops on the shield of 9 and keeps it; the chances are the server's for that point.
  const shielded = await atEnd(await recorded('shield', EFFECTS, [], '3,1,6', ['Ann:easy', 'Bob:easy']));
  assert.deepEqual(shielded.seats.map((/** @type {{carried?: string[]}} */ s) => s.carried ?? []), [['shield'], []]);
  assert.deepEqual(await badges(), ['shield', '']);
  // Back at the start nobody carries anything.
  await page.keyboard.press('Home');
  await page.waitForSelector('#replay-odds[data-at="0"]');
  assert.deepEqual(await badges(), ['', '']);

  // Ann stops on the skip of 4: her next turn is missed.
  const skipping = await atEnd(await recorded('skip', EFFECTS, [], '4', ['Ann:easy', 'Bob:easy']));
  assert.equal(skipping.seats[0].carried.length, 1);
  assert.equal((await badges())[0], skipping.seats[0].carried[0]);
  assert.equal((await badges())[1], '');

  // A race of two rounds: its line says it is over, and the chances are settled.
  const race = await atEnd(await recorded('race', PLAIN, ['--mode', 'race', '--rounds', '2'], '1,2,1,2', ['Ann:easy', 'Bob:easy']));
  assert.equal(race.race, 'race over after 2 rounds');
  assert.equal(await page.locator('#race').textContent(), 'race over after 2 rounds');
  assert.equal(await page.locator('#race').isVisible(), true);
  assert.deepEqual(race.odds.seats.map((/** @type {{win: number}} */ s) => s.win), [0, 1], 'Bob, ahead, won the race');
  assert.deepEqual(errors, []);
});
