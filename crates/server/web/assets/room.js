// Long because the room page's wiring (connections, seats, controls, chat) is one module; drawing
// and animation live in board.js, plan.js and anim.js.
// A room's page (/room/{room}): the board, the dice, the players, the log, chat. It watches as a
// spectator until this device holds a seat's token (from `#token=T`, taking a seat here, or the
// lobby); it may hold several seats (people sharing one device): each has its own connection and
// the Roll button acts for whichever of them the game awaits. At /local it shows the game on this
// device (local.js), whose frames come from the engine in the page instead of a server.

import { render, tokenIcon, shapeName, tokenSpace, legendItems } from './board.js';
import { ZOOM_ABOVE } from './geometry.js';
import { planEvent, catchUpSpeed } from './plan.js';
import { playBeat, celebrate } from './anim.js';
import { diceTray } from './dice.js';
import { armSound, play as playSound, setSound, soundOn } from './sound.js';
import { api, connect, dropToken, heldTokens, keepToken, takeSeat } from './net.js';

/**
 * @typedef {import('./net.js').Frame} Frame
 * @typedef {import('./net.js').Link} Link
 * @typedef {import('./roomtypes.js').SeatView} SeatView
 * @typedef {import('./roomtypes.js').Awaiting} Awaiting
 * @typedef {import('./roomtypes.js').RoomView} RoomView
 * @typedef {import('./roomtypes.js').Item} Item
 */

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
// The game on this device (/local, or /local/ in a static export): its code (local.js and the
// engine) is loaded only there, so an online room's page carries none of it.
const isLocal = /^\/local(\/|\/index\.html)?$/.test(location.pathname);
if (isLocal) document.body.dataset.local = 'true';
const room = isLocal ? 'local' : decodeURIComponent(location.pathname.split('/')[2] ?? '');
const svg = /** @type {SVGSVGElement} */ (/** @type {unknown} */ ($('board')));
/**
 * The board's zoom (zoom.js), loaded with the first board large enough to need it: a room on a
 * board of up to 400 cells carries none of it.
 * @type {import('./zoom.js').Zoomer | null}
 */
let zoom = null;
/** @param {import('./geometry.js').BoardJson} board */
function showZoom(board) {
  if (zoom) zoom.show(board);
  else if (board.size > ZOOM_ABOVE) {
    void import('./zoom.js').then(({ zoomer }) => {
      zoom ??= zoomer(svg, $('board-wrap'), $('zoom'), () => follow(current));
      zoom.show(view?.board ?? board);
    });
  }
}
const dice = diceTray($('dice'));
const rollButton = /** @type {HTMLButtonElement} */ ($('roll'));
const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');

