// Dice statistics beside a room's board (GET /api/rooms/{room}/dice): asked when the page is idle,
// at most once a second; the table (dicetable.js) loads once there is something to show.

const room = document.body.dataset.local === 'true' ? '' : decodeURIComponent(location.pathname.split('/')[2] ?? '');
let at = -1e9;
let busy = false;
let again = false;
/** @type {ReturnType<typeof setTimeout> | 0} */
let timer = 0;

async function ask() {
  if (busy) { again = true; return; }
  if (timer) return;
  const wait = at + 1000 - performance.now();
  if (wait > 0) { timer = setTimeout(() => { timer = 0; void ask(); }, wait); return; }
  busy = true;
  at = performance.now();
  try {
    const r = await fetch(`/api/rooms/${encodeURIComponent(room)}/dice`);
    const answer = r.ok ? await r.json() : null;
    if (answer?.seats.some((/** @type {any} */ s) => s.game.throws || s.history.throws)) (await import('./dicetable.js')).draw(answer);
  } catch {
    // The next move asks again.
  } finally {
    busy = false;
    if (again) { again = false; void ask(); }
  }
}

if (room && document.getElementById('dice-card')) {
  new MutationObserver(() => { if (document.body.dataset.idle === 'true') void ask(); })
    .observe(document.body, { attributes: true, attributeFilter: ['data-idle'] });
  void ask();
}
