// Talking to snl serve: the HTTP API, the room's WebSocket (reconnecting with `since`, so no
// event is missed), and the seat tokens this device holds.

/**
 * @param {string} path
 * @param {unknown} [body] sent as JSON with POST when given
 * @returns {Promise<any>}
 */
export async function api(path, body) {
  const init = body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  const response = await fetch(path, init);
  const json = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(json?.error?.message ?? `the server answered ${response.status}`);
  return json;
}

/** @param {string} room */
const key = (room) => `snl.room.${room}`;

/**
 * A seat's own seed for the room's dice (docs/fairness.md): 16 random bytes from
 * crypto.getRandomValues, in hex. Sent when a seat is taken; the server cannot foresee it.
 * @returns {string}
 */
export function seatSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Takes seat `seat` of `room` as `name`, with a seed of the page's own for the dice.
 * @param {string} room
 * @param {number} seat
 * @param {string} name
 * @returns {Promise<{seat: number, token: string}>}
 */
export function takeSeat(room, seat, name) {
  return api(`/api/rooms/${encodeURIComponent(room)}/seats/${seat}`, { name, seed: seatSeed() });
}

/**
 * The seat tokens this device holds for `room`.
 * @param {string} room
 * @returns {string[]}
 */
export function heldTokens(room) {
  try {
    const list = JSON.parse(localStorage.getItem(key(room)) ?? '[]');
    return Array.isArray(list) ? list.filter((t) => typeof t === 'string') : [];
  } catch {
    return [];
  }
}

/** @param {string} room @param {string} token */
export function keepToken(room, token) {
  const list = heldTokens(room);
  if (!list.includes(token)) list.push(token);
  localStorage.setItem(key(room), JSON.stringify(list));
}

/** @param {string} room @param {string} token */
export function dropToken(room, token) {
  localStorage.setItem(key(room), JSON.stringify(heldTokens(room).filter((t) => t !== token)));
}

/**
 * @typedef {{type: string} & Record<string, any>} Frame
 * @typedef {{send: (frame: object) => boolean, close: () => void, readonly open: boolean}} Link
 */

/**
 * A room's WebSocket that says hello with `token` and reconnects after a drop, asking for the
 * events after the last one seen.
 * @param {string} room
 * @param {string | null} token
 * @param {(frame: Frame) => void} onFrame every frame from the server; on the first connection,
 *   the room's events before its welcome follow the welcome marked `past` (for the page's history)
 * @param {(open: boolean) => void} [onLink] told when the connection opens or drops
 * @param {boolean} [past] whether to ask for the room's past events (see `onFrame`)
 * @returns {Link}
 */
export function connect(room, token, onFrame, onLink, past = true) {
  /** @type {number | null} */
  let since = null;
  /** The first connection's welcome `seq`: the events up to it are the room's past. */
  let pastUpTo = 0;
  /** @type {WebSocket | null} */
  let socket = null;
  let closed = false;
  let tries = 0;
  let open = false;
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/rooms/${encodeURIComponent(room)}/ws`;
  const dial = () => {
    const ws = new WebSocket(url);
    socket = ws;
    ws.onopen = () => {
      tries = 0;
      // The first connection asks for the room's last events (as many as the page's log of
      // earlier events shows) when the past is wanted: the welcome's state is now, and the
      // events up to its seq are the room's past. A reconnection asks for what it missed.
      const hello = since === null && past ? { type: 'hello', token, since, recent: 500 } : { type: 'hello', token, since };
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (message) => {
      /** @type {Frame} */
      let frame;
      try {
        frame = JSON.parse(String(message.data));
      } catch {
        return;
      }
      if (frame.type === 'welcome') {
        open = true;
        onLink?.(true);
        // A fresh connection gets the whole state; a resumed one only what it missed.
        if (since === null) since = pastUpTo = frame.seq;
        else frame.resumed = true;
      }
      if (frame.type === 'event') {
        if (frame.seq <= pastUpTo) {
          onFrame({ ...frame, past: true });
          return;
        }
        if (since !== null && frame.seq <= since) return;
        since = frame.seq;
      }
      onFrame(frame);
    };
    ws.onclose = (event) => {
      // A finished room leaves the server's memory a while after its game ended: it closes
      // its connections so, and there is nothing more to wait for (nor to show as offline).
      if (event.code === 1000 && event.reason === 'the game is over') {
        closed = true;
        return;
      }
      if (open) onLink?.(false);
      open = false;
      if (closed) return;
      tries++;
      setTimeout(dial, Math.min(5000, 250 * 2 ** tries));
    };
  };
  dial();
  return {
    send(frame) {
      if (!socket || socket.readyState !== WebSocket.OPEN) return false;
      socket.send(JSON.stringify(frame));
      return true;
    },
    close() {
      closed = true;
      socket?.close();
    },
    get open() {
      return open;
    },
  };
}
