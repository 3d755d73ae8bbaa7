// Long on purpose: the whole board drawing (cells, snakes, ladders, effects, the token layer) in one module, so one render diffs one SVG.
// The board as SVG: cells numbered boustrophedon, snakes with curved bodies and heads, ladders
// with rails and rungs, effect cells with icons, and the tokens (a colour AND a shape per player).
// `render(svg, board, tokens)` draws the board once per board and diffs the tokens on every call,
// so callers simply render the state they have (the editor and the replay pages reuse it).
// Tokens are HTML boxes (each with its small SVG) on a layer scaled to the board's drawing, so a
// moving token is a transform the compositor animates: no repaint of any SVG while it moves.

import {
  CELL, TRAY, center, cellCorner, crowdOffset, frame, jumps, ladderGeometry, mix, smoothPath,
  snakePoints,
} from './geometry.js';

const NS = 'http://www.w3.org/2000/svg';

/**
 * @typedef {import('./geometry.js').BoardJson} BoardJson
 * @typedef {{name: string, position: number, seat: number}} Token
 * @typedef {{current?: string | null, shields?: Set<string>}} RenderOptions
 */

/** Token colours: each reads on the light cells (contrast ≥ 3:1) and differs by shape too. */
export const COLOURS = ['#c81d3a', '#1f5fd1', '#b86e00', '#0b7d4a', '#7a3db8', '#c2410c', '#0e7490', '#be185d'];
/** Shape names, in the same order as their paths in SHAPES. */
export const SHAPE_NAMES = ['circle', 'square', 'triangle', 'diamond', 'star', 'hexagon', 'pentagon', 'cross'];

/** @param {number} n @param {number} r @param {number} [turn] */
function polygon(n, r, turn = -Math.PI / 2) {
  const pts = [];
  for (let i = 0; i < n; i++) {
    const a = turn + (i * 2 * Math.PI) / n;
    pts.push(`${(Math.cos(a) * r).toFixed(2)} ${(Math.sin(a) * r).toFixed(2)}`);
  }
  return `M${pts.join('L')}Z`;
}

function star() {
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    const r = i % 2 === 0 ? 1.05 : 0.48;
    pts.push(`${(Math.cos(a) * r).toFixed(2)} ${(Math.sin(a) * r).toFixed(2)}`);
  }
  return `M${pts.join('L')}Z`;
}

/** Each shape as a path in a box of radius about 1 around the origin. */
export const SHAPES = [
  'M-0.9 0A0.9 0.9 0 1 0 0.9 0A0.9 0.9 0 1 0 -0.9 0Z',
  'M-0.8 -0.8H0.8V0.8H-0.8Z',
  'M0 -1L0.95 0.75H-0.95Z',
  'M0 -1L0.95 0L0 1L-0.95 0Z',
  star(),
  polygon(6, 0.95),
  polygon(5, 0.98),
  'M-0.32 -0.95H0.32V-0.32H0.95V0.32H0.32V0.95H-0.32V0.32H-0.95V-0.32H-0.32Z',
];

/** @param {number} seat */
export function colourOf(seat) {
  return COLOURS[seat % COLOURS.length];
}

/** @param {number} seat */
export function shapeOf(seat) {
  return SHAPES[seat % SHAPES.length];
}

/** @param {number} seat */
export function shapeName(seat) {
  return SHAPE_NAMES[seat % SHAPE_NAMES.length];
}

/**
 * An SVG element with attributes.
 * @param {string} tag
 * @param {Record<string, string | number>} [attrs]
 * @param {Element} [parent]
 * @returns {SVGElement}
 */
