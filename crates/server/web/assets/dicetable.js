// The dice statistics table of a room page (dicestats.js loads it once there is something to
// show) and of a replay (replay.js, the faces up to the point shown): each seat's faces this
// game and, in a room, over its player's recorded games, the count fair dice give, the p-value
// and the verdict, all as the server sent them.

const card = document.getElementById('dice-card');
// Its styles load with it: the room page's first load does not carry them.
const link = document.createElement('link');
link.rel = 'stylesheet';
link.href = new URL('./dicetable.css', import.meta.url).href;
document.head.append(link);
const table = /** @type {HTMLTableElement | null} */ (document.getElementById('dice-stats'));

/**
 * @param {string} tag
 * @param {string} text
 * @param {Record<string, string>} [attrs]
 */
function cell(tag, text, attrs = {}) {
  const node = document.createElement(tag);
  node.textContent = text;
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

/**
 * One row: who and what is counted, each face's count (or the server's line for a die of many
 * faces), the count expected of each face, the p-value and the verdict.
 * @param {string} who @param {string} what @param {any} test @param {boolean} each
 */
function row(who, what, test, each) {
  const tr = document.createElement('tr');
  const head = cell('th', who, { scope: 'row' });
  head.append(document.createElement('br'), cell('small', what));
  tr.append(head);
  if (each) tr.append(...test.counts.map((/** @type {number} */ c) => cell('td', String(c), { class: 'num' })));
  else tr.append(cell('td', test.text));
  const none = test.throws === 0;
  // The verdict under its p-value: the card is narrow beside the board.
  const p = cell('td', none ? '—' : test.p_text, { class: 'num' });
  p.append(document.createElement('br'), cell('small', none ? 'no throws' : test.verdict, { class: 'verdict' }));
  tr.append(cell('td', none ? '—' : test.expected.toFixed(1), { class: 'num' }), p);
  tr.dataset.throws = String(test.throws);
  return tr;
}

/** @param {any} answer the server's answer */
export function draw(answer) {
  if (!table || !card) return;
  const each = answer.faces <= 12;
  const head = document.createElement('tr');
  head.append(cell('th', 'Player', { scope: 'col' }));
  if (each) for (let f = 1; f <= answer.faces; f++) head.append(cell('th', String(f), { scope: 'col', title: `face ${f}` }));
  else head.append(cell('th', `Faces of the d${answer.faces}`, { scope: 'col' }));
  head.append(cell('th', 'Exp.', { scope: 'col', title: 'each face’s count if the dice are fair' }), cell('th', 'p, verdict', { scope: 'col', title: 'the chance fair dice look at least this uneven, in words' }));
  const body = document.createElement('tbody');
  for (const s of answer.seats) {
    const name = s.name ?? `Seat ${s.seat + 1}`;
    const game = row(name, 'this game', s.game, each);
    game.dataset.seat = String(s.seat);
    game.dataset.kind = 'game';
    body.append(game);
    if (answer.history_over === undefined) continue; // a replay: the game only
    const games = s.history_games === 1 ? '1 recorded game' : `${s.history_games} recorded games`;
    const history = row(name, s.name === null ? 'no player yet' : s.history_games === 0 ? 'no recorded game' : `history, ${games}`, s.history, each);
    history.dataset.seat = String(s.seat);
    history.dataset.kind = 'history';
    history.className = 'history';
    body.append(history);
  }
  const thead = document.createElement('thead');
  thead.append(head);
  const over = answer.history_over === undefined ? '' : `; history over ${answer.history_over}`;
  const caption = cell('caption', `Each face’s count against the count fair dice give (Pearson’s chi-square test)${over}.`);
  table.replaceChildren(caption, thead, body);
  table.dataset.seq = String(answer.seq);
  card.hidden = false;
}

