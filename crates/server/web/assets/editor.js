// The board editor (/editor): snakes, ladders and cell effects (skip, extra roll, shield, a
// wormhole and its exits) placed by clicking cells, the board checked by
// the server as it changes (every problem the validator lists), its exact analysis (expected
// length, each seat's chance to win, the fewest rolls with one shortest path drawn on the board),
// downloaded as a board file (TOML) or played at once in a new room.

import { el, render, tokenIcon, tokenLayer } from './board.js';
import { center, frame } from './geometry.js';
import { api, takeSeat } from './net.js';
import { zoomer } from './zoom.js';
import { boardCheck, checkBoardFile } from './engine.js';

/**
 * @typedef {import('./geometry.js').BoardJson} BoardJson
 * @typedef {import('./geometry.js').CellSpec} CellSpec
 */

/** The tools that put an effect on a cell (SPEC §3b). */
const EFFECT_TOOLS = ['skip', 'extra', 'shield', 'wormhole'];

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
const input = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ ($(id));
const svg = /** @type {SVGSVGElement} */ (/** @type {unknown} */ ($('board')));
const zoom = zoomer(svg, $('board-wrap'), $('zoom'));

/** @type {{size: number, snake: {head: number, tail: number}[], ladder: {foot: number, top: number}[], cell: CellSpec[]}} */
const board = { size: 100, snake: [], ladder: [], cell: [] };
/** The first cell of a jump being placed, or the wormhole whose exits are being placed. @type {number | null} */
let picked = null;
/** Checks sent, to drop answers that came back late. */
let asked = 0;
/** @type {any} */
let answer = null;

const tool = () => /** @type {HTMLInputElement} */ (document.querySelector('input[name="tool"]:checked')).value;
const rules = () => /** @type {HTMLSelectElement} */ ($('rules')).value;
const seats = () => Number(/** @type {HTMLSelectElement} */ ($('seats')).value);

/** The board as the server takes it: only what is there. @returns {BoardJson} */
function boardJson() {
  /** @type {BoardJson} */
  const json = { size: board.size };
  if (board.snake.length) json.snake = board.snake.map((s) => ({ ...s }));
  if (board.ladder.length) json.ladder = board.ladder.map((l) => ({ ...l }));
  if (board.cell.length) {
    json.cell = [...board.cell]
      .sort((a, b) => a.at - b.at)
      .map((c) => (c.effect === 'wormhole' ? { at: c.at, effect: c.effect, exits: [...(c.exits ?? [])] } : { at: c.at, effect: c.effect }));
  }
  return json;
}

