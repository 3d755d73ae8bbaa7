// Replays (/replay/{game}): any recorded game, local or online, from GET /api/games/{id}: play,
// pause, step back and forth, seek, speed. The positions at any point come from the events alone
// (the same planner the room page animates with), so seeking anywhere is exact. /replay lists the
// recorded games.

import { render, tokenIcon, legendItems } from './board.js';
import { positionsAfter } from './plan.js';
import { api } from './net.js';
import { drawOdds } from './odds.js';

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
const svg = /** @type {SVGSVGElement} */ (/** @type {unknown} */ ($('board')));
const seek = /** @type {HTMLInputElement} */ ($('seek'));
const playButton = /** @type {HTMLButtonElement} */ ($('play'));
const id = decodeURIComponent(location.pathname.split('/')[2] ?? '');

/** @type {any} */
let game = null;
/** @type {import('./plan.js').WireEvent[]} */
let events = [];
/** The sentence told for each event (or null). @type {(string | null)[]} */
let sentences = [];
/** The chat said in the game's room, by the number of events told before it. @type {Map<number, {player: string, text: string}[]>} */
const chatAfter = new Map();
/** Positions after every 100th event, so a seek replays at most 100. @type {Record<string, number>[]} */
let marks = [];
/** Events shown: 0 (the start) to events.length. */
let at = 0;
let timer = 0;

/** @param {number} i @returns {Record<string, number>} */
function positionsAt(i) {
  const k = Math.floor(i / 100);
  return positionsAfter(game.board, marks[k], events.slice(k * 100, i));
}

/** Who is to move after `i` events (the last turn started), for the highlight. @param {number} i */
function currentAt(i) {
  for (let k = i - 1; k >= 0; k--) if (events[k].type === 'turn_started') return /** @type {string} */ (events[k].player);
  return null;
}

function show() {
  const positions = positionsAt(at);
  const tokens = game.seats.map((/** @type {{name: string}} */ s, /** @type {number} */ seat) => ({ name: s.name, seat, position: positions[s.name] ?? 0 }));
  render(svg, game.board, tokens, { current: currentAt(at) });
  seek.value = String(at);
  document.body.dataset.index = String(at);
  $('where').textContent = `Event ${at} of ${events.length}`;
  const players = $('players');
  players.replaceChildren(...tokens.map((/** @type {{name: string, seat: number, position: number}} */ t) => {
    const li = document.createElement('li');
    li.dataset.name = t.name;
    const name = document.createElement('span');
    name.textContent = t.name;
    const where = document.createElement('span');
    where.className = 'num';
    where.textContent = t.position === 0 ? 'start' : `cell ${t.position}`;
    li.append(tokenIcon(t.seat, t.name), name, where);
    return li;
  }));
  void standing(at);
  const log = $('log');
  const told = [];
  for (let k = Math.max(0, at - 40); k <= at; k++) {
    // The chat said after the first k events, then the event k + 1.
    for (const line of chatAfter.get(k) ?? []) {
      const li = document.createElement('li');
      li.className = 'chat-line';
      const who = document.createElement('strong');
      who.textContent = `${line.player}: `;
      li.append(who, line.text);
      told.push(li);
    }
    if (k === at || !sentences[k]) continue;
    const li = document.createElement('li');
    li.textContent = /** @type {string} */ (sentences[k]);
    told.push(li);
  }
  told.findLast((li) => li.className !== 'chat-line')?.classList.add('now');
  log.replaceChildren(...told);
  log.scrollTop = log.scrollHeight;
  /** @type {HTMLButtonElement} */ ($('back')).disabled = at === 0;
  /** @type {HTMLButtonElement} */ ($('step')).disabled = at === events.length;
}

/** The point whose standing was last asked for (answers for older points are dropped). */
let asked = -1;

/**
 * The players' words, a race's line and the chances at point `k`, as the server works them out
 * for the game as it stood then (GET /api/games/{id}/at/{k}): after a short pause, so that
 * playing or seeking asks only where it stops.
 * @param {number} k
 */
async function standing(k) {
  asked = k;
  await new Promise((resolve) => { setTimeout(resolve, timer ? 400 : 120); });
  if (asked !== k) return;
  /** @type {any} */
  let answer;
  try {
    answer = await api(`/api/games/${encodeURIComponent(id)}/at/${k}`);
  } catch {
    return; // The panels keep what they showed; the next point asks again.
  }
  if (asked !== k) return;
  const items = $('players').querySelectorAll('li');
  answer.seats.forEach((/** @type {{standing: string, carried?: string[]}} */ s, /** @type {number} */ i) => {
    const li = items[i];
    if (!li) return;
    li.querySelectorAll('.badge').forEach((b) => b.remove());
    for (const mark of s.carried ?? []) {
      const badge = document.createElement('span');
      badge.className = `badge ${mark === 'shield' ? 'badge-shield' : 'badge-skip'}`;
      badge.textContent = mark;
      li.append(badge);
    }
    li.dataset.standing = s.standing;
  });
  const race = $('race');
  race.hidden = !answer.race;
  race.textContent = answer.race ?? '';
  drawOdds($('replay-odds'), answer.odds);
  $('replay-odds').dataset.at = String(k);
  // Each seat's faces up to here, in the table a room shows (loaded once there are some).
  if (answer.dice.some((/** @type {{throws: number}} */ t) => t.throws > 0) || $('dice-stats').dataset.seq) {
    const seats = answer.dice.map((/** @type {any} */ test, /** @type {number} */ seat) => ({ seat, name: game.seats[seat]?.name ?? null, game: test }));
    (await import('./dicetable.js')).draw({ faces: answer.faces, seq: k, seats });
  }
}

