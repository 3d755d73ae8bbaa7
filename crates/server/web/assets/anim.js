// Plays the planner's beats on a rendered board: tokens hop cell by cell, ride a ladder or a
// snake along the drawn path, shake on a blocked move, fade through a wormhole; confetti for a
// winner. Web Animations on transforms and opacity of HTML boxes only (the tokens and the
// confetti live on board.js's token layer), so the compositor does the work, not the page.

import { CELL, center, frame } from './geometry.js';
import { placeTransform, COLOURS, tokenSpace } from './board.js';

/**
 * @typedef {import('./plan.js').Beat} Beat
 * @typedef {import('./geometry.js').BoardJson} BoardJson
 * @typedef {import('./geometry.js').Point} Point
 * @typedef {{sound?: (name: import('./plan.js').Sound) => void, dice?: (beat: Extract<Beat, {kind: 'dice'}>) => Promise<void>}} Hooks
 */

/**
 * @param {SVGSVGElement} svg
 * @param {string} player
 * @returns {HTMLElement | null}
 */
function tokenOf(svg, player) {
  return tokenSpace(svg).querySelector(`:scope > .token[data-player="${CSS.escape(player)}"]`);
}

/** @param {Point} p @param {number} [lift] @param {number} [scale] */
function at(p, lift = 0, scale = 0.8) {
  return placeTransform({ x: p.x, y: p.y + 6 - lift, scale });
}

/**
 * @param {Element} node
 * @param {Keyframe[]} frames
 * @param {number} ms
 * @param {string} [easing]
 */
async function run(node, frames, ms, easing = 'linear') {
  if (ms <= 0 || frames.length < 2) return;
  const animation = node.animate(frames, { duration: ms, easing });
  try {
    await animation.finished;
  } catch {
    // Cancelled (the page moved on): nothing to wait for.
  }
}

/**
 * Plays one beat; resolves when it is over. The token is left where the beat ends; the caller
 * renders the new state afterwards.
 * @param {SVGSVGElement} svg
 * @param {BoardJson} board
 * @param {Beat} beat
 * @param {Hooks} [hooks]
 */
export async function playBeat(svg, board, beat, hooks = {}) {
  const f = frame(board);
  if (beat.kind === 'dice') {
    hooks.sound?.(beat.sound);
    if (hooks.dice) await hooks.dice(beat);
    return;
  }
  const token = tokenOf(svg, beat.player);
  if (!token) return;
  if (beat.sound && beat.kind !== 'walk') hooks.sound?.(beat.sound);
  token.classList.add('moving');
  const start = token.style.transform;
  try {
    switch (beat.kind) {
      case 'walk': {
        /** @type {Keyframe[]} */
        const frames = [{ transform: start, offset: 0 }];
        const n = beat.cells.length;
        beat.cells.forEach((cell, i) => {
          const p = center(cell, f);
          const prev = i === 0 ? null : center(beat.cells[i - 1], f);
          if (prev) frames.push({ transform: at({ x: (p.x + prev.x) / 2, y: (p.y + prev.y) / 2 }, CELL * 0.22, 0.9), offset: (i + 0.5) / n });
          frames.push({ transform: at(p), offset: (i + 1) / n });
        });
        if (hooks.sound) {
          const per = beat.ms / n;
          for (let i = 0; i < n; i++) setTimeout(() => hooks.sound?.('step'), per * i + per * 0.8);
        }
        await run(token, frames, beat.ms);
        token.style.transform = at(center(beat.cells[n - 1], f));
        break;
      }
      case 'slide': {
        const frames = beat.points.map((p, i) => ({ transform: at(p, 0, 0.9), offset: i / (beat.points.length - 1) }));
        frames[0] = { transform: start, offset: 0 };
        await run(token, frames, beat.ms, beat.jump === 'snake' ? 'ease-in' : 'ease-in-out');
        token.style.transform = at(beat.points[beat.points.length - 1]);
        break;
      }
      case 'fade': {
        const a = center(beat.from, f);
        const b = center(beat.to, f);
        const half = beat.ms / 2;
        await run(token, [
          { transform: start, opacity: 1 },
          { transform: `${at(a)} rotate(200deg) scale(0.2)`, opacity: 0 },
        ], half, 'ease-in');
        token.style.transform = at(b);
        await run(token, [
          { transform: `${at(b)} rotate(-200deg) scale(0.2)`, opacity: 0 },
          { transform: at(b), opacity: 1 },
        ], half, 'ease-out');
        break;
      }
      case 'bump': {
        await run(token, [
          { transform: start },
          { transform: `${start} translateX(-8px)` },
          { transform: `${start} translateX(8px)` },
          { transform: `${start} translateX(-5px)` },
          { transform: start },
        ], beat.ms);
        break;
      }
      case 'shield': {
        const ring = token.querySelector('.token-ring');
        if (ring) await run(ring, [{ opacity: 0, transform: 'scale(0.5)' }, { opacity: 1, transform: 'scale(1.3)' }, { opacity: 0, transform: 'scale(1)' }], beat.ms);
        break;
      }
      case 'win':
        await celebrate(svg, board, beat.ms);
        break;
      default:
        break;
    }
  } finally {
    token.classList.remove('moving');
  }
}

/**
 * Confetti falling over the board for `ms` milliseconds.
 * @param {SVGSVGElement} svg
 * @param {BoardJson} board
 * @param {number} ms
 */
export async function celebrate(svg, board, ms) {
  if (ms <= 0) return;
  const space = tokenSpace(svg);
  const layer = document.createElement('div');
  layer.className = 'confetti-layer';
  space.appendChild(layer);
  const f = frame(board);
  const pieces = [];
  for (let i = 0; i < 70; i++) {
    const x = ((i * 37) % 100) / 100 * f.w;
    const piece = document.createElement('div');
    piece.className = 'confetti';
    piece.style.background = COLOURS[i % COLOURS.length];
    layer.appendChild(piece);
    const fall = f.rows * CELL * (0.7 + ((i * 13) % 30) / 100);
    const spin = ((i * 53) % 720) - 360;
    const delay = (i % 10) * (ms / 40);
    pieces.push(piece.animate([
      { transform: `translate(${x}px, -40px) rotate(0deg)`, opacity: 1 },
      { transform: `translate(${x + (((i * 29) % 80) - 40)}px, ${fall}px) rotate(${spin}deg)`, opacity: 0 },
    ], { duration: ms - delay, delay, easing: 'cubic-bezier(.2,.6,.4,1)', fill: 'backwards' }).finished.catch(() => undefined));
  }
  await Promise.all(pieces);
  layer.remove();
}
