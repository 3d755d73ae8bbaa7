// The lobby (/): create a room (board, rules, seats open or computers), take its first seat (or
// every person's seat, to play on one device), and see the open rooms to join or watch, told by the
// lobby stream as they change. "Play here" starts the same game on this device instead, run by the
// engine in the page (local.js): people taking turns at this screen and computer seats, no server.

import { render } from './board.js';
import { api, keepToken, takeSeat } from './net.js';
import { boardOf, checkBoardFile } from './engine.js';
import { keepNew } from './local.js';

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
const form = /** @type {HTMLFormElement} */ ($('create'));
const nameInput = /** @type {HTMLInputElement} */ ($('name'));
const boardSelect = /** @type {HTMLSelectElement} */ ($('board'));
const preview = /** @type {SVGSVGElement} */ (/** @type {unknown} */ ($('preview')));

/** @type {import('./geometry.js').BoardJson | null} */
let fileBoard = null;

const KINDS = [['human', 'Person'], ['hard', 'Computer (hard)'], ['greedy', 'Computer (greedy)'], ['easy', 'Computer (easy)']];

/** @param {string} kind @param {string} [name] */
function addSeat(kind, name = '') {
  const list = $('seats');
  const n = list.children.length;
  if (n >= 16) return;
  const li = document.createElement('li');
  li.className = 'seat-row';
  const kindId = `seat-kind-${n}-${Date.now() % 100000}`;
  const nameId = `${kindId}-name`;
  li.innerHTML = `<label for="${kindId}" class="visually-hidden">Seat kind</label><select id="${kindId}" class="seat-kind">${KINDS.map(([v, t]) => `<option value="${v}">${t}</option>`).join('')}</select>
    <label for="${nameId}" class="visually-hidden">Seat name</label><input id="${nameId}" class="seat-name" maxlength="32" placeholder="name (optional)">
    <button type="button" class="ghost remove" aria-label="Remove this seat">✕</button>`;
  const select = /** @type {HTMLSelectElement} */ (li.querySelector('select'));
  select.value = kind;
  /** @type {HTMLInputElement} */ (li.querySelector('input')).value = name;
  /** @type {HTMLButtonElement} */ (li.querySelector('.remove')).addEventListener('click', () => {
    if (list.children.length > 2) li.remove();
    numberSeats();
  });
  list.appendChild(li);
  numberSeats();
}

function numberSeats() {
  const rows = Array.from($('seats').children);
  rows.forEach((row, i) => {
    const label = row.querySelector('label');
    if (label) label.textContent = `Seat ${i + 1} kind`;
    const input = /** @type {HTMLInputElement} */ (row.querySelector('.seat-name'));
    input.placeholder = i === 0 ? 'you' : 'name (optional)';
    input.disabled = i === 0;
    /** @type {HTMLButtonElement} */ (row.querySelector('.remove')).hidden = rows.length <= 2;
  });
}

/** Previews asked for: an answer that comes back after a newer one was asked is dropped. */
let previewsAsked = 0;

/**
 * Draws the board chosen: a board file as read, a preset or a random board as the engine makes
 * it (the server's own boards, from engine.wasm: no board is written out here).
 */
async function drawPreview() {
  const mine = ++previewsAsked;
  let board = fileBoard;
  if (boardSelect.value !== 'file') {
    /** @type {Record<string, unknown>} */
    const setup = { seats: [], board: boardSelect.value };
    if (boardSelect.value === 'random') {
      /** @type {Record<string, number>} */
      const random = {};
      for (const part of ['size', 'snakes', 'ladders', 'effects', 'seed']) {
        const text = /** @type {HTMLInputElement} */ ($(`random-${part}`)).value.trim();
        if (/^[0-9]{1,15}$/.test(text)) random[part] = Number(text);
      }
      setup.random = random;
    }
    try {
      board = (await boardOf({ setup, seed: 1 })).board;
    } catch {
      // Settings that make no board (too many snakes for the size…): the form says why on Create.
      board = null;
    }
  }
  if (mine !== previewsAsked || !board) return;
  render(preview, board, [
    { name: 'A', seat: 0, position: Math.min(board.size, 17) },
    { name: 'B', seat: 1, position: Math.min(board.size, 42) },
  ]);
}