/** @param {number} i */
function go(i) {
  at = Math.max(0, Math.min(events.length, i));
  show();
  if (at === events.length) pause();
}

function delay() {
  return 450 / Number(/** @type {HTMLSelectElement} */ ($('speed')).value);
}

function tick() {
  go(at + 1);
  if (timer) timer = window.setTimeout(tick, delay());
}

function play() {
  if (at === events.length) go(0);
  playButton.textContent = 'Pause';
  document.body.dataset.playing = 'true';
  timer = window.setTimeout(tick, delay());
}

/**
 * Checks the game's dice here, with the engine `snl verify` uses, compiled to wasm
 * (docs/fairness.md): the page trusts no sentence of the server's about them.
 */
async function checkDice() {
  const out = $('fair-result');
  try {
    const { verify } = await import('./engine.js');
    const dice = game.dice;
    const answer = await verify({ board: game.board, rules: game.rules, seed: dice.seed ?? null, room: dice.room ?? null, history: dice.history });
    out.textContent = answer.verified ? `Checked in this page: ${answer.text}.` : `Not verified: ${answer.why}.`;
    document.body.dataset.dice = answer.verified ? 'verified' : 'not-verified';
  } catch (e) {
    out.textContent = `The dice could not be checked in this page: ${/** @type {Error} */ (e).message}`;
    document.body.dataset.dice = 'unchecked';
  }
}

function pause() {
  clearTimeout(timer);
  timer = 0;
  playButton.textContent = 'Play';
  document.body.dataset.playing = 'false';
}

async function viewer() {
  game = await api(`/api/games/${encodeURIComponent(id)}`);
  events = game.events.map((/** @type {{event: any}} */ e) => e.event);
  // Where the tokens start is the server's answer (the rules' start), not worked out here.
  const start = game.start ?? 0;
  /** @type {Record<string, number>} */
  const first = Object.fromEntries(game.seats.map((/** @type {{name: string}} */ s) => [s.name, start]));
  marks = [first];
  for (let k = 100; k <= events.length; k += 100) marks.push(positionsAfter(game.board, marks[marks.length - 1], events.slice(k - 100, k)));
  // Each event's sentence is the server's, as every front end tells it.
  sentences = game.events.map((/** @type {{text?: string}} */ e) => e.text ?? null);
  // The chat said in the game's room, where it was said.
  for (const line of /** @type {{at: number, player: string, text: string}[]} */ (game.chat ?? [])) {
    chatAfter.set(line.at, [...(chatAfter.get(line.at) ?? []), line]);
  }
  document.title = `Snakes and Ladders — replay of game ${game.id}`;
  $('replay-title').textContent = `Game ${game.id}`;
  const names = game.seats.map((/** @type {{name: string, kind: string}} */ s) => `${s.name} (${s.kind})`).join(', ');
  const won = game.ranking.length ? ` Won by ${game.ranking[0]}.` : '';
  $('about').textContent = `${game.board_name} board, ${game.turns} turns: ${names}.${won}`;
  seek.max = String(events.length);
  // The board's legend, in the server's words (as the live room shows it).
  $('legend').replaceChildren(...legendItems(game.legend ?? []));
  $('legend-card').hidden = !(game.legend ?? []).length;
  $('viewer').hidden = false;
  go(0);
  seek.addEventListener('input', () => { pause(); go(Number(seek.value)); });
  $('back').addEventListener('click', () => { pause(); go(at - 1); });
  $('step').addEventListener('click', () => { pause(); go(at + 1); });
  playButton.addEventListener('click', () => (timer ? pause() : play()));
  document.addEventListener('keydown', (e) => {
    if (/** @type {Element} */ (e.target).closest('input, select')) return;
    if (e.key === 'ArrowRight') go(at + 1);
    else if (e.key === 'ArrowLeft') go(at - 1);
    else if (e.key === 'Home') go(0);
    else if (e.key === 'End') go(events.length);
    // Space plays and pauses, as in a video player (a focused button takes Space itself).
    else if (e.key === ' ' && !(/** @type {Element} */ (e.target).closest('button'))) {
      if (timer) pause();
      else play();
    } else return;
    e.preventDefault();
  });
  document.body.dataset.ready = 'true';
  checkDice();
}

/** @type {number | null} */
let before = null;
async function list() {
  $('list').hidden = false;
  const page = await api(`/api/games?limit=20${before === null ? '' : `&before=${before}`}`);
  for (const g of page.games) {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = `/replay/${g.id}`;
    const names = g.seats.map((/** @type {{name: string}} */ s) => s.name).join(' vs ');
    a.textContent = `Game ${g.id} · ${g.board} · ${names} · ${g.turns} turns${g.winner ? ` · won by ${g.winner}` : ` · ${g.status}`}`;
    li.append(a);
    $('games').append(li);
  }
  if (!page.games.length && before === null) $('games').textContent = 'No game is recorded yet.';
  before = page.next;
  $('more').hidden = before === null;
  document.body.dataset.ready = 'true';
}

$('more').addEventListener('click', () => void list());
(id ? viewer() : list()).catch((e) => {
  // A server out of reach (offline, or pages served without one) makes fetch throw a TypeError.
  $('failure').textContent = e instanceof TypeError
    ? 'Recorded games need the snl server, which cannot be reached from here.'
    : String(e.message);
  document.body.dataset.ready = 'true';
});
// The game played on this device, kept by this browser, is watched again without a server.
if (!id && localStorage.getItem('snl.local')) $('local-replay').hidden = false;
