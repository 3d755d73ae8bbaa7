// A game of a series online (best of K, each game a room): where the series stands at the end
// and the way to its next game. Loaded only by a room that plays a game of a series.
import { api, heldTokens, keepToken } from './net.js';

/**
 * @typedef {{best_of: number, game: number, wins: number[], decided: boolean,
 *   next_room?: string, text: string}} Series
 */

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

/**
 * The end card: where the series stands (the server's words) and, until it is decided, the
 * button that opens its next game.
 * @param {Series} series
 * @param {boolean} over
 */
export function drawSeries(series, over) {
  const standing = $('series-standing');
  standing.textContent = series.text;
  standing.hidden = false;
  $('next-game').hidden = series.decided || !over;
}

/** The next game this page is going to, once it goes. */
let going = '';

/**
 * Goes on to the series' next game, in room `next`: the seats this device holds in `room` hold
 * theirs there with the same tokens. Once: the page that pressed the button is told twice (the
 * button's answer and the room's `next` frame), and a second navigation to the same address
 * would abort the first.
 * @param {string} room
 * @param {string} next
 */
export function goNext(room, next) {
  if (going === next) return;
  going = next;
  for (const token of heldTokens(room)) keepToken(next, token);
  location.assign(`/room/${encodeURIComponent(next)}`);
}

/**
 * The Next game button: opens the series' next game (or finds it open) and goes there.
 * @param {string} room
 * @param {(text: string, kind?: string) => void} tell
 */
export async function openNext(room, tell) {
  const button = /** @type {HTMLButtonElement} */ ($('next-game'));
  button.disabled = true;
  try {
    const next = await api(`/api/rooms/${encodeURIComponent(room)}/next`, {});
    goNext(room, next.room);
  } catch (e) {
    tell(`The next game did not open: ${e instanceof Error ? e.message : e}.`, 'refused');
    button.disabled = false;
  }
}