// A seat's token in the address (an invitation): keep it, and take it out of the address bar.
const fromHash = isLocal ? null : /(?:^#|&)token=([^&]+)/.exec(location.hash);
if (fromHash) {
  keepToken(room, decodeURIComponent(fromHash[1]));
  history.replaceState(null, '', location.pathname + location.search);
}

/** @type {RoomView | null} */
let view = null;
/** @type {Record<string, number>} */
let positions = {};
/** @type {Set<string>} */
const shields = new Set();
/** @type {Awaiting} */
let awaiting = null;
/** @type {string | null} */
let current = null;
/** Seats this device holds, and the connection of each. @type {Map<number, Link>} */
const mine = new Map();
/** @type {Item[]} */
const queue = [];
let pumping = false;
/** Whether an intent was sent and its answer is not in yet. */
let sent = false;
/** @type {number | null} */
let deadline = null;
/**
 * When each dropped person's grace runs out (`Date.now()` time), by seat: the seat is kept for
 * them until then, then the computer plays it (`--grace`).
 * @type {Map<number, number>}
 */
const graceEnds = new Map();
/**
 * The turn clock held while the person awaited is in their grace (the server pauses it): what
 * was left, for input `input`.
 * @type {{input: number, left: number} | null}
 */
let paused = null;
/** @param {number} seconds */
const clockText = (seconds) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

const faces = () => Number(/d(\d+)/.exec(view?.rules?.dice ?? '1d6')?.[1] ?? 6);
const seatName = (/** @type {number} */ seat) => view?.seats[seat]?.name ?? `seat ${seat + 1}`;

/** Draws the tokens where they stand now. */
function draw() {
  if (!view) return;
  const tokens = view.seats.filter((s) => s.name).map((s) => ({ name: /** @type {string} */ (s.name), seat: s.seat, position: positions[/** @type {string} */ (s.name)] ?? 0 }));
  render(svg, view.board, tokens, { current, shields });
  const where = tokens.map((t) => `${t.name} ${t.position === 0 ? 'at the start' : `on ${t.position}`}`).join(', ');
  svg.setAttribute('aria-label', `Board of ${view.board.size} cells${where ? `: ${where}` : ''}`);
}

/** @param {string} text @param {string} [kind] */
function tell(text, kind = '') {
  const log = $('log');
  const line = document.createElement('p');
  line.textContent = text;
  if (kind) line.className = kind;
  log.appendChild(line);
  while (log.children.length > 200) log.firstElementChild?.remove();
  scrollLog();
}

let scrolling = false;
/** Scrolls the log to its end once, just before the next frame (reading its height at once would
 * force a layout for every line told). */
function scrollLog() {
  if (scrolling) return;
  scrolling = true;
  requestAnimationFrame(() => {
    scrolling = false;
    const log = $('log');
    log.scrollTop = log.scrollHeight;
  });
}

const KINDS = /** @type {Record<string, string>} */ ({ human: 'person', easy: 'easy computer', greedy: 'greedy computer', hard: 'hard computer' });

/** Redraws the players' list (the key: colour, shape, name, where, presence). */
function drawPlayers() {
  if (!view) return;
  const list = $('players');
  list.replaceChildren();
  // Someone who opened an invite on this device and holds no seat yet is offered the seat the
  // link names (`?seat=N`, while it is open), else the first open one, before anything else
  // (above the board, first thing on a phone).
  const open = view.status === 'open' ? view.seats.filter((s) => s.open) : [];
  const first = mine.size === 0 ? (open.find((s) => s.seat === invitedSeat) ?? open[0])?.seat ?? null : null;
  const join = $('join-first');
  join.hidden = first === null;
  const holder = $('join-first-form');
  if (first === null) holder.replaceChildren();
  else if (holder.dataset.seat !== String(first)) holder.replaceChildren(claimForm(first));
  holder.dataset.seat = first === null ? '' : String(first);
  for (const s of view.seats) {
    const li = document.createElement('li');
    li.className = 'player';
    li.dataset.seat = String(s.seat);
    if (s.name && s.name === current && view.status === 'running') {
      li.classList.add('current');
      li.setAttribute('aria-current', 'true');
    }
    li.appendChild(tokenIcon(s.seat, s.name ?? '?'));
    const text = document.createElement('div');
    text.className = 'who';
    const name = document.createElement('strong');
    name.textContent = s.name ?? 'Open seat';
    text.appendChild(name);
    const detail = document.createElement('span');
    detail.className = 'detail';
    // Where it stands, in the server's words (snl_words::standing_at): a seat ranked by
    // position when a race or the game clock ended is not said to have finished.
    const at = s.standing ?? '';
    detail.textContent = s.open ? `${shapeName(s.seat)} · waiting for a player` : `${shapeName(s.seat)} · ${KINDS[s.kind] ?? s.kind}${at ? ` · ${at}` : ''}`;
    text.appendChild(detail);
    li.appendChild(text);
    const badges = document.createElement('div');
    badges.className = 'badges';
    if (mine.has(s.seat)) badges.appendChild(badge('you', 'badge-you'));
    if (s.kind === 'human' && !s.open) badges.appendChild(badge(s.online ? 'online' : 'away', s.online ? 'badge-on' : 'badge-away'));
    const graceEnd = graceEnds.get(s.seat);
    if (graceEnd !== undefined) {
      const kept = badge(graceText(graceEnd), 'badge-grace');
      kept.dataset.graceEnd = String(graceEnd);
      kept.setAttribute('role', 'timer');
      badges.appendChild(kept);
    }
    if (s.autopilot) badges.appendChild(badge(s.autoplayed ? 'computer plays' : 'autopilot', 'badge-auto'));
    // What the cell effects left the seat, as the server words it (snl_words::carried_marks).
    for (const mark of s.carried ?? []) badges.appendChild(badge(mark, mark === 'shield' ? 'badge-shield' : 'badge-skip'));
    li.appendChild(badges);
    if (s.open && view.status === 'open' && s.seat !== first) li.appendChild(claimForm(s.seat));
    if (s.open && view.status === 'open' && mine.size > 0) li.appendChild(inviteButton(s.seat));
    if (mine.has(s.seat) && view.status === 'running' && !s.rank) li.appendChild(s.autoplayed ? takeBack(s) : autopilotSwitch(s));
    list.appendChild(li);
  }
}

/** @param {number} end when the grace runs out, in `Date.now()` time */
function graceText(end) {
  return `seat kept ${clockText(Math.max(0, Math.ceil((end - Date.now()) / 1000)))}`;
}

/** The graces count down in the players panel. */
function tickGraces() {
  for (const el of document.querySelectorAll('[data-grace-end]')) {
    el.textContent = graceText(Number(/** @type {HTMLElement} */ (el).dataset.graceEnd));
  }
}
setInterval(tickGraces, 1000);

/**
 * The computer plays this device's seat since its grace ran out: one click takes it back.
 * @param {SeatView} s
 */
function takeBack(s) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'take-back';
  button.textContent = 'Take my seat back';
  button.addEventListener('click', () => {
    if (mine.get(s.seat)?.send({ type: 'autopilot', on: false })) button.disabled = true;
  });
  return button;
}