for (const part of ['size', 'snakes', 'ladders', 'effects', 'seed']) $(`random-${part}`).addEventListener('change', () => drawPreview());
boardSelect.addEventListener('change', () => {
  $('file-field').hidden = boardSelect.value !== 'file';
  $('random-field').hidden = boardSelect.value !== 'random';
  drawPreview();
});
$('file').addEventListener('change', async () => {
  const input = /** @type {HTMLInputElement} */ ($('file'));
  const file = input.files?.[0];
  const note = $('file-note');
  fileBoard = null;
  if (!file) return;
  try {
    const text = await file.text();
    if (text.trim().startsWith('{')) {
      // A board as JSON: the server checks it when the room is made.
      fileBoard = JSON.parse(text);
      note.textContent = `${file.name}: a board as JSON, checked when the room is made.`;
    } else {
      // A board file (TOML) is read by the engine (engine.wasm), as `snl board validate` reads it.
      const read = await checkBoardFile(text);
      if (!read.valid) {
        note.textContent = `${file.name} is not a valid board: ${read.problems.join('; ')}`;
        return;
      }
      fileBoard = read.board;
      note.textContent = `${file.name}: ${read.summary}.`;
    }
    drawPreview();
  } catch (e) {
    note.textContent = `${file.name} cannot be read: ${/** @type {Error} */ (e).message}`;
  }
});
$('add-seat').addEventListener('click', () => addSeat('hard'));

/**
 * The game the form asks for, as the request an online room is created with (POST /api/rooms),
 * with the seats' rows; or null when something in the form is refused (said under it).
 * @returns {{body: Record<string, any>, rows: {kind: string, name: string}[], me: string} | null}
 */
function asked() {
  const error = $('create-error');
  error.textContent = '';
  const me = nameInput.value.trim();
  localStorage.setItem('snl.name', me);
  const rows = Array.from($('seats').children).map((row, i) => ({
    kind: /** @type {HTMLSelectElement} */ (row.querySelector('select')).value,
    name: i === 0 ? me : /** @type {HTMLInputElement} */ (row.querySelector('.seat-name')).value.trim(),
  }));
  if (rows[0].kind !== 'human') rows[0].kind = 'human';
  /** @type {Record<string, any>} */
  const body = { seats: rows.map((r) => (r.kind === 'human' || !r.name ? { kind: r.kind } : { kind: r.kind, name: r.name })) };
  if (boardSelect.value === 'file') {
    if (!fileBoard) {
      error.textContent = 'Choose a board file first.';
      return null;
    }
    body.board = fileBoard;
  } else {
    body.board = boardSelect.value;
  }
  if (boardSelect.value === 'random') {
    /** @type {Record<string, number>} */
    const random = {};
    for (const part of ['size', 'snakes', 'ladders', 'effects', 'seed']) {
      const text = /** @type {HTMLInputElement} */ ($(`random-${part}`)).value.trim();
      if (!text) continue;
      if (!/^[0-9]{1,15}$/.test(text)) {
        error.textContent = `The random board's ${part} must be a whole number, not '${text.slice(0, 40)}'.`;
        return null;
      }
      random[part] = Number(text);
    }
    if (Object.keys(random).length > 0) body.random = random;
  }
  const ruleSet = /** @type {HTMLSelectElement} */ ($('rules')).value;
  /** @type {Record<string, string | number>} */
  const options = {};
  for (const id of ['start', 'bonus', 'max-bonus', 'on-max', 'dice', 'overshoot', 'choice', 'jumps', 'finish']) {
    const v = /** @type {HTMLSelectElement} */ ($(id)).value;
    if (v) options[id] = /^[0-9]+$/.test(v) ? Number(v) : v;
  }
  body.rules = Object.keys(options).length > 0 ? { set: ruleSet, ...options } : ruleSet;
  const time = /** @type {HTMLSelectElement} */ ($('turn-time')).value;
  if (time) body.turn_time = Number(time);
  const [mode, rounds] = /** @type {HTMLSelectElement} */ ($('mode')).value.split(':');
  if (mode) body.mode = mode;
  if (rounds) body.rounds = Number(rounds);
  const clock = /** @type {HTMLSelectElement} */ ($('game-time')).value;
  if (clock) body.game_time = Number(clock);
  const games = /** @type {HTMLSelectElement} */ ($('games')).value;
  if (games) body.games = Number(games);
  const seed = /** @type {HTMLInputElement} */ ($('seed')).value.trim();
  if (seed) {
    if (!/^[0-9]{1,15}$/.test(seed)) {
      error.textContent = `The dice seed must be a whole number of at most 15 digits, not '${seed.slice(0, 40)}'.`;
      return null;
    }
    body.seed = Number(seed);
  }
  return { body, rows, me };
}

