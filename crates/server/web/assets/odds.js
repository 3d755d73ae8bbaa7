// The live odds beside a room's board: each player's exact chance to win from where the tokens
// stand and the fewest rolls each still needs (GET /api/rooms/{room}/odds). It asks again each
// time the room page has shown what it received (the page marks itself idle), so the odds follow
// every move without touching the page's own code. For the game on this device (/local) the
// engine in the page answers instead (engine.js). The page decides nothing about which games can
// be analysed: the server answers for every board and rule it plays (cell effects and races
// included), and when it cannot, the panel shows the server's own sentence.

import { tokenIcon } from './board.js';

/** Whether the room page shows the game on this device (room.js, which runs first, says so). */
const isLocal = document.body.dataset.local === 'true';

const room = isLocal ? 'local' : decodeURIComponent(location.pathname.split('/')[2] ?? '');
const list = /** @type {HTMLOListElement | null} */ (document.getElementById('odds'));
/** The last event the shown odds were worked out after. */
let shown = -1;
let asking = false;
let again = false;

/** @param {any} odds */
function draw(odds) {
  if (list) drawOdds(list, odds);
}

/**
 * Draws `odds` (an answer of the odds endpoints) into `list`: each seat's chance and fewest rolls.
 * @param {HTMLElement} list
 * @param {any} odds
 */
export function drawOdds(list, odds) {
  list.dataset.seq = String(odds.seq);
  list.replaceChildren(...odds.seats.map((/** @type {any} */ s) => {
    const li = document.createElement('li');
    li.dataset.seat = String(s.seat);
    li.dataset.win = s.win === null ? '' : String(s.win);
    const name = document.createElement('span');
    name.textContent = s.name ?? `Seat ${s.seat + 1}`;
    const fewest = s.fewest;
    const value = document.createElement('span');
    value.className = 'num';
    value.textContent = s.chance ?? '—';
    value.title = fewest;
    const bar = document.createElement('span');
    bar.className = 'bar';
    const fill = document.createElement('span');
    fill.style.width = `${((s.win ?? 0) * 100).toFixed(1)}%`;
    bar.append(fill);
    const note = document.createElement('small');
    note.className = 'fewest';
    note.textContent = fewest;
    li.append(tokenIcon(s.seat, s.name ?? `${s.seat + 1}`), name, value, bar, note);
    return li;
  }));
}

async function ask() {
  if (asking) { again = true; return; }
  asking = true;
  try {
    if (isLocal) {
      // The game on this device: the engine in the page works the odds out.
      const { localOdds } = await import('./engine.js');
      const odds = await localOdds().catch((e) => {
        showNone(`No odds here: ${/** @type {Error} */ (e).message}`);
        return null;
      });
      if (odds && odds.seq !== shown) {
        shown = odds.seq;
        draw(odds);
      }
      return;
    }
    const response = await fetch(`/api/rooms/${encodeURIComponent(room)}/odds`);
    if (response.ok) {
      const odds = await response.json();
      if (odds.seq !== shown) {
        shown = odds.seq;
        draw(odds);
      }
    } else if (response.status !== 404 && response.status < 500) {
      await refused(response);
    }
  } catch {
    // The next move asks again.
  } finally {
    asking = false;
    if (again) { again = false; void ask(); }
  }
}

/**
 * Shows the server's sentence in the panel, when it gives no odds.
 * @param {Response} response
 */
async function refused(response) {
  if (!list) return;
  let message = `No odds here (the server answered ${response.status}).`;
  try {
    const body = await response.json();
    if (typeof body?.error?.message === 'string') message = `No odds here: ${body.error.message}`;
  } catch {
    // The status alone, then.
  }
  showNone(message);
}

/** @param {string} message why the panel shows no odds */
function showNone(message) {
  if (!list) return;
  const note = document.createElement('li');
  note.className = 'odds-none';
  note.textContent = message;
  list.replaceChildren(note);
}

if (list && room) {
  new MutationObserver(() => {
    if (document.body.dataset.idle === 'true') void ask();
  }).observe(document.body, { attributes: true, attributeFilter: ['data-idle'] });
  void ask();
}