/** @param {string} text @param {string} cls */
function badge(text, cls) {
  const b = document.createElement('span');
  b.className = `badge ${cls}`;
  b.textContent = text;
  return b;
}

/** The seat an invite link names (`?seat=N`, counted from 1 as the page shows seats). */
const invitedSeat = (() => {
  const n = Number(new URLSearchParams(location.search).get('seat'));
  return Number.isInteger(n) && n >= 1 ? n - 1 : null;
})();

/**
 * Shares `link` with the system's share sheet where there is one (phones), else copies it;
 * `button` says what happened for two seconds.
 * @param {HTMLElement} button
 * @param {string} link
 * @param {string} text
 */
async function shareLink(button, link, text) {
  const label = button.textContent;
  if (navigator.share) {
    try {
      await navigator.share({ title: 'Snakes & Ladders', text, url: link });
      return;
    } catch (e) {
      if (/** @type {Error} */ (e).name === 'AbortError') return; // the person closed the sheet
    }
  }
  try {
    await navigator.clipboard.writeText(link);
    button.textContent = 'Link copied!';
  } catch {
    prompt('Copy this link:', link);
  }
  setTimeout(() => { button.textContent = label; }, 2000);
}

/** A seat's own invite: its link opens the room with that seat's "take this seat" form first. @param {number} seat */
function inviteButton(seat) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'ghost invite-seat';
  button.textContent = `Invite to seat ${seat + 1}`;
  button.dataset.link = `${location.origin}/room/${encodeURIComponent(room)}?seat=${seat + 1}`;
  button.addEventListener('click', () => shareLink(button, button.dataset.link ?? '', `Take seat ${seat + 1} in my game of Snakes & Ladders`));
  return button;
}

/** @param {number} seat */
function claimForm(seat) {
  const form = document.createElement('form');
  form.className = 'claim';
  const id = `claim-name-${seat}`;
  form.innerHTML = `<label for="${id}">Your name</label><input id="${id}" name="name" maxlength="32" required autocomplete="nickname"><button type="submit">Take seat ${seat + 1}</button>`;
  const input = /** @type {HTMLInputElement} */ (form.querySelector('input'));
  input.value = localStorage.getItem('snl.name') ?? '';
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const name = input.value.trim();
    try {
      const { token } = await takeSeat(room, seat, name);
      localStorage.setItem('snl.name', name);
      keepToken(room, token);
      location.reload();
    } catch (err) {
      tell(`Cannot take seat ${seat + 1}: ${/** @type {Error} */ (err).message}`, 'error');
    }
  });
  return form;
}

/** @param {SeatView} s */
function autopilotSwitch(s) {
  const label = document.createElement('label');
  label.className = 'switch';
  const box = document.createElement('input');
  box.type = 'checkbox';
  box.setAttribute('role', 'switch');
  box.checked = s.autopilot;
  box.addEventListener('change', () => mine.get(s.seat)?.send({ type: 'autopilot', on: box.checked }));
  label.append(box, ` Autopilot for ${s.name}`);
  return label;
}