form.addEventListener('submit', async (e) => {
  e.preventDefault();
  const error = $('create-error');
  const game = asked();
  if (!game) return;
  const { body, rows, me } = game;
  try {
    const created = await api('/api/rooms', body);
    const sameDevice = /** @type {HTMLInputElement} */ ($('same-device')).checked;
    for (let i = 0; i < rows.length; i++) {
      if (rows[i].kind !== 'human' || (i > 0 && !sameDevice)) continue;
      // A seat must be taken with a name: an unnamed one gets the name every front end gives a
      // person's seat nobody named (snl_words::seat_default_name: "Player 3" at the third seat).
      const name = i === 0 ? me : rows[i].name || `Player ${i + 1}`;
      const { token } = await takeSeat(created.room, i, name);
      keepToken(created.room, token);
    }
    location.assign(`/room/${created.room}`);
  } catch (err) {
    // A server out of reach (offline, or pages served without one) makes fetch throw a TypeError.
    error.textContent = err instanceof TypeError
      ? 'The server cannot be reached: online rooms need it. “Play here” plays on this device without one.'
      : /** @type {Error} */ (err).message;
  }
});

// "Play here": the same game on this device, every person's seat at this screen.
$('play-here').addEventListener('click', () => {
  if (!form.reportValidity()) return;
  const game = asked();
  if (!game) return;
  const { body, rows, me } = game;
  // A seat nobody named is named by the engine, as every front end names it.
  body.seats = rows.map((r, i) => {
    const name = i === 0 && r.kind === 'human' ? me : r.name;
    return name ? { kind: r.kind, name } : { kind: r.kind };
  });
  // No clocks on this device: people at one screen wait for each other; a series is played
  // online (each game a room), one game here.
  delete body.turn_time;
  delete body.game_time;
  delete body.games;
  const seed = body.seed ?? crypto.getRandomValues(new Uint32Array(1))[0];
  keepNew(body, seed);
  location.assign('/local');
});

/**
 * The rooms listed, by id, as the lobby stream last told them.
 * @type {Map<string, any>}
 */
const listed = new Map();

/**
 * Draws the rooms with open seats or a game going on. A diff: each room keeps its row, changed in
 * place, so a change elsewhere never takes the focus from a Join link (changes come every second
 * while games are played).
 */
function drawRooms() {
  const list = $('rooms');
  list.querySelector('li.empty')?.remove();
  /** @type {Map<string, HTMLLIElement>} */
  const rows = new Map();
  for (const li of /** @type {HTMLLIElement[]} */ (Array.from(list.querySelectorAll('li[data-room]')))) {
    if (listed.has(li.dataset.room ?? '')) rows.set(li.dataset.room ?? '', li);
    else li.remove();
  }
  const rooms = Array.from(listed.values()).sort((a, b) => (a.room < b.room ? -1 : a.room > b.room ? 1 : 0));
  /** @type {Element | null} */
  let before = list.firstElementChild;
  for (const r of rooms) {
    let li = rows.get(r.room);
    if (!li) {
      li = document.createElement('li');
      li.dataset.room = r.room;
      li.innerHTML = '<div><strong></strong><span class="detail"></span><span class="about"></span></div><a></a>';
      /** @type {HTMLAnchorElement} */ (li.querySelector('a')).href = `/room/${r.room}`;
    }
    const open = r.seats.filter((/** @type {any} */ s) => s.open).length;
    const names = r.seats.map((/** @type {any} */ s) => s.name ?? 'open').join(', ');
    const a = /** @type {HTMLAnchorElement} */ (li.querySelector('a'));
    const set = (/** @type {Element} */ node, /** @type {string} */ text) => { if (node.textContent !== text) node.textContent = text; };
    a.className = open > 0 ? 'button' : 'button ghost';
    set(a, open > 0 ? 'Join' : 'Watch');
    a.setAttribute('aria-label', `${open > 0 ? 'Join' : 'Watch'} room ${r.room}`);
    set(/** @type {HTMLElement} */ (li.querySelector('strong')), `${r.board_name} · ${names}`);
    set(/** @type {HTMLElement} */ (li.querySelector('.detail')), open > 0 ? `${open} open seat${open === 1 ? '' : 's'}` : `playing · turn ${r.turns}`);
    // What sets the game apart (race, clocks), in the server's words (snl_words::room_traits).
    const about = /** @type {HTMLElement} */ (li.querySelector('.about'));
    set(about, r.about ?? '');
    about.hidden = !r.about;
    if (li !== before) list.insertBefore(li, before);
    before = li.nextElementSibling;
  }
  if (listed.size === 0) {
    const li = document.createElement('li');
    li.className = 'empty';
    li.textContent = 'No rooms yet: create one!';
    list.appendChild(li);
  }
}

