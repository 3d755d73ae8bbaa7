// The animation planner: from the tokens before an event and the event itself, the beats to
// play (dice tumbling, a walk cell by cell, a climb or a slide along the drawn path, a bounce, a
// fade through a wormhole, a celebration) and the tokens after. Pure: no DOM, no clock, so the
// same state and event always give the same plan (unit-tested under node).

import { CELL, frame, snakePoints, center } from './geometry.js';

/**
 * @typedef {import('./geometry.js').BoardJson} BoardJson
 * @typedef {import('./geometry.js').Point} Point
 * @typedef {Record<string, any> & {type: string}} WireEvent
 * @typedef {'roll' | 'six' | 'step' | 'ladder' | 'snake' | 'shield' | 'win' | 'bump' | 'wormhole'} Sound
 * @typedef {{kind: 'dice', player: string, dice: number[], faces: number, ms: number, sound: Sound}
 *   | {kind: 'walk', player: string, cells: number[], ms: number, sound: Sound}
 *   | {kind: 'slide', player: string, jump: 'snake' | 'ladder', from: number, to: number, points: Point[], ms: number, sound: Sound}
 *   | {kind: 'fade', player: string, from: number, to: number, ms: number, sound?: Sound}
 *   | {kind: 'bump', player: string, at: number, ms: number, sound: Sound}
 *   | {kind: 'shield', player: string, on: boolean, ms: number, sound: Sound}
 *   | {kind: 'win', player: string, ms: number, sound: Sound}} Beat
 * @typedef {{reduced?: boolean, speed?: number, faces?: number}} PlanOptions
 */

/** Milliseconds per cell walked, and the longest a walk may take. */
export const STEP_MS = 170;
export const WALK_MAX_MS = 1500;

/**
 * The cells a token passes through walking from `from` to `to`, the landing cell last. It goes
 * straight: where a move bounces, the engine says so (an `overshoot` event whose rule is
 * `bounce`, told before the move), and the walk to the last cell is that event's.
 * @param {number} from
 * @param {number} to
 */
export function walkCells(from, to) {
  const cells = [];
  if (to >= from) {
    for (let c = from + 1; c <= to; c++) cells.push(c);
  } else {
    for (let c = from - 1; c >= to; c--) cells.push(c);
  }
  return cells;
}

/**
 * The length of a path of points, in cells.
 * @param {Point[]} points
 */
function lengthInCells(points) {
  let sum = 0;
  for (let i = 1; i < points.length; i++) sum += Math.hypot(points[i].x - points[i - 1].x, points[i].y - points[i - 1].y);
  return sum / CELL;
}

/**
 * The beats that show `event`, and the positions after it.
 * @param {BoardJson} board
 * @param {Record<string, number>} before each player's position
 * @param {WireEvent} event
 * @param {PlanOptions} [options]
 * @returns {{beats: Beat[], after: Record<string, number>}}
 */
export function planEvent(board, before, event, options = {}) {
  const reduced = options.reduced ?? false;
  const speed = options.speed ?? 1;
  const faces = options.faces ?? 6;
  const f = frame(board);
  const after = { ...before };
  /** @type {Beat[]} */
  const beats = [];
  const ms = (/** @type {number} */ full, /** @type {number} */ short) => Math.round((reduced ? short : full) / speed);
  const p = /** @type {string} */ (event.player);
  switch (event.type) {
    case 'dice_rolled': {
      const dice = /** @type {number[]} */ (event.dice ?? [event.roll]);
      const six = dice.length > 0 && dice.every((d) => d === faces);
      beats.push({ kind: 'dice', player: p, dice, faces, ms: ms(650, 0), sound: six ? 'six' : 'roll' });
      break;
    }
    case 'moved': {
      const from = /** @type {number} */ (event.from);
      const to = /** @type {number} */ (event.to);
      // From where the token stands: the last cell after a bounce.
      const cells = walkCells(after[p] ?? from, to);
      after[p] = to;
      if (reduced) {
        beats.push({ kind: 'fade', player: p, from, to, ms: ms(0, 120) });
      } else if (cells.length > 0) {
        const per = Math.min(STEP_MS, WALK_MAX_MS / cells.length);
        beats.push({ kind: 'walk', player: p, cells, ms: Math.round((per * cells.length) / speed), sound: 'step' });
      }
      break;
    }
    case 'snake':
    case 'ladder': {
      const from = /** @type {number} */ (event.from);
      const to = /** @type {number} */ (event.to);
      after[p] = to;
      const points = event.type === 'snake' ? snakePoints(from, to, f) : [center(from, f), center(to, f)];
      const full = Math.min(1800, 450 + lengthInCells(points) * 160);
      if (reduced) beats.push({ kind: 'fade', player: p, from, to, ms: ms(0, 150), sound: event.type });
      else beats.push({ kind: 'slide', player: p, jump: event.type, from, to, points, ms: Math.round(full / speed), sound: event.type });
      break;
    }
    case 'wormhole': {
      const from = /** @type {number} */ (event.from);
      const to = /** @type {number} */ (event.to);
      after[p] = to;
      beats.push({ kind: 'fade', player: p, from, to, ms: ms(900, 150), sound: 'wormhole' });
      break;
    }
    case 'turn_voided': {
      const to = /** @type {number} */ (event.back_to);
      const from = after[p] ?? 0;
      after[p] = to;
      beats.push({ kind: 'fade', player: p, from, to, ms: ms(600, 120), sound: 'bump' });
      break;
    }
    case 'overshoot': {
      const rule = event.rule ?? 'stay';
      const position = /** @type {number} */ (event.position);
      if (rule === 'stay') {
        beats.push({ kind: 'bump', player: p, at: position, ms: ms(380, 0), sound: 'bump' });
      } else if (rule === 'bounce' && !reduced) {
        // The engine says the move bounces: the token walks to the last cell, and the move
        // that follows walks it back.
        const cells = walkCells(position, board.size);
        const per = Math.min(STEP_MS, WALK_MAX_MS / Math.max(1, cells.length));
        if (cells.length > 0) beats.push({ kind: 'walk', player: p, cells, ms: Math.round((per * cells.length) / speed), sound: 'step' });
        after[p] = board.size;
      }
      break;
    }
    case 'shield_gained':
    case 'shield_used':
      beats.push({ kind: 'shield', player: p, on: event.type === 'shield_gained', ms: ms(500, 0), sound: 'shield' });
      break;
    case 'player_finished':
      if (event.rank === 1) beats.push({ kind: 'win', player: p, ms: ms(2200, 400), sound: 'win' });
      after[p] = board.size;
      break;
    default:
      break;
  }
  return { beats, after };
}

/**
 * The positions after `events`, from `before` (what a page shows when it skips the animation).
 * @param {BoardJson} board
 * @param {Record<string, number>} before
 * @param {WireEvent[]} events
 */
export function positionsAfter(board, before, events) {
  let now = before;
  for (const e of events) now = planEvent(board, now, e, { reduced: true }).after;
  return now;
}

/**
 * How much faster to play when events pile up (a page catching up, computers playing at once):
 * at most 2 waiting play at full speed, then faster; past 12 the page skips to the end.
 * @param {number} waiting events queued behind the one being shown
 */
export function catchUpSpeed(waiting) {
  if (waiting <= 2) return 1;
  if (waiting > 12) return Infinity;
  return 1 + (waiting - 2) * 0.5;
}
