// Where things are on a drawn board, as pure functions (no DOM): the board renderer draws with
// them and the animation planner moves tokens along the very paths that are drawn.

/**
 * @typedef {{head: number, tail: number}} SnakeSpec
 * @typedef {{foot: number, top: number}} LadderSpec
 * @typedef {{at: number, effect: string, exits?: number[]}} CellSpec
 * @typedef {{size: number, width?: number, snake?: SnakeSpec[], ladder?: LadderSpec[],
 *   cell?: CellSpec[]}} BoardJson
 * @typedef {{x: number, y: number}} Point
 * @typedef {{from: number, to: number, kind: 'snake' | 'ladder'}} Jump
 */

/** Side of a cell in the drawing's units. */
export const CELL = 100;
/** Boards of more cells than this are drawn zoomable (up to 400 the whole board stays legible). */
export const ZOOM_ABOVE = 400;
/** Height of the start tray under the board, where tokens off the board wait. */
export const TRAY = 70;

/**
 * Cells per row: the board's own width, else √N when N is a square, else 10 (SPEC §4).
 * @param {BoardJson} board
 */
export function boardWidth(board) {
  if (board.width && board.width > 0) return board.width;
  const root = Math.round(Math.sqrt(board.size));
  return root * root === board.size ? root : Math.min(10, board.size);
}

/**
 * Rows and columns of the drawing, and its size in units (the start tray included).
 * @param {BoardJson} board
 */
export function frame(board) {
  const width = boardWidth(board);
  const rows = Math.ceil(board.size / width);
  return { width, rows, w: width * CELL, h: rows * CELL + TRAY };
}

/**
 * Row (0 = bottom) and column (0 = left) of cell `cell`: boustrophedon from the bottom-left.
 * @param {number} cell 1..N
 * @param {number} width
 */
export function rowCol(cell, width) {
  const i = cell - 1;
  const row = Math.floor(i / width);
  const k = i % width;
  return { row, col: row % 2 === 0 ? k : width - 1 - k };
}

/**
 * The top-left corner of cell `cell`'s square.
 * @param {number} cell
 * @param {{width: number, rows: number}} f
 * @returns {Point}
 */
export function cellCorner(cell, f) {
  const { row, col } = rowCol(cell, f.width);
  return { x: col * CELL, y: (f.rows - 1 - row) * CELL };
}

/**
 * The centre of cell `cell`; position 0 (off the board) is the start tray under cell 1.
 * @param {number} cell
 * @param {{width: number, rows: number}} f
 * @returns {Point}
 */
export function center(cell, f) {
  if (cell <= 0) return { x: CELL / 2, y: f.rows * CELL + TRAY / 2 };
  const c = cellCorner(cell, f);
  return { x: c.x + CELL / 2, y: c.y + CELL / 2 };
}

/**
 * Every snake and ladder of the board.
 * @param {BoardJson} board
 * @returns {Jump[]}
 */
export function jumps(board) {
  /** @type {Jump[]} */
  const out = [];
  for (const s of board.snake ?? []) out.push({ from: s.head, to: s.tail, kind: 'snake' });
  for (const l of board.ladder ?? []) out.push({ from: l.foot, to: l.top, kind: 'ladder' });
  return out;
}

/**
 * A small deterministic hash, so each snake gets its own wiggle and colour on every screen.
 * @param {number} a
 * @param {number} b
 */