/** Whose move it is, and what this device may do about it. */
function drawControls() {
  if (!view) return;
  const status = $('status');
  const options = $('options');
  const seat = awaiting?.seat ?? null;
  const ours = seat !== null && mine.has(seat) && !view.seats[seat]?.autopilot;
  const busy = queue.length > 0 || pumping;
  rollButton.disabled = !(ours && awaiting?.type === 'roll') || sent || busy;
  // A spectator (no seat held on this device) is offered no Roll button at all.
  rollButton.hidden = mine.size === 0;
  options.replaceChildren();
  options.hidden = !(ours && awaiting?.type === 'choice');
  if (awaiting?.type === 'choice' && ours && !busy) {
    const labels = awaiting.labels ?? [];
    awaiting.options.forEach((_, i) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'option';
      b.dataset.option = String(i);
      // Each option's words are the server's (snl_words::describe_option): where it lands and
      // what it meets, as the terminal says them.
      const label = labels[i] ?? '';
      b.textContent = `${i + 1}: ${label.charAt(0).toUpperCase()}${label.slice(1)}`;
      b.disabled = sent;
      b.addEventListener('click', () => choose(i));
      options.appendChild(b);
    });
  }
  if (view.status === 'open') {
    const open = view.seats.filter((s) => s.open).length;
    status.textContent = `Waiting for ${open} more player${open === 1 ? '' : 's'}: share the invite link.`;
  } else if (view.status === 'over') {
    status.textContent = `Game over${view.ranking[0] ? `: ${view.ranking[0]} won` : ''}.`;
  } else if (seat !== null) {
    const who = seatName(seat);
    const verb = awaiting?.type === 'choice' ? 'choose where to move' : 'roll';
    status.textContent = ours ? (mine.size > 1 ? `${who}'s turn: ${verb}!` : `Your turn, ${who}: ${verb}!`) : `${who} to ${verb}…`;
  }
  status.classList.toggle('yours', ours);
  $('timer').hidden = deadline === null && paused === null;
  // Keyboard hints only for a seat this device holds: a spectator's keys do nothing.
  $('hint').hidden = mine.size === 0;
  const race = $('race');
  race.textContent = view.race ?? '';
  race.hidden = !view.race;
  const series = $('series');
  series.textContent = view.series?.text ?? '';
  series.hidden = !view.series;
  $('chat-form').toggleAttribute('hidden', mine.size === 0);
}

function roll() {
  if (rollButton.disabled || awaiting?.type !== 'roll') return;
  const link = mine.get(awaiting.seat);
  // The awaited input's id: a roll for an input that has passed is refused, not played.
  if (link?.send({ type: 'roll', input: awaiting.input })) {
    sent = true;
    drawControls();
  }
}

/** @param {number} i */
function choose(i) {
  if (awaiting?.type !== 'choice' || sent || i >= awaiting.options.length) return;
  const link = mine.get(awaiting.seat);
  if (link?.send({ type: 'choose', option: i, input: awaiting.input })) {
    sent = true;
    drawControls();
  }
}

/**
 * @param {RoomView} state
 * @param {number | null} [until] when the awaited turn's clock runs out (`Date.now()` time), as
 *   the server's `turn_left_ms` said when the state came in
 */
function adopt(state, until) {
  view = state;
  positions = {};
  for (const s of state.seats) if (s.name) positions[s.name] = s.position;
  awaiting = state.awaiting;
  current = awaiting ? seatName(awaiting.seat) : null;
  showZoom(state.board);
  graceEnds.clear();
  for (const s of state.seats) {
    if (typeof s.grace_left_ms === 'number') graceEnds.set(s.seat, Date.now() + s.grace_left_ms);
  }
  paused = null;
  startClock(until);
  gameEnd = typeof state.game_left_ms === 'number' ? Date.now() + state.game_left_ms : null;
  tickGameClock();
  drawLegend();
  drawFairness();
  syncShields();
  draw();
  follow(current);
  drawPlayers();
  drawControls();
  if (state.status === 'over') showWinner(false);
  const n = state.thrown_dice ?? 1;
  if (!$('dice').children.length) dice.show(Array(n).fill(faces()), faces());
}

/** The shields the seats hold, as the server's `carried` marks say (events move them between). */
function syncShields() {
  shields.clear();
  for (const s of view?.seats ?? []) if (s.name && s.carried?.includes('shield')) shields.add(s.name);
}