/** Says plainly that online rooms cannot be had now, and what works without them. */
function offline() {
  const li = document.createElement('li');
  li.className = 'empty offline';
  li.textContent = navigator.onLine
    ? 'Online rooms need the snl server, and it cannot be reached from here. “Play here” plays on this device without it.'
    : 'You are offline: online rooms need the network. “Play here” plays on this device without it.';
  $('rooms').replaceChildren(li);
  document.body.dataset.offline = 'true';
}

/** Lists the rooms once from `GET /api/rooms` (the fallback while the stream cannot open). */
async function fetchRooms() {
  try {
    const { rooms } = await api('/api/rooms');
    listed.clear();
    for (const r of rooms) listed.set(r.room, r);
    drawRooms();
  } catch {
    // Shown again at the next look.
  }
}

/**
 * Follows the lobby stream (`/api/lobby/ws`, docs/protocol.md): the rooms listed, then each change
 * as it happens, so the page never polls. A dropped stream is dialled again after 0.5 s, 1 s, 2 s…
 * up to 30 s; each new connection starts with the whole list again.
 */
function followRooms() {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/lobby/ws`;
  let tries = 0;
  /** @type {ReturnType<typeof setInterval> | null} */
  let fallback = null;
  const dial = () => {
    const ws = new WebSocket(url);
    let heard = false;
    ws.onmessage = (message) => {
      /** @type {any} */
      let frame;
      try {
        frame = JSON.parse(String(message.data));
      } catch {
        return;
      }
      if (frame.type === 'lobby') {
        tries = 0;
        heard = true;
        delete document.body.dataset.offline;
        if (fallback !== null) clearInterval(fallback);
        fallback = null;
        listed.clear();
        for (const r of frame.rooms) listed.set(r.room, r);
      } else if (frame.type === 'room') {
        listed.set(frame.entry.room, frame.entry);
      } else if (frame.type === 'gone') {
        listed.delete(frame.room);
      } else {
        return;
      }
      drawRooms();
    };
    ws.onclose = () => {
      tries++;
      // Not one list came: the server is out of reach (offline, or pages served without it).
      if (!heard) offline();
      // Polling is only a fallback, for when the stream cannot open at all (a proxy that refuses
      // WebSockets): after three failed tries, look once every 30 s until the stream comes back.
      if (tries === 3 && fallback === null) {
        void fetchRooms();
        fallback = setInterval(fetchRooms, 30_000);
      }
      setTimeout(dial, Math.min(30_000, 250 * 2 ** tries));
    };
  };
  dial();
}

// The form shows (and takes typing) before this script runs (assets/boot.js): a name typed by then
// is kept, not replaced by the one remembered.
if (!nameInput.value) nameInput.value = localStorage.getItem('snl.name') ?? '';
addSeat('human');
addSeat('hard');
// This runs after the page's first paint (assets/boot.js): the header and the form show at once,
// the preview once the engine (engine.wasm, loaded after that paint) has made the board.
drawPreview();
followRooms();
