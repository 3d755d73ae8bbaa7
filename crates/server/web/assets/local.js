// A game on this device (the lobby's "Play here", at /local): the room page draws it as it draws an
// online room, but its frames come from the engine in the page (engine.wasm) instead of a server.
// What the device keeps (localStorage, `snl.local`) is the room's request, the dice's seed and the
// people's intents: played again, they give the same game, so a reload goes on where it was and the
// whole game can be watched again (`/local#replay`).

import { localAct, localNew } from './engine.js';

/**
 * @typedef {import('./engine.js').LocalIntent} LocalIntent
 * @typedef {{setup: Record<string, any>, seed: number, intents: LocalIntent[]}} Kept
 * @typedef {import('./net.js').Frame} Frame
 * @typedef {import('./net.js').Link} Link
 */

const KEY = 'snl.local';

/** Whether the page plays the kept game back instead of letting people play on. */
export const replaying = location.hash === '#replay';

/** @returns {Kept | null} the game kept on this device */
export function kept() {
  try {
    const k = JSON.parse(localStorage.getItem(KEY) ?? 'null');
    if (k && typeof k === 'object' && k.setup && Number.isSafeInteger(k.seed) && Array.isArray(k.intents)) return k;
  } catch {
    // Nothing usable: no game.
  }
  return null;
}

/**
 * Keeps a new game on this device (its intents to come).
 * @param {Record<string, any>} setup the request an online room is created with
 * @param {number} seed
 */
export function keepNew(setup, seed) {
  localStorage.setItem(KEY, JSON.stringify({ setup, seed, intents: [] }));
}

/** @param {Kept} game */
const save = (game) => localStorage.setItem(KEY, JSON.stringify(game));

/**
 * Plays the kept game in the page: `onFrame` is told every frame as an online room's connection
 * tells them. `seated` is told the seats of the people at this screen (none while replaying),
 * which the page then plays for.
 * @param {(frame: Frame) => void} onFrame
 * @param {(seats: number[], link: Link) => void} seated
 * @param {() => boolean} idle whether the page has shown every frame (for the replay's pace)
 * @returns {Promise<void>}
 */
export async function playHere(onFrame, seated, idle) {
  const game = kept();
  if (!game) throw new Error('No game is kept on this device: start one in the lobby with “Play here”.');
  const intents = replaying ? [] : game.intents;
  const { frames } = await localNew({ setup: game.setup, seed: game.seed, intents });
  let busy = false;
  /** @param {LocalIntent} intent @param {boolean} keep */
  const act = async (intent, keep) => {
    const answer = await localAct(intent);
    const refused = answer.frames.length === 1 && answer.frames[0].type === 'error';
    if (keep && !refused) {
      game.intents.push(intent);
      save(game);
    }
    for (const f of answer.frames) onFrame(f);
  };
  /** @type {Link} */
  const link = {
    open: true,
    close() {},
    send(frame) {
      const f = /** @type {Record<string, any>} */ (frame);
      /** @type {LocalIntent | null} */
      const intent = f.type === 'roll' ? { act: 'roll' } : f.type === 'choose' ? { act: 'choose', option: Number(f.option) } : null;
      if (!intent || busy || replaying) return false;
      busy = true;
      act(intent, true).finally(() => { busy = false; });
      return true;
    },
  };
  const welcome = frames[0];
  const people = welcome.state.seats.filter((/** @type {any} */ s) => s.kind === 'human').map((/** @type {any} */ s) => s.seat);
  seated(replaying ? [] : people, link);
  for (const f of frames) onFrame(f);
  if (replaying) {
    // The people's intents again, each once the page has shown what came before.
    for (const intent of game.intents) {
      await new Promise((resolve) => {
        const look = () => (idle() ? resolve(undefined) : setTimeout(look, 50));
        look();
      });
      await act(intent, false);
    }
  }
}