/**
 * Restarts the turn clock at `until`, when the turn awaited runs out as the server said it (its
 * state's or awaiting frame's `turn_left_ms`; null: nobody's turn is timed).
 * @param {number | null} [until]
 */
function startClock(until) {
  deadline = until ?? null;
  holdClock();
}

/**
 * Holds the turn clock while the person awaited is in their grace (the server pauses it) and
 * lets it run on from there when they are back for the same input.
 */
function holdClock() {
  const held = awaiting !== null && graceEnds.has(awaiting.seat);
  if (held && deadline !== null && awaiting) {
    paused = { input: awaiting.input, left: Math.max(0, deadline - Date.now()) };
    deadline = null;
  } else if (!held && paused) {
    const seat = awaiting ? view?.seats[awaiting.seat] : undefined;
    if (awaiting?.input === paused.input && seat && !seat.autopilot && !seat.autoplayed) deadline = Date.now() + paused.left;
    paused = null;
  }
  tickClock();
}

/**
 * When the turn clock of a state just received runs out, in `Date.now()` time (null: untimed).
 * @param {Partial<RoomView> | undefined} state
 */
const clockOf = (state) => (typeof state?.turn_left_ms === 'number' ? Date.now() + state.turn_left_ms : null);

function tickClock() {
  const timer = $('timer');
  if (deadline === null && paused) {
    const left = Math.ceil(paused.left / 1000);
    timer.hidden = false;
    timer.textContent = `${clockText(left)} paused`;
    timer.setAttribute('aria-label', `the turn clock is paused with ${left} seconds left while ${awaiting ? seatName(awaiting.seat) : ''} is away`);
    timer.classList.remove('low');
    return;
  }
  if (deadline === null) {
    timer.hidden = true;
    return;
  }
  const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
  timer.hidden = false;
  timer.textContent = clockText(left);
  timer.setAttribute('aria-label', `${left} seconds left for ${awaiting ? seatName(awaiting.seat) : ''}`);
  timer.classList.toggle('low', left <= 5);
}
setInterval(tickClock, 1000);

/**
 * When the game clock runs out, in `Date.now()` time (null: none, not started, or run out).
 * @type {number | null}
 */
let gameEnd = null;

/** Shows the game clock counting down while the room has one running. */
function tickGameClock() {
  const row = $('game-clock-row');
  if (gameEnd === null || view?.status !== 'running') {
    row.hidden = true;
    return;
  }
  const left = Math.max(0, Math.ceil((gameEnd - Date.now()) / 1000));
  row.hidden = false;
  const clock = $('game-clock');
  clock.textContent = clockText(left);
  clock.setAttribute('aria-label', `${left} seconds left in the game`);
}
setInterval(tickGameClock, 1000);

/** The board's legend: each kind of cell on it, its icon, name and meaning (the server's). */
function drawLegend() {
  const entries = view?.legend ?? [];
  $('legend').replaceChildren(...legendItems(entries));
  $('legend-card').hidden = entries.length === 0;
}

/**
 * The room's dice commitment (docs/fairness.md): published before the first roll, the secret
 * behind it revealed when the game is over, with the command that checks every roll.
 */
function drawFairness() {
  const fair = view?.fairness;
  $('fair-card').hidden = !fair;
  if (!fair) return;
  $('fair-commitment').textContent = fair.commitment;
  $('fair-secret-row').hidden = !fair.secret;
  $('fair-secret').textContent = fair.secret ?? '';
  $('fair-check').textContent = `snl verify ${location.origin}/room/${view?.room ?? ''}`;
  $('fair-check-row').hidden = !fair.secret;
  $('fair-hidden-row').hidden = Boolean(fair.secret);
}

/** @param {string} name */
function seatOf(name) {
  return view?.seats.find((s) => s.name === name);
}

/**
 * Shows one event: its words (the server's sentence, as every front end tells it), its
 * animation, then the state after it.
 * @param {import('./plan.js').WireEvent} event
 * @param {string} [text]
 */
