// The live odds beside a room's board: each player's exact chance to win from where the tokens
// stand and the fewest rolls each still needs (GET /api/rooms/{room}/odds). It asks again each
// time the room page has shown what it received (the page marks itself idle), so the odds follow
// every move without touching the page's own code. A room on a board with cell effects, or a race,
// gets no odds from the server (played, not analysed yet): the panel says so and never asks.

import { tokenIcon } from './board.js';

const room = decodeURIComponent(location.pathname.split('/')[2] ?? '');
const list = /** @type {HTMLOListElement | null} */ (document.getElementById('odds'));
/** The last event the shown odds were worked out after. */
let shown = -1;
let asking = false;
let again = false;

/** @param {any} odds */
function draw(odds) {
  if (!list) return;
  list.dataset.seq = String(odds.seq);
  list.replaceChildren(...odds.seats.map((/** @type {any} */ s) => {
    const li = document.createElement('li');
    li.dataset.seat = String(s.seat);
    li.dataset.win = s.win === null ? '' : String(s.win);
    const name = document.createElement('span');
    name.textContent = s.name ?? `Seat ${s.seat + 1}`;
    const fewest = s.fewest_rolls === null ? 'cannot finish' : s.fewest_rolls === 0 ? 'finished' : `${s.fewest_rolls} roll${s.fewest_rolls === 1 ? '' : 's'} at best`;
    const value = document.createElement('span');
    value.className = 'num';
    value.textContent = s.win === null ? '—' : `${(s.win * 100).toFixed(1)}%`;
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
    const response = await fetch(`/api/rooms/${encodeURIComponent(room)}/odds`);
    if (response.ok) {
      const odds = await response.json();
      if (odds.seq !== shown) {
        shown = odds.seq;
        draw(odds);
      }
    }
  } catch {
    // The next move asks again.
  } finally {
    asking = false;
    if (again) { again = false; void ask(); }
  }
}

/**
 * Whether the server works out odds for this room: not on a board with cell effects nor in a race
 * (played, not analysed yet), where the panel says so instead of asking.
 */
async function analysable() {
  try {
    const response = await fetch(`/api/rooms/${encodeURIComponent(room)}`);
    if (!response.ok) return true;
    const state = await response.json();
    const effects = (state.board?.cell ?? []).length > 0;
    const race = Boolean(state.rules?.mode) && state.rules.mode !== 'classic';
    if (!effects && !race && list) return true;
    const note = document.createElement('li');
    note.className = 'odds-none';
    note.textContent = `No odds here: ${effects ? 'boards with cell effects' : 'races'} are played, not analysed yet.`;
    list?.replaceChildren(note);
    return false;
  } catch {
    return true;
  }
}

if (list && room) {
  void analysable().then((yes) => {
    if (!yes) return;
    new MutationObserver(() => {
      if (document.body.dataset.idle === 'true') void ask();
    }).observe(document.body, { attributes: true, attributeFilter: ['data-idle'] });
    void ask();
  });
}