export function el(tag, attrs = {}, parent) {
  const node = /** @type {SVGElement} */ (document.createElementNS(NS, tag));
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

/**
 * A token's drawing: its shape in its colour with the player's initial.
 * @param {number} seat
 * @param {string} name
 * @param {Element} parent
 */
export function tokenBody(seat, name, parent) {
  const g = el('g', { class: 'token-body' }, parent);
  el('ellipse', { cx: 3, cy: 26, rx: 24, ry: 8, class: 'token-shadow' }, g);
  el('path', { d: shapeOf(seat), transform: 'scale(30)', fill: colourOf(seat), class: 'token-shape' }, g);
  const letter = el('text', { class: 'token-letter', y: 1 }, g);
  letter.textContent = (name.trim()[0] ?? '?').toUpperCase();
  return g;
}

/**
 * A small standalone SVG of a player's token (for keys and lists).
 * @param {number} seat
 * @param {string} name
 */
export function tokenIcon(seat, name) {
  const svg = /** @type {SVGSVGElement} */ (el('svg', { viewBox: '-36 -36 72 72', class: 'token-icon', 'aria-hidden': 'true' }));
  tokenBody(seat, name, svg);
  return svg;
}

const SNAKE_COLOURS = [
  ['#2f8f46', '#a6e07a'],
  ['#7b3fa0', '#d7a8f0'],
  ['#c4541a', '#f7c07a'],
  ['#1f6f8b', '#9fe0f0'],
  ['#a8324a', '#f5a3b5'],
];

/** Icons of the cell effects, drawn in a box of ±30 around the cell's centre. */
const EFFECTS = {
  skip: (/** @type {Element} */ g) => {
    el('circle', { r: 30, class: 'fx-disc fx-skip' }, g);
    el('rect', { x: -13, y: -15, width: 9, height: 30, rx: 2, class: 'fx-mark' }, g);
    el('rect', { x: 4, y: -15, width: 9, height: 30, rx: 2, class: 'fx-mark' }, g);
  },
  extra: (/** @type {Element} */ g) => {
    el('circle', { r: 30, class: 'fx-disc fx-extra' }, g);
    el('path', { d: 'M-17 -12L-2 0L-17 12ZM0 -12L15 0L0 12Z', class: 'fx-mark' }, g);
  },
  shield: (/** @type {Element} */ g) => {
    el('circle', { r: 30, class: 'fx-disc fx-shield' }, g);
    el('path', { d: 'M0 -19L15 -13V0C15 10 8 16 0 20C-8 16 -15 10 -15 0V-13Z', class: 'fx-mark' }, g);
  },
  wormhole: (/** @type {Element} */ g) => {
    el('circle', { r: 30, class: 'fx-disc fx-wormhole' }, g);
    el('path', { d: 'M2 0A4 4 0 1 1 -6 0A9 9 0 1 1 12 0A15 15 0 1 1 -18 0A21 21 0 0 1 20 -9', class: 'fx-spiral' }, g);
  },
};

/**
 * A small standalone SVG of a legend line's kind (`snake`, `ladder`, or an effect), drawn as the
 * board draws it.
 * @param {string} kind
 */
export function legendIcon(kind) {
  const svg = /** @type {SVGSVGElement} */ (el('svg', { viewBox: '-32 -32 64 64', class: 'legend-icon', 'aria-hidden': 'true' }));
  const draw = EFFECTS[/** @type {keyof typeof EFFECTS} */ (kind)];
  if (draw) draw(svg);
  else if (kind === 'snake') el('path', { d: 'M-20 -22C10 -20 -18 0 8 4S0 22 20 24', class: 'legend-snake' }, svg);
  else if (kind === 'ladder') el('path', { d: 'M-12 26L-4 -26M12 26L20 -26M-9 10H15M-6 -8H18', class: 'legend-ladder' }, svg);
  return svg;
}

/**
 * The lines of a board's legend, as the server words them: each kind's icon and meaning.
 * @param {{kind: string, name: string, meaning: string}[]} entries
 */
export function legendItems(entries) {
  return entries.map((l) => {
    const li = document.createElement('li');
    li.dataset.kind = l.kind;
    // The meaning names the kind already ("shield: stops the next snake"): shown alone.
    const meaning = document.createElement('span');
    meaning.textContent = l.meaning;
    li.title = l.name;
    li.append(legendIcon(l.kind), meaning);
    return li;
  });
}

/** @param {string} effect */
export function effectLabel(effect) {
  return ({ skip: 'skip a turn', extra: 'extra roll', shield: 'shield', wormhole: 'wormhole' })[effect] ?? effect;
}

/**
 * The font size of the cell numbers, in the drawing's units (a cell is `CELL` wide): smaller as
 * the numbers get more digits.
 * @param {number} size the board's number of cells
 */
export function numberFont(size) {
  const digits = String(size).length;
  return digits <= 2 ? 30 : digits === 3 ? 26 : 22;
}

/**
 * Draws the board (cells, jumps, effects) into `svg`, replacing what was there.
 * @param {SVGSVGElement} svg
 * @param {BoardJson} board
 */
function drawBoard(svg, board) {
  const f = frame(board);
  svg.replaceChildren();
  svg.setAttribute('viewBox', `-8 -8 ${f.w + 16} ${f.h + 16}`);
  svg.classList.add('board');
  svg.style.setProperty('--cols', String(f.width));
  const defs = el('defs', {}, svg);
  const grad = el('radialGradient', { id: 'finish-glow' }, defs);
  el('stop', { offset: '0', 'stop-color': '#fff6c2' }, grad);
  el('stop', { offset: '1', 'stop-color': '#f7c948' }, grad);
  // The board's shadow is drawn in the SVG (painted once with the board), not a CSS filter on it:
  // a filter on the board's layer is redone by the compositor on every frame of an animation.
  const shadow = el('filter', { id: 'board-shadow', x: '-10%', y: '-10%', width: '120%', height: '125%' }, defs);
  el('feDropShadow', { dx: 0, dy: 14, stdDeviation: 12, 'flood-color': '#000', 'flood-opacity': 0.35 }, shadow);
  el('rect', { x: -8, y: -8, width: f.w + 16, height: f.rows * CELL + 16, rx: 18, class: 'board-edge', filter: 'url(#board-shadow)' }, svg);
  const cells = el('g', { class: 'cells' }, svg);
  const effects = new Map((board.cell ?? []).map((c) => [c.at, c]));
  const starts = new Map(jumps(board).map((j) => [j.from, j]));
  const font = numberFont(board.size);
  /** @type {{n: number, x: number, y: number, halo: string}[]} */
  const labels = [];
  for (let n = 1; n <= board.size; n++) {
    const c = cellCorner(n, f);
    const { row, col } = { row: Math.round(c.y / CELL), col: Math.round(c.x / CELL) };
    const g = el('g', { 'data-cell': n, class: 'cell' }, cells);
    const tone = n === board.size ? 'cell-finish' : (row + col) % 2 === 0 ? 'cell-a' : 'cell-b';
    el('rect', { x: c.x, y: c.y, width: CELL, height: CELL, class: `cell-bg ${tone}` }, g);
    const jump = starts.get(n);
    if (jump) g.classList.add(jump.kind === 'snake' ? 'cell-snake' : 'cell-ladder');
    const fx = effects.get(n);
    if (fx) g.classList.add(`cell-fx-${fx.effect}`);
    // The number itself is drawn later, above the jumps (see `numbers` below).
    labels.push({ n, x: c.x + 8, y: c.y + 8 + font * 0.8, halo: fx ? `num-fx-${fx.effect}` : `num-${tone.slice(5)}` });
  }
  const finish = center(board.size, f);
  el('path', { d: star(), transform: `translate(${finish.x} ${finish.y + 8}) scale(26)`, class: 'finish-star' }, cells);
  // The start tray, where tokens off the board wait.
  const tray = el('g', { class: 'tray', 'data-cell': 0 }, svg);
  el('rect', { x: 0, y: f.rows * CELL + 12, width: Math.min(f.w, CELL * 5), height: TRAY - 16, rx: 14, class: 'tray-bg' }, tray);
  const trayText = el('text', { x: Math.min(f.w, CELL * 5) - 14, y: f.rows * CELL + TRAY / 2 + 8, class: 'tray-label' }, tray);
  trayText.textContent = 'start';

  const fx = el('g', { class: 'effects' }, svg);
  for (const cell of board.cell ?? []) {
    const draw = EFFECTS[/** @type {keyof typeof EFFECTS} */ (cell.effect)];
    if (!draw || cell.at < 1 || cell.at > board.size) continue;
    const p = center(cell.at, f);
    const g = el('g', { transform: `translate(${p.x} ${p.y + 10}) scale(0.9)`, class: `fx fx-${cell.effect}` }, fx);
    const title = el('title', {}, g);
    title.textContent = `${cell.at}: ${effectLabel(cell.effect)}`;
    draw(g);
  }

  const ladders = el('g', { class: 'ladders' }, svg);
  for (const j of jumps(board).filter((x) => x.kind === 'ladder')) {
    const geo = ladderGeometry(j.from, j.to, f);
    const g = el('g', { class: 'ladder', 'data-from': j.from, 'data-to': j.to }, ladders);
    for (const layer of ['ladder-shade', 'ladder-wood']) {
      for (const [a, b] of geo.rungs) el('line', { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: `rung ${layer}` }, g);
      for (const [a, b] of geo.rails) el('line', { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: `rail ${layer}` }, g);
    }
  }
  const snakes = el('g', { class: 'snakes' }, svg);
  for (const j of jumps(board).filter((x) => x.kind === 'snake')) {
    const points = snakePoints(j.from, j.to, f);
    const [dark, light] = SNAKE_COLOURS[Math.floor(mix(j.to, j.from) * SNAKE_COLOURS.length)];
    const g = el('g', { class: 'snake', 'data-from': j.from, 'data-to': j.to }, snakes);
    const d = smoothPath(points);
    el('path', { d, class: 'snake-outline' }, g);
    // The body tapers to the tail in four pieces.
    const pieces = 4;
    const per = Math.ceil((points.length - 1) / pieces);
    for (let i = 0; i < pieces; i++) {
      const part = points.slice(i * per, Math.min(points.length, (i + 1) * per + 1));
      if (part.length < 2) continue;
      el('path', { d: smoothPath(part), stroke: dark, 'stroke-width': 24 - i * 4.5, class: 'snake-body' }, g);
    }
    el('path', { d, stroke: light, class: 'snake-stripes' }, g);
    const head = points[0];
    const next = points[2];
    const angle = (Math.atan2(next.y - head.y, next.x - head.x) * 180) / Math.PI + 180;
    const h = el('g', { transform: `translate(${head.x} ${head.y}) rotate(${angle.toFixed(1)})`, class: 'snake-head' }, g);
    el('path', { d: 'M26 0L34 -4M26 0L34 4', class: 'snake-tongue' }, h);
    el('ellipse', { rx: 24, ry: 17, fill: dark, class: 'snake-skull' }, h);
    el('circle', { cx: 8, cy: -8, r: 5.5, class: 'snake-eye' }, h);
    el('circle', { cx: 8, cy: 8, r: 5.5, class: 'snake-eye' }, h);
    el('circle', { cx: 9.5, cy: -8, r: 2.6, class: 'snake-pupil' }, h);
    el('circle', { cx: 9.5, cy: 8, r: 2.6, class: 'snake-pupil' }, h);
  }
  // The cell numbers, last: above the ladders and snakes, each with a halo of its cell's colour
  // (a stroke painted under the fill) so a number a jump crosses still reads.
  const numbers = el('g', { class: 'numbers', 'font-size': font, 'stroke-width': (font * 0.28).toFixed(1) }, svg);
  for (const l of labels) {
    const text = el('text', { x: l.x, y: l.y, class: `cell-num ${l.halo}`, 'data-num': l.n }, numbers);
    text.textContent = String(l.n);
  }
  const top = tokenLayer(svg);
  top.setAttribute('viewBox', /** @type {string} */ (svg.getAttribute('viewBox')));
  top.replaceChildren();
  el('g', { class: 'overlay' }, top);
  tokenSpace(svg).replaceChildren();
  fitTokenSpace(svg);
}

/**
 * The layer the tokens (and the confetti) are drawn in: a second SVG laid over the board's, so
 * that moving a token repaints only the tokens, never the board under them. Made on first use,
 * with the board's SVG wrapped in a `div.board-stack` that holds both.
 * @param {SVGSVGElement} svg the board's SVG
 * @returns {SVGSVGElement}
 */
export function tokenLayer(svg) {
  const parent = /** @type {HTMLElement} */ (svg.parentElement);
  let stack = parent.classList.contains('board-stack') ? parent : null;
  if (!stack) {
    stack = document.createElement('div');
    stack.className = 'board-stack';
    parent.insertBefore(stack, svg);
    stack.appendChild(svg);
  }
  let top = /** @type {SVGSVGElement | null} */ (stack.querySelector(':scope > svg.board-tokens'));
  if (!top) {
    top = /** @type {SVGSVGElement} */ (el('svg', { class: 'board-tokens', 'aria-hidden': 'true' }, stack));
  }
  return top;
}

/**
 * The HTML layer the tokens (and the confetti) move on, between the board and the overlay SVG:
 * its origin and unit are the board drawing's (kept so by `fitTokenSpace` whenever the board's
 * box changes), so a token at `translate(x, y)` stands where the drawing has (x, y).
 * @param {SVGSVGElement} svg the board's SVG
 * @returns {HTMLElement}
 */
export function tokenSpace(svg) {
  const top = tokenLayer(svg);
  const stack = /** @type {HTMLElement} */ (top.parentElement);
  let space = /** @type {HTMLElement | null} */ (stack.querySelector(':scope > .token-layer > .token-space'));
  if (!space) {
    const layer = document.createElement('div');
    layer.className = 'token-layer';
    layer.setAttribute('aria-hidden', 'true');
    space = document.createElement('div');
    space.className = 'token-space';
    layer.appendChild(space);
    stack.insertBefore(layer, top);
    new ResizeObserver(() => fitTokenSpace(svg)).observe(svg);
  }
  return space;
}

/**
 * Scales the token layer to the board's drawing as the SVG shows it (its viewBox fitted into
 * its box, centred: `xMidYMid meet`).
 * @param {SVGSVGElement} svg
 */
function fitTokenSpace(svg) {
  const space = /** @type {HTMLElement | null} */ (svg.parentElement?.querySelector(':scope > .token-layer > .token-space'));
  const box = svg.viewBox.baseVal;
  if (!space || !box || !box.width || !box.height) return;
  const w = svg.clientWidth;
  const h = svg.clientHeight;
  const k = Math.min(w / box.width, h / box.height);
  if (!(k > 0)) return;
  const dx = (w - box.width * k) / 2 - box.x * k;
  const dy = (h - box.height * k) / 2 - box.y * k;
  space.style.transform = `translate(${dx.toFixed(2)}px, ${dy.toFixed(2)}px) scale(${k.toFixed(5)})`;
}

/**
 * Where each token is drawn: its cell's centre, spread out when it shares the cell.
 * @param {BoardJson} board
 * @param {Token[]} tokens
 * @returns {Map<string, {x: number, y: number, scale: number}>}
 */
export function tokenPlaces(board, tokens) {
  const f = frame(board);
  /** @type {Map<number, Token[]>} */
  const byCell = new Map();
  for (const t of tokens) {
    const list = byCell.get(t.position) ?? [];
    list.push(t);
    byCell.set(t.position, list);
  }
  const places = new Map();
  for (const [cell, list] of byCell) {
    list.sort((a, b) => a.seat - b.seat);
    const c = center(cell, f);
    list.forEach((t, i) => {
      if (cell === 0) {
        places.set(t.name, { x: c.x + (t.seat % 8) * CELL * 0.55, y: c.y + (t.seat >= 8 ? 8 : 0), scale: 0.72 });
        return;
      }
      const o = crowdOffset(i, list.length);
      places.set(t.name, { x: c.x + o.dx, y: c.y + o.dy + 6, scale: o.scale });
    });
  }
  return places;
}

/** @param {{x: number, y: number, scale: number}} p */
export function placeTransform(p) {
  return `translate(${p.x.toFixed(1)}px, ${p.y.toFixed(1)}px) scale(${p.scale})`;
}

/**
 * Draws `board` with `tokens` on `svg`: the board only when it changed, the tokens always
 * (created, moved or removed by name). Tokens being animated are left where the animation has them.
 * @param {SVGSVGElement} svg
 * @param {BoardJson} board
 * @param {Token[]} tokens
 * @param {RenderOptions} [options]
 */
export function render(svg, board, tokens, options = {}) {
  const key = JSON.stringify(board);
  if (svg.dataset.board !== key) {
    drawBoard(svg, board);
    svg.dataset.board = key;
  }
  const layer = tokenSpace(svg);
  // Not fitted yet (the board had no size when it was drawn): fitted now, not only when its
  // resize observer next reports, so no token is ever drawn unscaled.
  if (!layer.style.transform) fitTokenSpace(svg);
  const places = tokenPlaces(board, tokens);
  /** @type {Map<string, HTMLElement>} */
  const existing = new Map();
  for (const node of Array.from(layer.querySelectorAll(':scope > .token'))) {
    const g = /** @type {HTMLElement} */ (node);
    existing.set(g.dataset.player ?? '', g);
  }
  for (const t of tokens) {
    let g = existing.get(t.name);
    existing.delete(t.name);
    if (!g) {
      g = document.createElement('div');
      g.className = 'token';
      g.dataset.player = t.name;
      const body = el('svg', { viewBox: '-48 -48 96 96', width: 96, height: 96 }, g);
      el('circle', { r: 44, class: 'token-ring' }, body);
      tokenBody(t.seat, t.name, body);
      const badge = el('g', { class: 'token-shield' }, body);
      el('path', { d: 'M0 -11L9 -7V0C9 6 5 9 0 12C-5 9 -9 6 -9 0V-7Z' }, badge);
      badge.setAttribute('transform', 'translate(24 -24)');
      layer.appendChild(g);
    }
    const position = String(t.position);
    if (g.dataset.position !== position) {
      g.dataset.position = position;
      g.title = `${t.name} ${t.position === 0 ? 'at the start' : `on ${t.position}`}`;
    }
    g.classList.toggle('current', options.current === t.name);
    g.classList.toggle('shielded', options.shields?.has(t.name) ?? false);
    const place = places.get(t.name);
    const transform = place && placeTransform(place);
    if (transform && !g.classList.contains('moving') && g.style.transform !== transform) g.style.transform = transform;
  }
  for (const g of existing.values()) g.remove();
  // The current player's token is drawn above the others.
  const current = tokens.find((t) => t.name === options.current);
  const top = current && layer.querySelector(`:scope > .token[data-player="${CSS.escape(current.name)}"]`);
  if (top && layer.lastElementChild !== top) layer.appendChild(top);
}