async function show(event, text) {
  if (!view) return;
  if (event.type === 'chat') {
    const li = document.createElement('li');
    const who = document.createElement('strong');
    who.textContent = `${event.player}: `;
    li.append(who, String(event.text));
    $('chat').appendChild(li);
    $('chat').scrollTop = $('chat').scrollHeight;
    return;
  }
  if (text) tell(text, event.type);
  const seat = event.player ? seatOf(event.player) : undefined;
  switch (event.type) {
    case 'turn_started':
      current = event.player;
      draw();
      drawPlayers();
      follow(current);
      break;
    case 'presence':
      if (seat) seat.online = event.online;
      else void refresh();
      drawPlayers();
      break;
    case 'autopilot':
      if (seat) seat.autopilot = event.on;
      drawPlayers();
      break;
    case 'grace_started':
      if (seat) graceEnds.set(seat.seat, Date.now() + Number(event.seconds) * 1000);
      holdClock();
      drawPlayers();
      break;
    case 'seat_autoplayed':
    case 'seat_returned':
      if (seat) {
        graceEnds.delete(seat.seat);
        seat.autoplayed = event.type === 'seat_autoplayed';
      }
      holdClock();
      drawPlayers();
      drawControls();
      break;
    case 'shield_gained':
      shields.add(event.player);
      break;
    case 'shield_used':
      shields.delete(event.player);
      break;
    case 'player_finished':
      if (seat) seat.rank = event.rank;
      break;
    case 'time_up':
      gameEnd = null;
      tickGameClock();
      break;
    case 'game_ended':
      view.status = 'over';
      view.ranking = event.ranking;
      awaiting = null;
      current = null;
      deadline = null;
      // The game clock stops with the game: hidden at once, not at its next tick.
      gameEnd = null;
      tickGameClock();
      break;
    default:
      break;
  }
  const speed = catchUpSpeed(queue.length);
  const planned = planEvent(view.board, positions, event, { reduced: reducedMotion.matches, speed, faces: faces() });
  if (speed !== Infinity) {
    for (const beat of planned.beats) {
      if (beat.kind === 'win' && !reducedMotion.matches) continue; // celebrated with the banner
      await playBeat(svg, view.board, beat, {
        sound: playSound,
        dice: (b) => dice.roll(b.dice, b.faces, b.ms),
      });
    }
  } else {
    for (const beat of planned.beats) if (beat.kind === 'dice') dice.show(beat.dice, beat.faces);
  }
  positions = planned.after;
  if (seat && event.type !== 'presence') seat.position = positions[event.player] ?? seat.position;
  draw();
  if (['moved', 'snake', 'ladder', 'wormhole', 'turn_voided', 'player_finished', 'shield_gained', 'shield_used', 'game_ended'].includes(event.type)) drawPlayers();
  if (event.type === 'game_ended') {
    showWinner(true);
  }
}

/** @param {boolean} fresh whether the game just ended here (celebrate) */
function showWinner(fresh) {
  if (!view) return;
  const first = view.ranking[0];
  $('winner-title').textContent = first ? `${first} wins!` : 'Game over';
  const list = $('ranking');
  list.replaceChildren(...view.ranking.map((name) => {
    const li = document.createElement('li');
    li.textContent = name;
    return li;
  }));
  $('winner').hidden = false;
  drawEarned();
  drawSeries();
  drawControls();
  if (fresh) {
    playSound('win');
    if (!reducedMotion.matches) void celebrate(svg, view.board, 2600);
    if (!isLocal) void fetchEnd();
  }
}

/**
 * The series code (series.js), loaded only by a room that plays a game of a series.
 * @type {Promise<typeof import('./series.js')> | null}
 */
let seriesCode = null;
const seriesJs = () => (seriesCode ??= import('./series.js'));

/** Where the series stands on the end card, once the room plays a game of one. */
function drawSeries() {
  const series = view?.series;
  if (series) void seriesJs().then((m) => m.drawSeries(series, view?.status === 'over'));
}

/** What the game earned each seat, as the server words it (`awards` of the state: snl_words::earned). */
function drawEarned() {
  const earned = view?.awards ?? [];
  const list = $('earned');
  list.replaceChildren(...earned.map((a) => {
    const li = document.createElement('li');
    const name = view?.seats.find((s) => s.seat === a.seat)?.name ?? `Seat ${a.seat + 1}`;
    // Not data-player: that names a token wherever it is on the page.
    li.dataset.earner = name;
    li.dataset.key = a.achievement;
    li.textContent = `${name} — ${a.text}`;
    return li;
  }));
  $('earned-card').hidden = earned.length === 0;
}

/**
 * At the end of a game watched live, the room's state says what it earned, where its series
 * stands and the dice's secret.
 */