export function mix(a, b) {
  let h = (a * 73856093) ^ (b * 19349663);
  h = Math.imul(h ^ (h >>> 15), 2246822507);
  h = Math.imul(h ^ (h >>> 13), 3266489909);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

/**
 * The body of a snake from its head to its tail: points along a gentle S-curve. The drawing
 * and the slide use these same points.
 * @param {number} head
 * @param {number} tail
 * @param {{width: number, rows: number}} f
 * @param {number} [count]
 * @returns {Point[]}
 */
export function snakePoints(head, tail, f, count = 40) {
  const a = center(head, f);
  const b = center(tail, f);
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const length = Math.hypot(dx, dy) || 1;
  const nx = -dy / length;
  const ny = dx / length;
  const waves = Math.max(1, Math.min(4, Math.round(length / (CELL * 1.6))));
  const amplitude = Math.min(CELL * 0.45, length * 0.18) * (mix(head, tail) < 0.5 ? 1 : -1);
  /** @type {Point[]} */
  const points = [];
  for (let i = 0; i <= count; i++) {
    const t = i / count;
    // Damped at both ends so the head and the tail sit on their cells' centres.
    const swing = Math.sin(t * Math.PI * waves) * Math.sin(t * Math.PI) * amplitude;
    points.push({ x: a.x + dx * t + nx * swing, y: a.y + dy * t + ny * swing });
  }
  return points;
}

/**
 * A ladder's two rails and its rungs, from its foot to its top.
 * @param {number} foot
 * @param {number} top
 * @param {{width: number, rows: number}} f
 */
export function ladderGeometry(foot, top, f) {
  const a = center(foot, f);
  const b = center(top, f);
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const length = Math.hypot(dx, dy) || 1;
  const half = CELL * 0.16;
  const nx = (-dy / length) * half;
  const ny = (dx / length) * half;
  const rails = [
    [{ x: a.x + nx, y: a.y + ny }, { x: b.x + nx, y: b.y + ny }],
    [{ x: a.x - nx, y: a.y - ny }, { x: b.x - nx, y: b.y - ny }],
  ];
  const count = Math.max(2, Math.round(length / (CELL * 0.3)));
  /** @type {[Point, Point][]} */
  const rungs = [];
  for (let i = 1; i < count; i++) {
    const t = i / count;
    const m = { x: a.x + dx * t, y: a.y + dy * t };
    rungs.push([{ x: m.x + nx, y: m.y + ny }, { x: m.x - nx, y: m.y - ny }]);
  }
  return { rails, rungs, path: [a, b] };
}

/**
 * A smooth SVG path through `points` (Catmull-Rom turned into cubic Béziers).
 * @param {Point[]} points
 */
export function smoothPath(points) {
  if (points.length === 0) return '';
  const r = (/** @type {number} */ n) => Math.round(n * 10) / 10;
  let d = `M${r(points[0].x)} ${r(points[0].y)}`;
  for (let i = 0; i < points.length - 1; i++) {
    const p0 = points[Math.max(0, i - 1)];
    const p1 = points[i];
    const p2 = points[i + 1];
    const p3 = points[Math.min(points.length - 1, i + 2)];
    const c1 = { x: p1.x + (p2.x - p0.x) / 6, y: p1.y + (p2.y - p0.y) / 6 };
    const c2 = { x: p2.x - (p3.x - p1.x) / 6, y: p2.y - (p3.y - p1.y) / 6 };
    d += `C${r(c1.x)} ${r(c1.y)} ${r(c2.x)} ${r(c2.y)} ${r(p2.x)} ${r(p2.y)}`;
  }
  return d;
}

/**
 * Where each of `count` tokens sharing a cell sits, as offsets from the cell's centre, and how
 * large each is drawn (1 = alone). Up to four share a cell in a 2×2; more shrink into a 3×3.
 * @param {number} index
 * @param {number} count
 */
export function crowdOffset(index, count) {
  if (count <= 1) return { dx: 0, dy: 0, scale: 1 };
  const per = count <= 4 ? 2 : 3;
  const step = per === 2 ? CELL * 0.26 : CELL * 0.22;
  const i = Math.min(index, per * per - 1);
  const col = i % per;
  const row = Math.floor(i / per);
  const mid = (per - 1) / 2;
  return { dx: (col - mid) * step, dy: (row - mid) * step, scale: per === 2 ? 0.62 : 0.46 };
}
