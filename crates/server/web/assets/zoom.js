// Zoom and pan for a board too large to read whole (more than 400 cells), shared by the room and
// the editor: the − / Fit / + buttons, Ctrl+wheel (and a trackpad's pinch, which the browser
// sends as one) zooms about the pointer, and the board pans by scrolling or by a mouse drag.

import { numberFont } from './board.js';
import { CELL, ZOOM_ABOVE, frame } from './geometry.js';

/** Each step of the buttons and of the wheel. */
const STEP = 1.4;
/** The smallest size, in CSS pixels, the numbers are first drawn at on a zoomable board. */
const LEGIBLE = 11;

/**
 * @typedef {{show: (board: import('./geometry.js').BoardJson) => void, zoom: () => number}} Zoomer
 */

/**
 * Makes `svg` (inside the scrolling `wrap`) zoomable by the buttons of `bar` (`data-zoom` is
 * `in`, `out` or `fit`) whenever the board it shows is large.
 * @param {SVGSVGElement} svg
 * @param {HTMLElement} wrap
 * @param {HTMLElement} bar
 * @param {() => void} [onButton] called after a button zoomed (the room follows the token)
 * @returns {Zoomer}
 */
export function zoomer(svg, wrap, bar, onButton) {
  /** @type {import('./geometry.js').BoardJson | null} */
  let board = null;

  /** The cell size, in CSS pixels, that shows the whole board in the page (zoom 1). */
  const fitCell = () => {
    if (!board) return 40;
    const f = frame(board);
    return Math.min(wrap.clientWidth / f.width, Math.max(200, innerHeight - 100) / (f.rows + 0.8));
  };
  const zoom = () => Number(svg.dataset.zoom ?? 1);

  /**
   * Zooms to `z` (1 shows the whole board), keeping the board's point under (x, y) of the
   * wrap's box where it was (its middle when not given).
   * @param {number} z
   * @param {number} [x]
   * @param {number} [y]
   */
  const set = (z, x = wrap.clientWidth / 2, y = wrap.clientHeight / 2) => {
    if (!board) return;
    const before = svg.getBoundingClientRect();
    const outer = wrap.getBoundingClientRect();
    const u = before.width ? (outer.left + x - before.left) / before.width : 0.5;
    const v = before.height ? (outer.top + y - before.top) / before.height : 0.5;
    const width = Math.round(fitCell() * z * frame(board).width);
    const box = svg.viewBox.baseVal;
    svg.style.width = `${width}px`;
    // The height too, not left to the drawing's proportions: Chromium lays a changed width out
    // with the old height until the next change.
    svg.style.height = box?.width ? `${Math.round((width * box.height) / box.width)}px` : '';
    svg.dataset.zoom = String(z);
    const after = svg.getBoundingClientRect();
    wrap.scrollBy({ left: after.left + u * after.width - (outer.left + x), top: after.top + v * after.height - (outer.top + y) });
  };

  bar.addEventListener('click', (e) => {
    const b = /** @type {HTMLElement} */ (e.target).closest('button');
    if (!b || !board) return;
    set(b.dataset.zoom === 'in' ? zoom() * STEP : b.dataset.zoom === 'out' ? Math.max(1, zoom() / STEP) : 1);
    onButton?.();
  });
  wrap.addEventListener('wheel', (e) => {
    if (!e.ctrlKey || !svg.classList.contains('zoomable')) return;
    e.preventDefault();
    const outer = wrap.getBoundingClientRect();
    set(Math.max(1, e.deltaY < 0 ? zoom() * STEP : zoom() / STEP), e.clientX - outer.left, e.clientY - outer.top);
  }, { passive: false });

  // A mouse drag pans (touch pans natively); the click that ends a drag picks no cell.
  /** @type {{x: number, y: number, left: number, top: number, moved: boolean} | null} */
  let drag = null;
  wrap.addEventListener('pointerdown', (e) => {
    if (e.pointerType !== 'mouse' || e.button !== 0 || !svg.classList.contains('zoomable')) return;
    drag = { x: e.clientX, y: e.clientY, left: wrap.scrollLeft, top: wrap.scrollTop, moved: false };
  });
  wrap.addEventListener('pointermove', (e) => {
    if (!drag || !(e.buttons & 1)) return;
    const dx = e.clientX - drag.x;
    const dy = e.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < 6) return;
    drag.moved = true;
    wrap.classList.add('dragging');
    wrap.scrollLeft = drag.left - dx;
    wrap.scrollTop = drag.top - dy;
  });
  // The click a drag ends with (dispatched right after the pointer's release) is the drag's, not a pick.
  let dragged = false;
  wrap.addEventListener('click', (e) => { if (dragged) e.stopPropagation(); }, { capture: true });
  const end = () => {
    wrap.classList.remove('dragging');
    if (drag?.moved) {
      dragged = true;
      setTimeout(() => { dragged = false; }, 0);
    }
    drag = null;
  };
  wrap.addEventListener('pointerup', end);
  wrap.addEventListener('pointercancel', end);

  return {
    /**
     * Shows `board`: zoomable when it is large, first at a zoom where its numbers are legible;
     * a later board (a move, an edit) keeps the zoom chosen.
     */
    show(next) {
      board = next;
      const big = next.size > ZOOM_ABOVE;
      bar.hidden = !big;
      svg.classList.toggle('zoomable', big);
      if (big) set(svg.dataset.zoom ? zoom() : Math.max(1, (LEGIBLE * CELL) / numberFont(next.size) / fitCell()));
      else if (svg.dataset.zoom) {
        delete svg.dataset.zoom;
        svg.style.width = '';
        svg.style.height = '';
      }
    },
    zoom,
  };
}