/** Draws the board, the picked cell and the shortest path of the last answer. */
function draw() {
  // Only cells on the board are drawn; jumps that leave it are told as problems.
  const shown = boardJson();
  const inside = (/** @type {number} */ c) => c >= 1 && c <= shown.size;
  shown.snake = (shown.snake ?? []).filter((s) => inside(s.head) && inside(s.tail) && s.head !== s.tail);
  shown.ladder = (shown.ladder ?? []).filter((l) => inside(l.foot) && inside(l.top) && l.foot !== l.top);
  shown.cell = (shown.cell ?? []).filter((c) => inside(c.at));
  render(svg, shown, []);
  zoom.show(shown);
  for (const g of svg.querySelectorAll('.cell.picked')) g.classList.remove('picked');
  if (picked !== null) svg.querySelector(`.cell[data-cell="${picked}"]`)?.classList.add('picked');
  // The path is drawn on the layer over the board (where tokens go), so it never hides a cell.
  const overlay = /** @type {SVGGElement} */ (tokenLayer(svg).querySelector('g.overlay'));
  overlay.replaceChildren();
  const f = frame(shown);
  // Each wormhole's exits: a dashed line from the wormhole to a ring on each exit.
  for (const c of shown.cell ?? []) {
    const exits = (c.exits ?? []).filter(inside);
    if (c.effect !== 'wormhole' || !exits.length) continue;
    const from = center(c.at, f);
    const g = el('g', { class: 'wormhole-exits', 'data-from': c.at, 'data-exits': exits.join(' ') }, overlay);
    for (const exit of exits) {
      const to = center(exit, f);
      el('line', { x1: from.x, y1: from.y, x2: to.x, y2: to.y, class: 'exit-line' }, g);
      el('circle', { cx: to.x, cy: to.y, r: 24, class: 'exit-ring' }, g);
    }
  }
  const path = answer?.valid && Array.isArray(answer.path) && answer.size === board.size ? answer.path : null;
  if (path) {
    const points = path.map((/** @type {number} */ c) => center(c, f));
    const d = points.map((/** @type {{x: number, y: number}} */ p, /** @type {number} */ i) => `${i ? 'L' : 'M'}${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join('');
    el('path', { d, class: 'best-path' }, overlay);
    for (const p of points) el('circle', { cx: p.x, cy: p.y, r: 9, class: 'best-stop' }, overlay);
    overlay.setAttribute('data-path', path.join(' '));
  }
}

/** @param {number} p */
const percent = (p) => `${(p * 100).toFixed(1)}%`;
/** @param {number | null | undefined} x @param {number} [digits] */
const num = (x, digits = 2) => (x === null || x === undefined ? '∞' : Number(x).toFixed(digits));

/** Shows the server's answer. @param {any} a */
function showAnswer(a) {
  answer = a;
  $('verdict').textContent = a.message;
  $('verdict').className = `status ${a.valid ? (a.playable ? 'ok' : 'warn') : 'bad'}`;
  const problems = $('problems');
  problems.replaceChildren(...a.problems.map((/** @type {string} */ p) => {
    const li = document.createElement('li');
    li.textContent = p;
    return li;
  }));
  // Boards with effects are played but not analysed by the server: no numbers rather than wrong ones.
  const analysed = a.valid && !a.analysis_error;
  $('analysis').hidden = !analysed;
  $('not-analysed').hidden = !(a.valid && a.analysis_error);
  $('not-analysed').textContent = a.valid && a.analysis_error ? `Not analysed: ${a.analysis_error}` : '';
  const chances = $('chances');
  chances.replaceChildren();
  if (analysed) {
    $('min-rolls').textContent = a.min_rolls === null ? 'unreachable' : String(a.min_rolls);
    $('expected').textContent = num(a.expected_turns);
    $('median').textContent = a.median_turns === null ? '—' : String(a.median_turns);
    $('game-rolls').textContent = num(a.expected_game_rolls, 1);
    (a.win_probability ?? []).forEach((/** @type {number} */ p, /** @type {number} */ seat) => {
      const li = document.createElement('li');
      li.dataset.seat = String(seat);
      li.dataset.win = String(p);
      const label = document.createElement('span');
      label.textContent = `Seat ${seat + 1}`;
      const value = document.createElement('span');
      value.className = 'num';
      value.textContent = percent(p);
      const bar = document.createElement('span');
      bar.className = 'bar';
      const fill = document.createElement('span');
      fill.style.width = percent(p);
      bar.append(fill);
      li.append(tokenIcon(seat, `${seat + 1}`), label, value, bar);
      chances.append(li);
    });
  }
  /** @type {HTMLButtonElement} */ ($('open')).disabled = !(a.valid && a.playable);
  draw();
}

/** Checks the board as it is now: the engine in the page (engine.wasm) finds its problems and
 * works out its exact analysis, as POST /api/boards/check would (no server needed). */
async function check() {
  const mine = ++asked;
  document.body.dataset.checked = 'false';
  try {
    const a = await boardCheck({ board: boardJson(), rules: rules(), seats: seats() });
    if (mine !== asked) return;
    showAnswer(a);
  } catch (e) {
    if (mine !== asked) return;
    showAnswer({ valid: false, playable: false, message: 'The board cannot be checked.', problems: [String(/** @type {Error} */ (e).message)] });
  }
  document.body.dataset.checked = String(mine);
}

let timer = 0;
/** Checks again shortly (typing a size does not send a check per key). */
function changed() {
  draw();
  clearTimeout(timer);
  document.body.dataset.checked = 'false';
  timer = window.setTimeout(check, 120);
}

/** Removes every jump that starts or ends on `cell`, its effect, and any wormhole exit to it. @param {number} cell */
function erase(cell) {
  board.snake = board.snake.filter((s) => s.head !== cell && s.tail !== cell);
  board.ladder = board.ladder.filter((l) => l.foot !== cell && l.top !== cell);
  board.cell = board.cell.filter((c) => c.at !== cell);
  for (const c of board.cell) if (c.exits) c.exits = c.exits.filter((e) => e !== cell);
}

/** The effect on `cell`, if any. @param {number} cell */
const effectAt = (cell) => board.cell.find((c) => c.at === cell);

/**
 * Puts effect `what` on `cell` (replacing another effect there), or takes it away when the cell
 * has it already. A wormhole is picked, so that the next clicks place its exits.
 * @param {string} what
 * @param {number} cell
 */
function placeEffect(what, cell) {
  const there = effectAt(cell);
  if (what === 'wormhole') {
    if (picked !== null) {
      const hole = effectAt(picked);
      if (cell === picked || !hole) {
        picked = null;
      } else {
        const exits = hole.exits ?? [];
        hole.exits = exits.includes(cell) ? exits.filter((e) => e !== cell) : [...exits, cell];
      }
      return;
    }
    if (there?.effect !== 'wormhole') {
      board.cell = board.cell.filter((c) => c.at !== cell);
      board.cell.push({ at: cell, effect: 'wormhole', exits: [] });
    }
    picked = cell;
    return;
  }
  board.cell = board.cell.filter((c) => c.at !== cell);
  if (there?.effect !== what) board.cell.push({ at: cell, effect: what });
  picked = null;
}

/** @param {number} cell */
function clickCell(cell) {
  const what = tool();
  if (what === 'erase') {
    erase(cell);
    picked = null;
  } else if (EFFECT_TOOLS.includes(what)) {
    placeEffect(what, cell);
  } else if (picked === null) {
    picked = cell;
  } else if (picked === cell) {
    picked = null;
  } else {
    if (what === 'snake') board.snake.push({ head: picked, tail: cell });
    else board.ladder.push({ foot: picked, top: cell });
    picked = null;
  }
  hint();
  changed();
}

/** @type {Record<string, string>} */
const EFFECT_HINTS = {
  skip: 'Click a cell: a token that stops there misses its next turn (click again to take it away).',
  extra: 'Click a cell: a token that stops there rolls once more (click again to take it away).',
  shield: 'Click a cell: a token that stops there gains a shield against the next snake (click again to take it away).',
};

function hint() {
  const what = tool();
  $('hint').textContent = what === 'erase'
    ? 'Click a cell to take away every snake, ladder and effect that starts or ends there.'
    : what === 'wormhole'
      ? (picked === null
        ? 'Click the cell of a wormhole (a new one, or one to change), then the cells it may lead to.'
        : `Wormhole ${picked}: click the cells it may lead to (click one again to take it away); click ${picked} when done.`)
      : EFFECT_HINTS[what] ?? (picked === null
      ? (what === 'snake' ? 'Click the cell where a snake’s head goes, then the cell of its tail.' : 'Click the cell where a ladder’s foot goes, then the cell of its top.')
      : `From cell ${picked}: now click where the ${what === 'snake' ? 'snake’s tail' : 'ladder’s top'} goes.`);
}

/** The board file (SPEC §4) as TOML. */
function toml() {
  const lines = [`# Made in the snl board editor.`, `size = ${board.size}`];
  for (const s of board.snake) lines.push('', '[[snake]]', `head = ${s.head}`, `tail = ${s.tail}`);
  for (const l of board.ladder) lines.push('', '[[ladder]]', `foot = ${l.foot}`, `top = ${l.top}`);
  for (const c of boardJson().cell ?? []) {
    lines.push('', '[[cell]]', `at = ${c.at}`, `effect = "${c.effect}"`);
    if (c.effect === 'wormhole') lines.push(`exits = [${(c.exits ?? []).join(', ')}]`);
  }
  if (rules() !== 'standard' && answer?.rules) {
    lines.push('', '[rules]');
    for (const [k, v] of Object.entries(answer.rules)) lines.push(`${k} = ${JSON.stringify(String(v))}`);
  }
  return `${lines.join('\n')}\n`;
}

function download() {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([toml()], { type: 'text/plain' }));
  link.download = 'board.toml';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

/**
 * Opens a board file (TOML, or a board as JSON): read by the engine as `snl board validate` reads
 * it. A file with problems is shown with them, as that command lists them; a valid one is put on
 * the board to edit.
 */
async function openFile() {
  const file = input('board-file').files?.[0];
  if (!file) return;
  const mine = ++asked;
  document.body.dataset.checked = 'false';
  try {
    const text = await file.text();
    /** @type {any} */
    let read;
    if (text.trim().startsWith('{')) read = { valid: true, board: JSON.parse(text) };
    else read = await checkBoardFile(text);
    if (mine !== asked) return;
    if (!read.valid) {
      showAnswer({ valid: false, playable: false, message: `${file.name} is not a valid board file.`, problems: read.problems });
      document.body.dataset.checked = String(mine);
      return;
    }
    board.size = read.board.size;
    board.snake = read.board.snake ?? [];
    board.ladder = read.board.ladder ?? [];
    board.cell = read.board.cell ?? [];
    input('size').value = String(board.size);
    picked = null;
    changed();
  } catch (e) {
    showAnswer({ valid: false, playable: false, message: `${file.name} cannot be read.`, problems: [String(/** @type {Error} */ (e).message)] });
    document.body.dataset.checked = String(mine);
  }
}

/** Opens a room on this board: you in the first seat, hard computers in the others. */
async function openRoom(/** @type {SubmitEvent} */ e) {
  e.preventDefault();
  $('use-error').textContent = '';
  try {
    const others = Array.from({ length: seats() - 1 }, () => ({ kind: 'hard' }));
    const made = await api('/api/rooms', { board: boardJson(), rules: rules(), seats: [{ kind: 'human' }, ...others] });
    // Unnamed, the first seat is "You", as every front end names it (snl_words::seat_default_name).
    const name = input('name').value.trim() || 'You';
    const seat = await takeSeat(made.room, 0, name);
    location.href = `/room/${encodeURIComponent(made.room)}#token=${encodeURIComponent(seat.token)}`;
  } catch (err) {
    $('use-error').textContent = err instanceof TypeError
      ? 'Rooms need the snl server, which cannot be reached from here: download the board file instead.'
      : String(/** @type {Error} */ (err).message);
  }
}

svg.addEventListener('click', (e) => {
  const cell = /** @type {Element} */ (e.target).closest('[data-cell]');
  const n = Number(cell?.getAttribute('data-cell'));
  if (n >= 1) clickCell(n);
});
input('size').addEventListener('input', () => {
  const n = Math.round(Number(input('size').value));
  if (!(n >= 2 && n <= 1000)) return;
  board.size = n;
  picked = null;
  changed();
});
for (const id of ['rules', 'seats']) $(id).addEventListener('change', changed);
for (const radio of document.querySelectorAll('input[name="tool"]')) radio.addEventListener('change', () => { picked = null; hint(); draw(); });
$('clear').addEventListener('click', () => { board.snake = []; board.ladder = []; board.cell = []; picked = null; changed(); });
$('download').addEventListener('click', download);
$('board-file').addEventListener('change', () => void openFile());
$('open-room').addEventListener('submit', (e) => void openRoom(/** @type {SubmitEvent} */ (e)));

draw();
void check();