async function fetchEnd() {
  try {
    const state = await api(`/api/rooms/${encodeURIComponent(room)}`);
    if (view) Object.assign(view, { awards: state.awards, series: state.series, fairness: state.fairness });
    drawEarned();
    drawSeries();
    drawFairness();
  } catch {
    // Nothing more to show: the ranking is there.
  }
  document.body.dataset.earned = 'true';
}

/** Takes the queued frames one at a time, each after the last one's animation. */
async function pump() {
  if (pumping) return;
  pumping = true;
  try {
    while (queue.length > 0) {
      const item = /** @type {Item} */ (queue.shift());
      if (item.kind === 'event') {
        await show(item.event, item.text);
      } else if (item.kind === 'awaiting') {
        // Counted, so that a test (or anything watching) knows a new input is awaited.
        document.body.dataset.awaited = String(Number(document.body.dataset.awaited ?? 0) + 1);
        awaiting = item.awaiting;
        sent = false;
        // The seats' words and the race's line after this input, as the server says them.
        if (view && item.seats) item.seats.forEach((line, i) => { if (view?.seats[i]) Object.assign(view.seats[i], { carried: [], ...line }); });
        if (view && item.race !== undefined) view.race = item.race;
        syncShields();
        if (view && item.series) {
          view.series = item.series;
          drawSeries();
        }
        if (awaiting) current = seatName(awaiting.seat);
        if (view && awaiting && view.status === 'open') void refresh();
        startClock(item.until);
        draw();
        drawPlayers();
      } else {
        adopt(/** @type {RoomView} */ (item.frame.state), item.until);
      }
    }
  } finally {
    pumping = false;
    drawControls();
    document.body.dataset.idle = 'true';
  }
}

/** @param {Item} item */
function enqueue(item) {
  document.body.dataset.idle = 'false';
  queue.push(item);
  void pump();
}

/** Reads the room's state again (seats taken while it was open). */
async function refresh() {
  try {
    const state = await api(`/api/rooms/${encodeURIComponent(room)}`);
    if (view && view.status === 'open') enqueue({ kind: 'welcome', frame: { type: 'welcome', state }, until: clockOf(state) });
  } catch {
    // The next frame tries again.
  }
}

/**
 * Frames from the connection that drives the page.
 * @param {Frame} f
 */
function onFrame(f) {
  if (f.type === 'event' && f.past) {
    tellPast(f.event, f.text);
    return;
  }
  if (f.type === 'welcome' && !f.resumed) $('earlier-log').replaceChildren();
  if (f.type === 'welcome') {
    // A resumed connection's missed events follow its welcome: only a fresh one replaces the
    // state; a resumed one says what is awaited now (awaiting frames are not sent again).
    const until = clockOf(f.state);
    if (!f.resumed) enqueue({ kind: 'welcome', frame: f, until });
    else enqueue({ kind: 'awaiting', awaiting: f.state.awaiting, until, seats: f.state.seats, race: f.state.race ?? null });
  } else if (f.type === 'event') {
    enqueue({ kind: 'event', seq: f.seq, event: f.event, text: f.text });
  } else if (f.type === 'awaiting') {
    // The turn's time left is the server's (absent: nobody's turn is timed).
    const until = typeof f.turn_left_ms === 'number' ? Date.now() + f.turn_left_ms : null;
    enqueue({ kind: 'awaiting', awaiting: f.awaiting, until, seats: f.seats, race: f.race ?? null, series: f.series ?? null });
  } else if (f.type === 'next') {
    // The series' next game is open: every page of this room goes on there.
    void seriesJs().then((m) => m.goNext(room, f.room));
  } else if (f.type === 'error') {
    sent = false;
    document.body.dataset.refused = String(Number(document.body.dataset.refused ?? 0) + 1);
    tell(f.message, 'error');
    drawControls();
  }
}

/**
 * Tells an event from before the page came (or a chat line) in the log's "Earlier in this game",
 * which is not a live region: the page does not read the past aloud.
 * @param {import('./plan.js').WireEvent} event
 * @param {string} [text] its sentence, as the server sent it
 */
function tellPast(event, text) {
  const list = $('earlier-log');
  const line = document.createElement('p');
  if (event.type === 'chat') {
    const who = document.createElement('strong');
    who.textContent = `${event.player}: `;
    line.append(who, String(event.text));
    line.className = 'chat';
  } else {
    // Who came and went then is not the game's story.
    if (event.type === 'presence') return;
    if (!text) return;
    line.textContent = text;
    line.className = event.type;
  }
  list.appendChild(line);
  while (list.children.length > 500) list.firstElementChild?.remove();
  const details = /** @type {HTMLDetailsElement} */ ($('earlier'));
  details.hidden = false;
  $('earlier-count').textContent = String(list.children.length);
}

/** Connects: the first seat held drives the page; other seats held only send their intents. */
function start() {
  const tokens = heldTokens(room);
  let driver = false;
  /** @param {string | null} token */
  const open = (token) => {
    const drives = !driver;
    driver = true;
    /** @type {number | null} */
    let seat = null;
    const link = connect(room, token, (f) => {
      if (f.type === 'welcome' && f.seat !== null && f.seat !== undefined) {
        seat = f.seat;
        mine.set(f.seat, link);
        if (!drives) {
          drawPlayers();
          drawControls();
        }
      }
      if (f.type === 'error' && f.code === 'bad_token' && token) {
        dropToken(room, token);
        link.close();
        if (drives) location.reload();
        return;
      }
      if (drives) onFrame(f);
      else if (f.type === 'error') onFrame(f);
    }, (up) => {
      if (!up && seat !== null) mine.delete(seat);
      if (drives) document.body.dataset.online = String(up);
    }, drives);
  };
  if (tokens.length === 0) open(null);
  for (const t of tokens) open(t);
}

/** Plays the game on this device: every person's seat is held here, the engine answers. */
async function startLocal() {
  const { playHere, replaying } = await import('./local.js');
  $('invite').hidden = true;
  $('chat-title').closest('section')?.setAttribute('hidden', '');
  const again = $('watch-again');
  again.hidden = false;
  again.addEventListener('click', () => {
    location.hash = 'replay';
    location.reload();
  });
  document.body.dataset.online = 'true';
  playHere(onFrame, (seats, link) => {
    for (const seat of seats) mine.set(seat, link);
  }, () => document.body.dataset.idle === 'true' && !pumping && queue.length === 0).catch((e) => {
    $('status').textContent = /** @type {Error} */ (e).message;
  });
  if (replaying) $('status').textContent = 'Watching the game again…';
}

/** Scrolls a zoomed board to the token of `name`. */
function follow(/** @type {string | null} */ name) {
  if (!name || !svg.classList.contains('zoomable')) return;
  const token = tokenSpace(svg).querySelector(`:scope > .token[data-player="${CSS.escape(name)}"]`);
  const wrap = $('board-wrap');
  if (!token) return;
  const box = token.getBoundingClientRect();
  const outer = wrap.getBoundingClientRect();
  wrap.scrollBy({ left: box.left - outer.left - outer.width / 2, top: box.top - outer.top - outer.height / 2 });
}

// Controls.
rollButton.addEventListener('click', roll);
$('next-game').addEventListener('click', () => void seriesJs().then((m) => m.openNext(room, tell)));
document.addEventListener('keydown', (e) => {
  const target = /** @type {HTMLElement} */ (e.target);
  if (target.closest('input, textarea, select, button, a, [contenteditable]') || e.altKey || e.ctrlKey || e.metaKey) return;
  if (e.key === ' ' || e.key === 'Enter') {
    e.preventDefault();
    roll();
  } else if (/^[1-9]$/.test(e.key)) {
    choose(Number(e.key) - 1);
  }
});
$('chat-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const input = /** @type {HTMLInputElement} */ ($('chat-text'));
  const text = input.value.trim();
  const link = mine.values().next().value;
  if (text && link?.send({ type: 'chat', text })) input.value = '';
});
$('invite').addEventListener('click', () => shareLink($('invite'), `${location.origin}/room/${encodeURIComponent(room)}`, 'Join my game of Snakes & Ladders'));
const soundButton = $('sound');
const drawSound = () => {
  soundButton.setAttribute('aria-pressed', String(soundOn()));
  soundButton.textContent = soundOn() ? 'Sound on' : 'Sound off';
};
soundButton.addEventListener('click', () => {
  setSound(!soundOn());
  drawSound();
});
$('winner-close').addEventListener('click', () => { $('winner').hidden = true; });
drawSound();
armSound();
document.title = isLocal ? 'Snakes and Ladders — on this device' : `Snakes and Ladders — room ${room}`;
if (isLocal) void startLocal();
else start();
